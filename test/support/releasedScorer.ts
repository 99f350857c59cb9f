import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { toJsonl, toSummaryJson, type CompatGroundTruth, type CompatInputFile, type CompatResult } from '../../src/core/scoring/compat/index.ts';

/**
 * An optional oracle: with TRAVERSA_RELEASED_SCORER naming a copy of the authors' released scorer
 * (a Python script reading CAPNAV_RESULT_ROOT, CAPNAV_GT_ROOT and CAPNAV_RV_MODEL), every
 * reference-compatible result a test computes through `expectReleasedScorerAgrees` is checked
 * byte for byte against what that script writes for the same folder. The script is not part of
 * the repository; without the variable the check is skipped. It runs with a stand-in `openai`
 * package that never reaches the network (the released scorer imports one before it looks at
 * the reason, which it has dropped, so the stand-in is only asked when a path item smuggles in
 * "| Reason: …": its explanation then differs from ours, and the lines are compared without it).
 */
export const RELEASED_SCORER = process.env.TRAVERSA_RELEASED_SCORER;

/** The release files of a ground truth, as the released scorer reads them (`graphs/`, `traverse/`). */
function releaseFiles(truth: CompatGroundTruth): { path: string; text: string }[] {
  const files: { path: string; text: string }[] = [];
  for (const [scene, t] of truth) {
    files.push({ path: `graphs/${scene}-graph.json`, text: JSON.stringify({ nodes: t.nodes, edges: t.edges }) });
    const traverse = Object.fromEntries(
      Object.entries(t.traverse).map(([agent, table]) => [
        agent,
        Object.fromEntries(
          Object.entries(table).map(([k, l]) => [k, l.empty ? {} : { traversable: l.traversable, ...(l.note !== null ? { note: l.note } : {}) }]),
        ),
      ]),
    );
    files.push({ path: `traverse/${scene}-traverse.json`, text: JSON.stringify(traverse) });
  }
  return files;
}

const STUB = `class RateLimitError(Exception):
    pass
class _R:
    def __init__(self):
        m = type("M", (), {"content": '{"correct": false, "explanation": "stand-in judge"}'})()
        self.choices = [type("C", (), {"message": m})()]
class _C:
    def create(self, **kw):
        return _R()
class OpenAI:
    def __init__(self, **kw):
        self.chat = type("Chat", (), {"completions": _C()})()
`;

/** What the released scorer writes for these files over this ground truth: its JSONL and summary. */
export function runReleasedScorer(files: readonly CompatInputFile[], truth: CompatGroundTruth): { jsonl: string; summary: string } {
  const dir = mkdtempSync(join(tmpdir(), 'traversa-released-'));
  try {
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    for (const f of releaseFiles(truth)) write(`ground_truth/${f.path}`, f.text);
    for (const f of files) write(`results/${f.path}`, f.text);
    write('stub/openai/__init__.py', STUB);
    execFileSync('python3', [RELEASED_SCORER!], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        CAPNAV_RESULT_ROOT: 'results',
        CAPNAV_GT_ROOT: 'ground_truth',
        CAPNAV_RV_MODEL: 'none',
        OPENAI_API_KEY: 'unused',
        PYTHONPATH: join(dir, 'stub'),
      },
    });
    return {
      jsonl: readFileSync(join(dir, 'results/scored_per_record.jsonl'), 'utf8'),
      summary: readFileSync(join(dir, 'results/scored_summary.json'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const judged = (jsonl: string) => jsonl.replace(/"rv_judge_explanation": "(none: (in)?correct|stand-in judge)"/g, '"rv_judge_explanation": "<judge>"');

/**
 * With the released scorer at hand, check that `result` (scored with the default settings:
 * root `results`, ground truth `ground_truth`, judge `none`) is what it writes. A no-op otherwise.
 */
export function expectReleasedScorerAgrees(files: readonly CompatInputFile[], truth: CompatGroundTruth, result: CompatResult): void {
  // The released scorer stops with FileNotFoundError on a scene it has no files for.
  if (!RELEASED_SCORER || result.records.some((r) => !r.ok && r.error === 'unknown_scene')) return;
  const theirs = runReleasedScorer(files, truth);
  expect(judged(toJsonl(result.records))).toBe(judged(theirs.jsonl));
  expect(toSummaryJson(result.summary)).toBe(theirs.summary);
}
