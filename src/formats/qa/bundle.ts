/**
 * The benchmark bundle of question-answer items: the ACCEPTED items of a project, ready to
 * publish. Pure: it returns file paths and texts, and the caller zips or saves them.
 *
 * LAYOUT
 *
 *   qa/manifest.json            what the bundle holds and how it was made (see below)
 *   qa/items.json               { "format": "traversa-qa", "formatVersion": 1, "items": [ ...records ] }
 *   qa/items.jsonl              the same records, one JSON object per line, no header
 *   capnav/<SCENE>_QA.json      per scene with accepted CapNav items or generated navigation tasks:
 *                               those questions in the CapNav release's question-file format (a bare list)
 *
 * Only items with status `accepted` are exported, in project order. A navigation question (a
 * CapNav question or a generated navigation task) is written as one yes/no record per agent whose
 * labels decide it (`<id>:<AGENT>`, `[Agent]` filled in, `anchors.agent` set, and
 * `"navigation": {"item", "agent", "answerFrom": "labels"}`), never with the item's own answer;
 * agents the labels do not decide are listed in the manifest's `navigation.undecided`. Export is refused when the
 * consistency checks find an ERROR on an accepted item (an MCQ whose key is not an option, a
 * node not in the graph, no category…); errors on drafts, pending or rejected items and
 * warnings on anything do not block. All files are UTF-8 JSON; user text is written verbatim
 * (JSON escapes only quotes, backslashes and control characters).
 *
 * ONE RECORD (the same in items.json and items.jsonl):
 *
 *   {
 *     "id": "qa_12", "sceneId": "HM3D00025",
 *     "source": "written" | "generated" | "capnav",
 *     "capnavQuestion": 3,                 // CapNav items and generated tasks: index of the scene question it stands for
 *     "question": "How far is the sofa from the door, as seen from the hall?",
 *     "answer": { "kind": "numeric", "value": 2.4, "unit": "m", "tolerance": 0.1 },
 *        //  or { "kind": "mcq", "options": [{ "key": "A", "text": "..." }, ...], "correct": "A" }
 *        //  or { "kind": "yesno", "correct": true }  or { "kind": "freetext", "reference": "..." }
 *     "category": { "capability": "spatial", "capabilityName": "Spatial",
 *                   "subcategory": "DT", "subcategoryName": "Distance",        // when set
 *                   "taskType": "affordance", "taskTypeName": "Action affordance" },  // when set
 *        // a name is null when the id is not in the taxonomy (a warning, not an error)
 *     "anchors": {
 *       "viewpoints": [{ "id": "vp_1", "name": "hall", "camera": { "mode": "first", "position": {...},
 *                        "target": {...}, "fov": 60 }, "thumbnail": "data:image/jpeg;base64,..." }],
 *                        // thumbnail only when the view was rendered and thumbnails are included
 *       "marks": [{ "id": "mark_1", "number": 1, "position": { "x": 0, "y": 1, "z": 2 }, "label": "sofa" }],
 *       "nodes": [{ "id": "node_12", "name": "Living room" }],
 *       "edges": ["edge_3"],               // edge ids, or "a|b" segment keys, as anchored
 *       "agent": "WHEELCHAIR"              // when set
 *     },
 *     "measurement": { "kind": "distance", "value": 2.43, "points": [{...}, {...}] },  // when the answer was measured
 *     "trail": [{ "title": "Find the sofa", "text": "...", "kind": "perception",
 *                 "links": { "viewpoints": [], "nodes": [], "edges": [], "marks": ["mark_1"] },
 *                 "origin": "generated" | "written" | "edited" }],
 *     "generator": "gpt-4o-2024-08-06 / prompt v3",   // generated and CapNav items, when known
 *     "provenance": { "model": "gpt-4o", "promptVersion": "traversa-tasks-1", "endpoint": "api.openai.com",
 *                     "frames": { "budget": "16", "times": [0, 10.5, …] }, "generatedAt": "…" },
 *                                          // tasks generated in the studio: how (the endpoint's host only)
 *     "edited": false,                     // question, answer or trail differ from the generator's version
 *     "reviews": [{ "reviewer": "ana", "verdict": "accept" | "edit-accept" | "reject",
 *                   "reason": "hallucinated",          // rejections only, when given
 *                   "comment": "", "timeMs": 41000, "at": "2026-05-01T10:00:00.000Z" }],
 *     "adjudication": { "adjudicator": "lee", "decision": "accept", "comment": "", "at": "..." }  // when adjudicated
 *   }
 *
 * MANIFEST (qa/manifest.json):
 *
 *   format "traversa-qa", formatVersion 1, createdAt, traversa (app version),
 *   projectSchemaVersion, projectName, taxonomy (the project's whole taxonomy),
 *   counts of the EXPORTED items: items, byScene, byCapability, bySubcategory (per capability),
 *     byTaskType, byAnswerKind, bySource, edited, withTrail (items with a non-empty trail),
 *     trailSteps (all steps). Every key of the project's scenes and taxonomy is listed, 0 when
 *     unused; items without a subcategory or task type are not counted under those keys.
 *   review of ALL items of the project, whatever their status: items, byStatus, removal
 *     (how many decided items were rejected, and why), agreement (Cohen's / Fleiss' κ of the
 *     verdicts of items with two or more reviews),
 *   files: [{ path, bytes, sha256 }] for every other file of the bundle (UTF-8 byte length, hex digest).
 *
 * CAPNAV QUESTION FILES hold, per scene, exactly the accepted CapNav items' questions, ordered by
 * their index in the scene's question file, written by the release writer itself (references
 * that resolve are written as node ids, unmodelled fields come back unchanged). A question's text
 * is the item's when a reviewer reworded it, and its `reason` is the item's trail texts joined by
 * spaces. The scene's hallucination list (`_hallucinatedQuestions`, kept in the release's
 * traverse file) is not written: the file holds only accepted questions, none of them meant to be
 * excluded, and the traverse file would bring the scene's traversability labels with it.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { strToU8 } from 'fflate';
import type { Project, Scene } from '../../core/project.ts';
import { verdictAgreement, type VerdictAgreement } from '../../core/interRater.ts';
import { exportBlockers, type QaFinding } from '../../core/vqa/checks.ts';
import { ANSWER_KINDS, type Adjudication, type Answer, type Mark, type Provenance, type QaItem, type TrailStep, type Viewpoint } from '../../core/vqa/item.ts';
import { benchmarkItems, type NavigationTally } from '../../core/vqa/navigationAnswers.ts';
import { removalReport, type RemovalReport } from '../../core/vqa/review.ts';
import type { Taxonomy } from '../../core/vqa/taxonomy.ts';
import { summariseTrailDiff, trailDiff } from '../../core/vqa/trailDiff.ts';
import { releasePath } from '../capnav/files.ts';
import { writeRelease } from '../capnav/write.ts';

export const QA_BUNDLE_FORMAT = 'traversa-qa';
export const QA_BUNDLE_VERSION = 1;

export const QA_BUNDLE_PATHS = {
  manifest: 'qa/manifest.json',
  items: 'qa/items.json',
  itemsJsonl: 'qa/items.jsonl',
  capnavQa: (scene: string) => `capnav/${scene}_QA.json`,
};

export interface QaRecord {
  id: string;
  sceneId: string;
  source: QaItem['source'];
  capnavQuestion?: number;
  /** Navigation questions: the reviewed item this per-agent record comes from, and that the labels gave its answer. */
  navigation?: { item: string; agent: string; answerFrom: 'labels' };
  question: string;
  answer: Answer;
  category: {
    capability: string;
    capabilityName: string | null;
    subcategory?: string;
    subcategoryName?: string | null;
    taskType?: string;
    taskTypeName?: string | null;
  };
  anchors: { viewpoints: Viewpoint[]; marks: Mark[]; nodes: { id: string; name: string | null }[]; edges: string[]; agent?: string };
  /** Set-of-Mark pictures: each saved viewpoint rendered with the numbered marks (a PNG in the bundle); `marksOutside`: marks that view does not show. */
  setOfMark?: { viewpoint: string; image: string; marksOutside?: number[] }[];
  measurement?: NonNullable<QaItem['measurement']>;
  trail: Omit<TrailStep, 'id'>[];
  generator?: string;
  provenance?: Provenance;
  edited: boolean;
  reviews: { reviewer: string; verdict: 'accept' | 'edit-accept' | 'reject'; reason?: string; comment: string; timeMs: number; at: string }[];
  adjudication?: Adjudication;
}

export interface QaCounts {
  items: number;
  byScene: Record<string, number>;
  byCapability: Record<string, number>;
  /** capability id → subcategory id → items. */
  bySubcategory: Record<string, Record<string, number>>;
  byTaskType: Record<string, number>;
  byAnswerKind: Record<Answer['kind'], number>;
  bySource: Record<QaItem['source'], number>;
  edited: number;
  withTrail: number;
  trailSteps: number;
}

export interface QaManifest {
  format: typeof QA_BUNDLE_FORMAT;
  formatVersion: typeof QA_BUNDLE_VERSION;
  createdAt: string;
  /** Version of Traversa that wrote the bundle. */
  traversa: string;
  projectSchemaVersion: number;
  projectName: string;
  taxonomy: Taxonomy;
  counts: QaCounts;
  /**
   * Navigation questions (CapNav questions and generated navigation tasks): each accepted one is
   * written as one yes/no record per agent whose labels decide it; `undecided` lists the others.
   */
  navigation: NavigationTally;
  review: { items: number; byStatus: Record<QaItem['status'], number>; removal: RemovalReport; agreement: VerdictAgreement };
  files: { path: string; bytes: number; sha256: string }[];
}

export interface QaBundleOptions {
  createdAt: string;
  appVersion: string;
  /** Keep the viewpoints' JPEG thumbnails (default); without them the bundle is much smaller. */
  includeThumbnails?: boolean;
  /** Item id → its viewpoints rendered with the numbered marks (rendered by the caller: it takes the scan and a GPU). */
  setOfMark?: ReadonlyMap<string, readonly SetOfMarkPicture[]>;
}

/** One viewpoint of an item rendered with its marks, as a PNG. */
export interface SetOfMarkPicture {
  viewpoint: string;
  png: Uint8Array;
  marksOutside: number[];
}

/** Where an item's Set-of-Mark picture of its `k`-th viewpoint (from 1) goes in the bundle. */
export const setOfMarkPath = (itemId: string, k: number) => `qa/set-of-mark/${itemId.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '_')}-${k}.png`;

export type QaBundleResult =
  | { ok: true; files: { path: string; text: string }[]; images: { path: string; bytes: Uint8Array }[]; manifest: QaManifest }
  | { ok: false; errors: QaFinding[] };

const STATUSES: readonly QaItem['status'][] = ['draft', 'pending', 'accepted', 'rejected', 'adjudicate'];
const SOURCES: readonly QaItem['source'][] = ['written', 'generated', 'capnav'];

export function exportQaBundle(project: Pick<Project, 'name' | 'schemaVersion' | 'scenes' | 'qa' | 'profiles'>, options: QaBundleOptions): QaBundleResult {
  const accepted = project.qa.items.filter((i) => i.status === 'accepted');
  const errors = exportBlockers(project);
  if (errors.length > 0) return { ok: false, errors };

  const scenes = new Map(project.scenes.map((s) => [s.id, s]));
  const includeThumbnails = options.includeThumbnails ?? true;
  const { items, navigation } = benchmarkItems(project);
  const images: { path: string; bytes: Uint8Array }[] = [];
  const records = items.map((item) => {
    const record = toRecord(item, scenes.get(item.sceneId), project.qa.taxonomy, includeThumbnails);
    const pictures = item.navigation ? undefined : options.setOfMark?.get(item.id);
    if (pictures?.length) {
      record.setOfMark = pictures.map((p, k) => {
        const path = setOfMarkPath(item.id, k + 1);
        images.push({ path, bytes: p.png });
        return { viewpoint: p.viewpoint, image: path.slice('qa/'.length), ...(p.marksOutside.length ? { marksOutside: [...p.marksOutside] } : {}) };
      });
    }
    return item.navigation ? { ...record, navigation: { ...item.navigation } } : record;
  });

  const files = [
    { path: QA_BUNDLE_PATHS.items, text: JSON.stringify({ format: QA_BUNDLE_FORMAT, formatVersion: QA_BUNDLE_VERSION, items: records }, null, 2) + '\n' },
    { path: QA_BUNDLE_PATHS.itemsJsonl, text: records.map((r) => JSON.stringify(r) + '\n').join('') },
    ...capnavFiles(project.scenes, accepted),
  ];
  const manifest: QaManifest = {
    format: QA_BUNDLE_FORMAT,
    formatVersion: QA_BUNDLE_VERSION,
    createdAt: options.createdAt,
    traversa: options.appVersion,
    projectSchemaVersion: project.schemaVersion,
    projectName: project.name,
    taxonomy: structuredClone(project.qa.taxonomy),
    counts: countItems(records, project),
    navigation,
    review: {
      items: project.qa.items.length,
      byStatus: tally(
        STATUSES,
        project.qa.items.map((i) => i.status),
      ),
      removal: removalReport(project.qa.items),
      agreement: verdictAgreement(project.qa.items),
    },
    files: [...files.map((f) => ({ path: f.path, bytes: strToU8(f.text) })), ...images].map((f) => ({
      path: f.path,
      bytes: f.bytes.length,
      sha256: bytesToHex(sha256(f.bytes)),
    })),
  };
  return { ok: true, files: [{ path: QA_BUNDLE_PATHS.manifest, text: JSON.stringify(manifest, null, 2) + '\n' }, ...files], images, manifest };
}

function toRecord(item: QaItem, scene: Scene | undefined, taxonomy: Taxonomy, includeThumbnails: boolean): QaRecord {
  const nodeName = new Map(scene?.graph.nodes.map((n) => [n.id, n.name]) ?? []);
  const cap = taxonomy.capabilities.find((c) => c.id === item.category.capability);
  const { subcategory, taskType } = item.category;
  const generator = item.generated?.generator;
  return {
    id: item.id,
    sceneId: item.sceneId,
    source: item.source,
    ...(item.capnavQuestion !== undefined ? { capnavQuestion: item.capnavQuestion } : {}),
    question: item.question,
    answer: structuredClone(item.answer),
    category: {
      capability: item.category.capability,
      capabilityName: cap?.name ?? null,
      ...(subcategory !== undefined ? { subcategory, subcategoryName: cap?.subcategories.find((s) => s.id === subcategory)?.name ?? null } : {}),
      ...(taskType !== undefined ? { taskType, taskTypeName: taxonomy.taskTypes.find((t) => t.id === taskType)?.name ?? null } : {}),
    },
    anchors: {
      viewpoints: item.anchors.viewpoints.map((v) => {
        const { thumbnail, ...rest } = structuredClone(v);
        return includeThumbnails && thumbnail !== undefined ? { ...rest, thumbnail } : rest;
      }),
      marks: structuredClone(item.anchors.marks),
      nodes: item.anchors.nodes.map((id) => ({ id, name: nodeName.get(id) ?? null })),
      edges: [...item.anchors.edges],
      ...(item.anchors.agent !== undefined ? { agent: item.anchors.agent } : {}),
    },
    ...(item.measurement ? { measurement: structuredClone(item.measurement) } : {}),
    trail: item.trail.map((s) => ({ title: s.title, text: s.text, kind: s.kind, links: structuredClone(s.links), origin: s.origin })),
    ...(generator !== undefined ? { generator } : {}),
    ...(item.provenance ? { provenance: structuredClone(item.provenance) } : {}),
    edited: isEdited(item),
    reviews: item.reviews.map((r) => ({
      reviewer: r.reviewer,
      verdict: r.verdict,
      ...(r.reason !== undefined ? { reason: r.reason } : {}),
      comment: r.comment,
      timeMs: r.timeMs,
      at: r.at,
    })),
    ...(item.adjudication ? { adjudication: structuredClone(item.adjudication) } : {}),
  };
}

/** Whether a person changed the generator's question, answer or trail (reordering steps counts; a written item has nothing to differ from). */
function isEdited(item: QaItem): boolean {
  const g = item.generated;
  if (!g) return false;
  if (g.question !== item.question || canonicalJson(g.answer) !== canonicalJson(item.answer)) return true;
  const d = summariseTrailDiff(trailDiff(g.trail, item.trail));
  return d.added + d.removed + d.changed + d.moved > 0;
}

/** JSON with object keys sorted, so two values compare equal whatever order their keys were set in. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Counts keyed in a fixed order (the domain's, then any other keys seen), zeros included, so manifests diff cleanly. */
function tally<K extends string>(keys: readonly K[], values: readonly K[]): Record<K, number> {
  const out = Object.fromEntries(keys.map((k) => [k, 0])) as Record<K, number>;
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

function countItems(records: readonly QaRecord[], project: Pick<Project, 'scenes' | 'qa'>): QaCounts {
  const { taxonomy } = project.qa;
  const bySubcategory: Record<string, Record<string, number>> = {};
  for (const cap of taxonomy.capabilities)
    bySubcategory[cap.id] = tally(
      cap.subcategories.map((s) => s.id),
      [],
    );
  for (const r of records) {
    if (r.category.subcategory === undefined) continue;
    const row = (bySubcategory[r.category.capability] ??= {});
    row[r.category.subcategory] = (row[r.category.subcategory] ?? 0) + 1;
  }
  return {
    items: records.length,
    byScene: tally(
      project.scenes.map((s) => s.id),
      records.map((r) => r.sceneId),
    ),
    byCapability: tally(
      taxonomy.capabilities.map((c) => c.id),
      records.map((r) => r.category.capability),
    ),
    bySubcategory,
    byTaskType: tally(
      taxonomy.taskTypes.map((t) => t.id),
      records.flatMap((r) => (r.category.taskType !== undefined ? [r.category.taskType] : [])),
    ),
    byAnswerKind: tally(
      ANSWER_KINDS,
      records.map((r) => r.answer.kind),
    ),
    bySource: tally(
      SOURCES,
      records.map((r) => r.source),
    ),
    edited: records.filter((r) => r.edited).length,
    withTrail: records.filter((r) => r.trail.length > 0).length,
    trailSteps: records.reduce((n, r) => n + r.trail.length, 0),
  };
}

/**
 * Per scene, the accepted CapNav items' questions as a release question file. The file is the
 * release writer's own output for the scene with just these questions, so references and
 * unmodelled fields come out exactly as in a full release export.
 */
function capnavFiles(scenes: readonly Scene[], accepted: readonly QaItem[]): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const scene of scenes) {
    const mine = accepted
      .filter((i) => i.source !== 'written' && i.sceneId === scene.id && i.capnavQuestion !== undefined && scene.questions[i.capnavQuestion])
      .sort((a, b) => a.capnavQuestion! - b.capnavQuestion!);
    if (mine.length === 0) continue;
    const questions = mine.map((item) => {
      const q = scene.questions[item.capnavQuestion!]!;
      const reworded = item.question !== (item.generated?.question ?? q.text);
      const reason = item.trail
        .map((s) => s.text.trim())
        .filter((t) => t !== '')
        .join(' ');
      const { reason: _old, ...rest } = q;
      return { ...rest, text: reworded ? item.question : q.text, ...(reason !== '' ? { reason } : {}) };
    });
    const written = writeRelease({ profiles: [], scenes: [{ ...scene, questions }] }).find((f) => f.path === releasePath.qa(scene.id))!;
    out.push({ path: QA_BUNDLE_PATHS.capnavQa(scene.id), text: written.text });
  }
  return out;
}
