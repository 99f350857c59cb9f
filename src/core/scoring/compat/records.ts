import { parseItemAnswer } from './answer.ts';
import { failureNotes, pathErrors, resolvedIds, traversabilityScore } from './pathChecks.ts';
import { pyJsonLoads } from './pyJson.ts';
import { pyStr } from './pyText.ts';
import { isDict, type PyDict, type PyValue } from './pyValue.ts';
import { SceneIndex } from './sceneIndex.ts';
import type { CompatGroundTruth, CompatInputFile, CompatJudge, CompatRecord, CompatResult, FailReason } from './types.ts';

/** Every field at its "not computed" value; records fill in what they reach. */
function blankRecord(qid: string, scene: string | null, agent: string | null): CompatRecord {
  return {
    qid, scene, agent, ok: true, error: null, format_error: false, format_error_type: null, derive_method: null,
    src_id: null, tgt_id: null, vlm_answer: null, vlm_path_ids: null, pv_valid: null, pv_errors: [],
    rta_applicable: false, traversability_score: null, rv_applicable: false, rv_score: null,
    ground_truth_doable: null, correct_answer: null, binary_bucket: null,
  };
}

function failed(record: CompatRecord, error: FailReason): CompatRecord {
  record.ok = false;
  record.error = error;
  return record;
}

/** Scene indexes built on first use, shared by all files of a run. */
export class Scenes {
  private readonly built = new Map<string, SceneIndex>();
  constructor(private readonly truth: CompatGroundTruth) {}

  get(scene: string): SceneIndex | undefined {
    let index = this.built.get(scene);
    if (!index) {
      const truth = this.truth.get(scene);
      if (!truth) return undefined;
      this.built.set(scene, (index = new SceneIndex(truth)));
    }
    return index;
  }
}

/**
 * §2 step 1 for one file: a file that does not parse as JSON (Python's `json.load`: a BOM or
 * `NaN` are judged as Python judges them), is not an object, lacks the key `scene`, or whose
 * `result` is missing or not a list is one failed record, its qid the file's path. Non-object
 * items are skipped without a record. Why a file did not parse goes to `unreadable`.
 */
export function scoreFile(file: CompatInputFile, scenes: Scenes, judge: CompatJudge, out: CompatRecord[], unreadable: CompatResult['unreadable']): void {
  const parsed = pyJsonLoads(file.text);
  if (!parsed.ok) {
    unreadable.push({ path: file.path, message: `${parsed.message}: char ${parsed.offset}` });
    out.push(failed(blankRecord(file.path, null, null), 'invalid_json'));
    return;
  }
  const data = parsed.value;
  if (!isDict(data)) { out.push(failed(blankRecord(file.path, null, null), 'not_a_dict')); return; }
  if (!data.has('scene')) { out.push(failed(blankRecord(file.path, null, null), 'missing_scene')); return; }
  const scene = data.get('scene')!;
  const result = data.get('result');
  if (!Array.isArray(result)) { out.push(failed(blankRecord(file.path, pyStr(scene), null), 'result_not_list')); return; }
  for (const item of result) if (isDict(item)) out.push(scoreItem(scene, item, scenes, judge));
}

/**
 * Text of the question and agent fields: a string as it is, missing or null as "", anything
 * else `str()`-ed. The scene is `str()`-ed (a null scene is "None" and matches no scene).
 */
function textOf(v: PyValue | undefined): string {
  return v === undefined || v === null ? '' : pyStr(v);
}

/** §2 steps 2–8 for one item of a file whose scene is `scene`. */
function scoreItem(sceneValue: PyValue, item: PyDict, scenes: Scenes, judge: CompatJudge): CompatRecord {
  const sceneId = pyStr(sceneValue);
  const question = textOf(item.get('question'));
  const agent = textOf(item.get('agent'));
  const r = blankRecord(`${sceneId}::${question}::${agent}`, sceneId, agent);

  const scene = typeof sceneValue === 'string' ? scenes.get(sceneValue) : undefined;
  if (!scene) return failed(r, 'unknown_scene');
  const ends = scene.endpoints(question);
  if (!ends) return failed(r, 'no_node_name_hit_in_question');
  r.derive_method = ends.method;
  r.src_id = ends.src;
  r.tgt_id = ends.tgt;
  const doable = scene.doable(ends.src, ends.tgt, agent);
  r.ground_truth_doable = doable;

  const answer = parseItemAnswer(item);
  if (!answer.ok) {
    // Format errors are wrong answers: a missed positive when feasible, a false alarm when not.
    r.format_error = true;
    r.format_error_type = answer.formatError;
    r.correct_answer = false;
    r.binary_bucket = doable ? 'FN' : 'FP';
    return r;
  }
  r.vlm_answer = answer.yes;
  r.correct_answer = answer.yes === doable;
  r.binary_bucket = answer.yes ? (doable ? 'TP' : 'FP') : (doable ? 'FN' : 'TN');

  const ids = scene.pathIds(answer.tokens);
  r.vlm_path_ids = ids;
  r.pv_errors = pathErrors(ids, ends.src, ends.tgt, scene);
  r.pv_valid = r.pv_errors.length === 0;
  const resolved = resolvedIds(ids);
  if (answer.yes) {
    if (r.pv_valid) {
      r.rta_applicable = true;
      r.traversability_score = traversabilityScore(resolved, agent, scene);
    }
  } else {
    // The reason never reaches the judge: the released scorer dropped it with the answer line.
    r.rv_applicable = true;
    r.rv_score = resolved.length >= 2 ? judge('', failureNotes(resolved, agent, scene)) : 0;
  }
  return r;
}
