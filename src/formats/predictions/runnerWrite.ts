import type { EvalInput } from '../../core/evalinputs/types.ts';
import type { SourceFile } from '../json.ts';
import type { ReadReply, ReplyResult } from './modelReply.ts';

/** What became of one input, as the results file records it. */
export type ItemOutcome = { kind: 'answer'; result: ReplyResult } | { kind: 'unreadable'; why: string; content: string } | { kind: 'failed'; error: string };

export const outcomeOfReading = (reading: ReadReply, content: string): ItemOutcome =>
  reading.kind === 'answer' ? { kind: 'answer', result: reading.result } : { kind: 'unreadable', why: reading.why, content };

/**
 * Predictions in the CapNav runner's layout, which `score` (both modes) reads:
 *
 *     <model_setting>/<SCENE>/<SCENE>_<AGENT>.json
 *     { "scene": "HM3D00025", "prompt_version": "capnav-eval-1", "frames": "16",
 *       "result": [ { "question": "Can [Agent] move from …", "agent": "HUMANOID",
 *                     "result": { "answer": "no", "path": ["node_126", "node_120"], "reason": "…" },
 *                     "prompt_file": "HM3D00025_q01_HUMANOID.txt" } ] }
 *
 * one item per question, in QA-file order; `question` is the QA file's text (`[Agent]` kept), so
 * both scorers match it exactly. A reply that could not be read, and a request that failed, are
 * written as an empty answer — `"result": {"answer": "", "path": [], "reason": ""}` — which both
 * scorers count as an unparseable prediction (a wrong answer: paper mode's unparseable record,
 * the released scorer's `cannot_parse_answer_path` format error); the item says why in
 * `unreadable` (with the reply as `raw`) or `error`. Nothing in the files depends on timing, so
 * the same answers always give the same bytes.
 */
export function runnerResultFiles(items: readonly { input: EvalInput; outcome: ItemOutcome }[], modelSetting: string): SourceFile[] {
  const groups = new Map<string, { input: EvalInput; outcome: ItemOutcome }[]>();
  for (const it of items) {
    const path = `${modelSetting}/${it.input.scene}/${it.input.scene}_${it.input.agent}.json`;
    const group = groups.get(path);
    if (group) group.push(it);
    else groups.set(path, [it]);
  }
  return [...groups].map(([path, group]) => {
    const sorted = [...group].sort((a, b) => a.input.questionIndex - b.input.questionIndex);
    const first = sorted[0]!.input;
    const file = {
      scene: first.scene,
      prompt_version: first.promptVersion,
      frames: first.budget,
      result: sorted.map(({ input, outcome }) => item(input, outcome)),
    };
    return { path, text: JSON.stringify(file, null, 2) + '\n' };
  });
}

function item(input: EvalInput, outcome: ItemOutcome): Record<string, unknown> {
  const base = { question: input.question, agent: input.agent };
  const empty = { answer: '', path: [], reason: '' };
  switch (outcome.kind) {
    case 'answer':
      return { ...base, result: outcome.result, prompt_file: input.promptFile };
    case 'unreadable':
      return { ...base, result: empty, prompt_file: input.promptFile, unreadable: outcome.why, raw: outcome.content };
    case 'failed':
      return { ...base, result: empty, prompt_file: input.promptFile, error: outcome.error };
  }
}
