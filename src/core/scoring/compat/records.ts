import { parseItemAnswer, reasonIn } from './answer.ts';
import { pathErrors, resolvedIds, traversabilityScore } from './pathChecks.ts';
import { pyJsonLoads } from './pyJson.ts';
import { pyStr } from './pyText.ts';
import { isDict, pyTruthy, type PyDict, type PyValue } from './pyValue.ts';
import { SceneIndex } from './sceneIndex.ts';
import type {
  CompatFailedRecord,
  CompatFileOutcome,
  CompatFormatErrorRecord,
  CompatGroundTruth,
  CompatInputFile,
  CompatJudge,
  CompatParsedRecord,
  CompatRecord,
  CompatResult,
  RecordFailReason,
} from './types.ts';

/** Scene indexes built on first use, shared by all files of a run. */
export class Scenes {
  private readonly built = new Map<string, SceneIndex | null>();
  constructor(private readonly truth: CompatGroundTruth) {}

  get(scene: string): SceneIndex | null {
    let index = this.built.get(scene);
    if (index === undefined) {
      const truth = this.truth.get(scene);
      this.built.set(scene, (index = truth ? new SceneIndex(truth) : null));
    }
    return index;
  }
}

/** What scoring one file needs besides the file. */
export interface FileContext {
  scenes: Scenes;
  judge: CompatJudge;
  /** `str(RESULT_ROOT)`. */
  resultRoot: string;
  rvModel: string;
  unreadable: CompatResult['unreadable'];
}

/**
 * §2 step 1 for one file (`records_from_output_file`): a file that does not parse as JSON
 * (Python's `json.loads`: a BOM or nesting past 1,000 levels fail, `NaN` is read) or is not an
 * object fails `invalid_json`; then a scene that is not a non-empty string fails
 * `missing_scene`, a missing or null `result` `missing_result`, a non-list one `result_not_list`,
 * and a list without one object item `empty_result_items_or_missing_fields`. Such a file counts
 * as one failed record and writes none. Non-object items are skipped, but keep their index.
 */
export function scoreFile(file: CompatInputFile, ctx: FileContext): CompatFileOutcome {
  const fail = (failure: CompatFileOutcome['failure']): CompatFileOutcome => ({ path: file.path, failure, records: [] });
  const parsed = pyJsonLoads(file.text);
  if (!parsed.ok) {
    ctx.unreadable.push({ path: file.path, message: `${parsed.message}: char ${parsed.offset}` });
    return fail('invalid_json');
  }
  const data = parsed.value;
  if (!isDict(data)) return fail('invalid_json');
  const scene = data.get('scene');
  if (typeof scene !== 'string' || scene === '') return fail('missing_scene');
  const items = data.get('result');
  if (items === undefined || items === null) return fail('missing_result');
  if (!Array.isArray(items)) return fail('result_not_list');

  const sourceFile = joinPath(ctx.resultRoot, file.path);
  const shared = {
    stem: stem(file.path),
    scene,
    source_file: sourceFile,
    model_setting: grandparentName(sourceFile),
    prompt_file: data.get('prompt_file') ?? null,
    time_sec: data.get('time_sec') ?? null,
  };
  const index = ctx.scenes.get(scene);
  const records: CompatRecord[] = [];
  items.forEach((item, i) => {
    if (isDict(item)) records.push(scoreItem(item, i, shared, index, ctx));
  });
  if (records.length === 0) return fail('empty_result_items_or_missing_fields');
  return { path: file.path, failure: null, records };
}

interface FileShared {
  stem: string;
  scene: string;
  source_file: string;
  model_setting: string;
  prompt_file: PyValue;
  time_sec: PyValue;
}

/** §2 steps 2–8 for one item (`score_record`). Records are written as whole literals (no spreads): 50,000 of them must stay cheap. */
function scoreItem(item: PyDict, i: number, f: FileShared, scene: SceneIndex | null, ctx: FileContext): CompatRecord {
  const agent = item.get('agent') ?? null;
  const question = item.get('question') ?? null;
  const qid = `${f.stem}:${i}`;
  if (!pyTruthy(agent) || !pyTruthy(question)) return failed(qid, f, agent, i, question, 'missing_scene_agent_or_question', false);
  if (!scene) return failed(qid, f, agent, i, question, 'unknown_scene', false);
  const st = scene.endpoints(typeof question === 'string' ? question : null);
  if (!st.ok) return failed(qid, f, agent, i, question, st.error, true);

  const key = scene.agentKey((typeof agent === 'string' ? agent : pyStr(agent)).toUpperCase());
  const doable = scene.doable(st.src_id, st.tgt_id, key);
  const answer = parseItemAnswer(item);
  if (!answer.ok) {
    // A wrong answer either way: a missed positive when feasible, a false alarm when not.
    const r: CompatFormatErrorRecord = {
      qid,
      scene: f.scene,
      agent,
      entry_idx: i,
      status: null,
      question,
      source_file: f.source_file,
      model_setting: f.model_setting,
      prompt_file: f.prompt_file,
      time_sec: f.time_sec,
      ok: true,
      format_error: true,
      format_error_type: answer.formatError,
      derive_method: st.method,
      src_name: st.src_name,
      tgt_name: st.tgt_name,
      src_id: st.src_id,
      tgt_id: st.tgt_id,
      vlm_answer: 'fail',
      vlm_path_names_raw: [],
      vlm_path_names_mapped: [],
      vlm_path_ids: [],
      pv_valid: null,
      pv_errors: [],
      rta_applicable: false,
      traversability_score: null,
      rv_applicable: false,
      rv_score: null,
      rv_judge_explanation: null,
      rv_llm_model: ctx.rvModel,
      ground_truth_doable: doable,
      correct_answer: false,
      binary_bucket: doable ? 'FN' : 'FP',
    };
    return r;
  }

  const { ids, mapped } = scene.resolvePath(answer.tokens);
  const pvErrors = pathErrors(ids, st.src_id, st.tgt_id, scene);
  const pvValid = pvErrors.length === 0;
  const yes = answer.answer === 'yes';
  let trav: number | null = null,
    rvScore: number | null = null,
    rvExplanation: string | null = null;
  // A valid path has every token resolved.
  if (yes && pvValid) trav = traversabilityScore(ids as string[], scene, key);
  if (!yes) {
    const resolved = resolvedIds(ids);
    if (resolved.length >= 2) {
      // The reason never reaches this point: the answer line was rebuilt without it. Only a path
      // item holding "| Reason: …" brings one, and only then is the judge asked.
      const reason = reasonIn(answer.raw);
      const correct = reason === '' ? 0 : ctx.judge(reason, scene.failureNotes(resolved, key));
      rvScore = correct;
      rvExplanation = reason === '' ? 'No reasoning provided by VLM' : `${ctx.rvModel}: ${correct ? 'correct' : 'incorrect'}`;
    } else {
      rvScore = 0;
      rvExplanation = 'No valid proposed route for RV';
    }
  }
  const r: CompatParsedRecord = {
    qid,
    scene: f.scene,
    agent,
    entry_idx: i,
    status: null,
    question,
    source_file: f.source_file,
    model_setting: f.model_setting,
    prompt_file: f.prompt_file,
    time_sec: f.time_sec,
    ok: true,
    format_error: false,
    format_error_type: null,
    binary_bucket: null,
    derive_method: st.method,
    src_name: st.src_name,
    tgt_name: st.tgt_name,
    src_id: st.src_id,
    tgt_id: st.tgt_id,
    vlm_answer: answer.answer,
    vlm_path_names_raw: answer.tokens,
    vlm_path_names_mapped: mapped,
    vlm_path_ids: ids,
    pv_valid: pvValid,
    pv_errors: pvErrors,
    rta_applicable: yes && pvValid,
    traversability_score: trav,
    rv_applicable: !yes,
    rv_score: rvScore,
    rv_judge_explanation: rvExplanation,
    rv_llm_model: ctx.rvModel,
    ground_truth_doable: doable,
    correct_answer: yes === doable,
  };
  return r;
}

/** A structural failure; `derive_method` (null) only when the endpoint guess ran. */
function failed(qid: string, f: FileShared, agent: PyValue, i: number, question: PyValue, error: RecordFailReason, guessed: boolean): CompatFailedRecord {
  return guessed
    ? {
        qid,
        scene: f.scene,
        agent,
        entry_idx: i,
        status: null,
        question,
        source_file: f.source_file,
        model_setting: f.model_setting,
        prompt_file: f.prompt_file,
        time_sec: f.time_sec,
        ok: false,
        error,
        derive_method: null,
      }
    : {
        qid,
        scene: f.scene,
        agent,
        entry_idx: i,
        status: null,
        question,
        source_file: f.source_file,
        model_setting: f.model_setting,
        prompt_file: f.prompt_file,
        time_sec: f.time_sec,
        ok: false,
        error,
      };
}

/** `str(Path(root) / rel)` for a `/`-separated relative path. */
export function joinPath(root: string, rel: string): string {
  if (root === '' || root === '.') return rel;
  return root.endsWith('/') ? root + rel : `${root}/${rel}`;
}

/** `Path(p).parent.parent.name`: the folder two levels up, "" when the path has no such component. */
export function grandparentName(path: string): string {
  const parts = path.split('/').filter((p) => p !== '' && p !== '.');
  return parts.length >= 3 ? parts[parts.length - 3]! : '';
}

/** `Path(p).stem` of the file name. */
function stem(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(0, dot) : name;
}
