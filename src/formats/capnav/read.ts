import type { z } from 'zod';
import { canonicalAgent, DEFAULT_PROFILES, type AgentProfile } from '../../core/agents.ts';
import { checkScene } from '../../core/checks.ts';
import { parseSegmentKey } from '../../core/graph.ts';
import type { Label } from '../../core/labels.ts';
import { hasBlocking, pointer, type Problem } from '../../core/problems.ts';
import { emptyProject, type Project, type Scene } from '../../core/project.ts';
import { resolveRef, type NavQuestion, type NodeRef } from '../../core/questions.ts';
import { checkShape, extraFields, parseJson, type SourceFile } from '../json.ts';
import { classify, isTourFile, stripCommonRoot } from './files.ts';
import { locateFinding, type SceneFiles } from './locate.ts';
import { navQuestionOf } from './question.ts';
import {
  KNOWN,
  RawAgentTable,
  RawGraph,
  RawHallucinated,
  RawLabel,
  RawProfile,
  RawProfileFile,
  RawQuestion,
  RawQuestionFile,
  RawTraverseFile,
} from './rawSchemas.ts';
import { append } from '../../core/arrays.ts';
import { overLimit, RELEASE_LIMITS, releaseTooLarge, sceneRecords, type ReleaseLimits } from './limits.ts';

export interface ReadResult {
  /** The project, or null when any problem is fatal: a release is imported whole or not at all. */
  project: Project | null;
  problems: Problem[];
}

const HALLUCINATED_KEY = '_hallucinatedQuestions';

/**
 * Read a CapNav release (any subset of its files; folders may be flattened) into a project.
 * Every quirk of the real release is accepted; every problem is reported with its file and
 * location. Nothing is guessed: references that match no node stay unresolved and are reported.
 */
export function readRelease(files: readonly SourceFile[], name = 'CapNav release', limits: ReleaseLimits = RELEASE_LIMITS): ReadResult {
  const reader = new ReleaseReader(
    files.map((f) => f.path),
    name,
    limits,
  );
  for (const f of files) reader.add(f);
  return reader.finish();
}

/**
 * Files in the order a `ReleaseReader` can use them soonest: the profiles and other files first,
 * then each scene's files together (scenes in the order their first file was picked; a scene's
 * files, duplicates too, keep their picked order). A picked folder lists all graphs, then all
 * questions, then all labels, so no scene could be read before the last third had arrived.
 */
export function sceneOrder<T extends { path: string }>(files: readonly T[]): T[] {
  const groups = new Map<string, T[]>();
  for (const f of files) {
    const kind = classify(f.path);
    const key = kind.kind === 'profiles' || kind.kind === 'other' ? '' : `scene:${kind.scene}`;
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  return [...(groups.get('') ?? []), ...[...groups].filter(([k]) => k !== '').flatMap(([, g]) => g)];
}

type SceneSlot = { graph?: SourceFile; qa?: SourceFile; traverse?: SourceFile };

/**
 * `readRelease` a file at a time, for files that arrive one by one (a picked folder is read by the
 * browser file by file): a scene is read as soon as its graph, questions and labels have all been
 * added, so the work is done while the other files are still on their way. Given the files in the
 * same order, the result — project and problems, in their order — is `readRelease`'s.
 */
export class ReleaseReader {
  private readonly rel: (path: string) => string;
  private readonly fileProblems: Problem[] = [];
  private readonly byScene = new Map<string, SceneSlot>();
  /** Scenes read early: the scene (null when refused) and its problems. */
  private readonly read = new Map<string, { scene: Scene | null; problems: Problem[] }>();
  private profileFile: SourceFile | undefined;
  /** Records of the scenes read so far, against `RELEASE_LIMITS.records`. */
  private records = 0;
  private tooLarge = false;

  /** `paths`: every file that will be added (the common folder is taken off them all). */
  constructor(
    paths: readonly string[],
    private readonly name = 'CapNav release',
    private readonly limits: ReleaseLimits = RELEASE_LIMITS,
  ) {
    this.rel = stripCommonRoot(paths);
  }

  /** Add a file; returns the scene it completed, when it did and the scene could be read. */
  add(original: SourceFile): Scene | null {
    const problems = this.fileProblems;
    const file = { path: this.rel(original.path), text: original.text };
    const kind = classify(file.path);
    if (kind.kind === 'other') {
      // The touring videos' poses and frame lists are release files too, read by their own readers.
      if (file.path.toLowerCase().endsWith('.json') && !isTourFile(file.path))
        problems.push({
          severity: 'warning',
          code: 'file.ignored',
          file: file.path,
          location: '',
          message: 'not a CapNav release file (expected agent_profile.json, <SCENE>-graph.json, <SCENE>_QA.json or <SCENE>-traverse.json); ignored',
        });
      return null;
    }
    if (kind.kind === 'profiles') {
      if (this.profileFile)
        problems.push({
          severity: 'fatal',
          code: 'file.duplicate',
          file: file.path,
          location: '',
          message: `a second agent_profile.json (the first is ${this.profileFile.path})`,
        });
      else this.profileFile = file;
      return null;
    }
    const slot = this.byScene.get(kind.scene) ?? {};
    const earlier = slot[kind.kind];
    if (earlier)
      problems.push({
        severity: 'fatal',
        code: 'file.duplicate',
        file: file.path,
        location: '',
        message: `a second ${kind.kind} file for scene ${kind.scene} (the first is ${earlier.path})`,
      });
    else slot[kind.kind] = file;
    this.byScene.set(kind.scene, slot);
    // A scene with all three files is read now (a later duplicate of one of them is reported, and
    // never read, either way).
    return slot.graph && slot.qa && slot.traverse && !this.read.has(kind.scene) ? this.readNow(kind.scene, slot).scene : null;
  }

  private readNow(sceneId: string, slot: SceneSlot): { scene: Scene | null; problems: Problem[] } {
    const problems: Problem[] = [];
    // Past the release's limit, the scenes after the one that passed it are not read at all.
    const scene = this.tooLarge ? null : readScene(sceneId, slot, problems, this.limits);
    if (scene) {
      this.records += sceneRecords(scene);
      if (this.records > this.limits.records) {
        this.tooLarge = true;
        problems.push(releaseTooLarge((slot.graph ?? slot.qa ?? slot.traverse)!.path, this.records, this.limits.records));
      }
    }
    const result = { scene, problems };
    this.read.set(sceneId, result);
    return result;
  }

  finish(): ReadResult {
    const problems = [...this.fileProblems];
    if (this.byScene.size === 0 && !this.profileFile) {
      problems.push({
        severity: 'fatal',
        code: 'release.empty',
        file: '',
        location: '',
        message: 'no CapNav release files found: expected graphs/<SCENE>-graph.json, qa/<SCENE>_QA.json, traverse/<SCENE>-traverse.json and agent_profile.json',
      });
    }
    const profiles = this.profileFile ? readProfiles(this.profileFile, problems) : DEFAULT_PROFILES.map((p) => ({ ...p }));
    const scenes: Scene[] = [];
    for (const sceneId of [...this.byScene.keys()].sort()) {
      const { scene, problems: own } = this.read.get(sceneId) ?? this.readNow(sceneId, this.byScene.get(sceneId)!);
      append(problems, own);
      if (scene) scenes.push(scene);
    }
    const project: Project = { ...emptyProject(this.name, profiles), scenes };
    return { project: hasBlocking(problems) ? null : project, problems };
  }
}

function readProfiles(file: SourceFile, problems: Problem[]): AgentProfile[] {
  const parsed = parseJson(file);
  if (!parsed.ok) {
    problems.push(parsed.problem);
    return [];
  }
  const list = checkShape(file.path, parsed.value, RawProfileFile);
  if (!list.ok) {
    append(problems, list.problems);
    return [];
  }
  const out: AgentProfile[] = [];
  list.value.forEach((item, i) => {
    const p = checkShape(file.path, item, RawProfile, [i]);
    if (!p.ok) {
      append(problems, p.problems);
      return;
    }
    const v = p.value;
    const profile: AgentProfile = {
      name: canonicalAgent(v.agent_name),
      shape: v.body_shape,
      heightM: v.body_height_m,
      widthM: v.body_width_m,
      depthM: v.body_depth_m ?? null,
      maxStepM: v.max_vertical_cross_height_m,
      canUseStairs: v.can_go_up_or_down_stairs,
      canUseElevator: v.can_operate_elevator,
      canOpenDoors: v.can_open_the_door,
      turningSpaceM: v.turning_space_m ?? null,
      description: v.description ?? '',
    };
    const extra = extraFields(v, KNOWN.profile);
    if (extra) profile.extra = extra;
    if (out.some((o) => o.name === profile.name)) {
      problems.push({
        severity: 'fatal',
        code: 'profile.duplicate',
        file: file.path,
        location: pointer([i, 'agent_name']),
        message: `agent ${profile.name} is defined more than once`,
      });
    } else out.push(profile);
  });
  return out;
}

function readScene(sceneId: string, files: SceneSlot, problems: Problem[], limits: ReleaseLimits): Scene | null {
  if (!files.graph) {
    const other = (files.qa ?? files.traverse)!;
    problems.push({
      severity: 'fatal',
      code: 'scene.no-graph',
      file: other.path,
      location: '',
      message: `scene ${sceneId} has no ${sceneId}-graph.json, so its questions and labels cannot be resolved`,
    });
    return null;
  }
  const at: SceneFiles = {
    graph: files.graph.path,
    qa: files.qa?.path ?? `qa/${sceneId}_QA.json`,
    traverse: files.traverse?.path ?? `traverse/${sceneId}-traverse.json`,
    qaBase: [],
    agentKeys: new Map(),
  };
  const before = problems.length;
  const graph = readGraph(files.graph, problems, limits);
  if (!files.qa)
    problems.push({
      severity: 'warning',
      code: 'scene.no-questions',
      file: files.graph.path,
      location: '',
      message: `scene ${sceneId} has no ${sceneId}_QA.json: it has no questions`,
    });
  if (!files.traverse)
    problems.push({
      severity: 'warning',
      code: 'scene.no-labels',
      file: files.graph.path,
      location: '',
      message: `scene ${sceneId} has no ${sceneId}-traverse.json: it has no labels`,
    });
  if (!graph) return null;
  const questions = files.qa ? readQuestions(files.qa, graph.nodes, at, problems, limits) : [];
  const traverse = files.traverse ? readTraverse(files.traverse, at, problems, limits) : { labels: {}, hallucinated: [], foreignEntries: [] };
  if (problems.slice(before).some((p) => p.severity === 'fatal')) return null;
  const scene: Scene = {
    id: sceneId,
    graph: { nodes: graph.nodes, edges: graph.edges },
    questions,
    ...traverse,
    mesh: null,
    ...(graph.graphExtra ? { graphExtra: graph.graphExtra } : {}),
  };
  for (const finding of checkScene(scene)) problems.push(locateFinding(finding, at));
  return scene;
}

function readGraph(file: SourceFile, problems: Problem[], limits: ReleaseLimits): (Scene['graph'] & Pick<Scene, 'graphExtra'>) | null {
  const parsed = parseJson(file);
  if (!parsed.ok) {
    problems.push(parsed.problem);
    return null;
  }
  const raw = parsed.value as { nodes?: unknown; edges?: unknown } | null;
  const sizes = [
    overLimit(file.path, '/nodes', Array.isArray(raw?.nodes) ? raw.nodes.length : 0, limits.nodes, 'nodes', "a scene's graph"),
    overLimit(file.path, '/edges', Array.isArray(raw?.edges) ? raw.edges.length : 0, limits.edges, 'edges', "a scene's graph"),
  ].filter((p) => p !== null);
  if (sizes.length) {
    append(problems, sizes);
    return null;
  }
  const g = checkShape(file.path, parsed.value, RawGraph);
  if (!g.ok) {
    append(problems, g.problems);
    return null;
  }
  const graphExtra = extraFields(g.value, ['nodes', 'edges']);
  return {
    ...(graphExtra ? { graphExtra } : {}),
    nodes: g.value.nodes.map((n) => {
      const floor = typeof n.floor === 'number' && Number.isInteger(n.floor) ? n.floor : null;
      const extra = extraFields(n, floor === null ? KNOWN.node.filter((k) => k !== 'floor') : KNOWN.node);
      const { x, y, z } = n.position;
      return { id: n.id, name: n.name, description: n.description ?? '', position: { x, y, z }, floor, ...(extra ? { extra } : {}) };
    }),
    edges: g.value.edges.map((e) => {
      const extra = extraFields(e, KNOWN.edge);
      return { id: e.id, from: e.from, to: e.to, ...(extra ? { extra } : {}) };
    }),
  };
}

function readQuestions(file: SourceFile, nodes: Scene['graph']['nodes'], at: SceneFiles, problems: Problem[], limits: ReleaseLimits): NavQuestion[] {
  const parsed = parseJson(file);
  if (!parsed.ok) {
    problems.push(parsed.problem);
    return [];
  }
  const shape = checkShape(file.path, parsed.value, RawQuestionFile);
  if (!shape.ok) {
    problems.push({
      severity: 'fatal',
      code: 'schema',
      file: file.path,
      location: '',
      message: 'expected a list of questions, or an object with a "questions" list',
    });
    return [];
  }
  const items = Array.isArray(shape.value) ? shape.value : shape.value.questions;
  at.qaBase = Array.isArray(shape.value) ? [] : ['questions'];
  const tooMany = overLimit(file.path, pointer(at.qaBase), items.length, limits.questions, 'questions', 'a scene');
  if (tooMany) {
    problems.push(tooMany);
    return [];
  }
  const out: NavQuestion[] = [];
  items.forEach((item, i) => {
    const q = checkShape(file.path, item, RawQuestion, [...at.qaBase, i]);
    if (!q.ok) {
      append(problems, q.problems);
      return;
    }
    out.push(navQuestionOf(q.value, i, (raw): NodeRef => ({ raw, nodeId: resolveRef(raw, nodes).nodeId })));
  });
  return out;
}

type TraverseParts = Pick<Scene, 'labels' | 'hallucinated' | 'foreignEntries' | 'traverseExtra'>;

/**
 * A label entry that plainly fits `RawLabel`, taken as it is: a release holds one per agent and
 * edge (75,000 in a 1,000-scene import), and the schema copies each. Anything else goes through
 * the schema, which names what is wrong.
 */
function plainLabel(entry: unknown): z.infer<typeof RawLabel> | null {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return null;
  const e = entry as Record<string, unknown>;
  if (typeof e.traversable !== 'boolean') return null;
  if (e.note !== undefined && e.note !== null && typeof e.note !== 'string') return null;
  for (const k of ['timestamp', 'question', 'annotator'] as const) if (e[k] !== undefined && typeof e[k] !== 'string') return null;
  return e as z.infer<typeof RawLabel>;
}

function readTraverse(file: SourceFile, at: SceneFiles, problems: Problem[], limits: ReleaseLimits): TraverseParts {
  const empty = { labels: {}, hallucinated: [], foreignEntries: [] };
  const parsed = parseJson(file);
  if (!parsed.ok) {
    problems.push(parsed.problem);
    return empty;
  }
  const top = checkShape(file.path, parsed.value, RawTraverseFile);
  if (!top.ok) {
    problems.push({ severity: 'fatal', code: 'schema', file: file.path, location: '', message: 'expected an object keyed by agent type' });
    return empty;
  }
  const out: TraverseParts = { labels: {}, hallucinated: [], foreignEntries: [] };
  for (const [fileKey, value] of Object.entries(top.value)) {
    if (fileKey === HALLUCINATED_KEY) {
      const h = checkShape(file.path, value, RawHallucinated, [fileKey]);
      if (h.ok) out.hallucinated = h.value;
      else append(problems, h.problems);
      continue;
    }
    if (fileKey.startsWith('_')) {
      out.traverseExtra = { ...out.traverseExtra, [fileKey]: value };
      problems.push({
        severity: 'warning',
        code: 'traverse.unknown-key',
        file: file.path,
        location: pointer([fileKey]),
        message: `"${fileKey}" is not an agent or the hallucination list; kept unchanged`,
      });
      continue;
    }
    const agent = canonicalAgent(fileKey);
    if (at.agentKeys.has(agent)) {
      problems.push({
        severity: 'fatal',
        code: 'traverse.duplicate-agent',
        file: file.path,
        location: pointer([fileKey]),
        message: `"${fileKey}" and "${at.agentKeys.get(agent)}" both hold labels of agent ${agent}`,
      });
      continue;
    }
    at.agentKeys.set(agent, fileKey);
    const entries = value !== null && typeof value === 'object' ? Object.keys(value).length : 0;
    const tooMany = overLimit(file.path, pointer([fileKey]), entries, limits.labelsPerAgent, `labels of ${agent}`, "one agent's table in a scene");
    if (tooMany) {
      problems.push(tooMany);
      continue;
    }
    const table = checkShape(file.path, value, RawAgentTable, [fileKey]);
    if (!table.ok) {
      append(problems, table.problems);
      continue;
    }
    const labels: Record<string, Label> = {};
    for (const [key, entry] of Object.entries(table.value)) {
      if (!parseSegmentKey(key)) {
        out.foreignEntries.push({ agentKey: fileKey, key, value: entry });
        continue;
      }
      let raw = plainLabel(entry);
      if (!raw) {
        const l = checkShape(file.path, entry, RawLabel, [fileKey, key]);
        if (!l.ok) {
          append(problems, l.problems);
          continue;
        }
        raw = l.value;
      }
      const label: Label = { traversable: raw.traversable, note: raw.note ?? '' };
      if (raw.timestamp !== undefined) label.timestamp = raw.timestamp;
      if (raw.question !== undefined) label.question = raw.question;
      if (raw.annotator !== undefined) label.annotator = raw.annotator;
      const extra = extraFields(raw, KNOWN.label);
      if (extra) label.extra = extra;
      labels[key] = label;
    }
    out.labels[agent] = labels;
  }
  return out;
}
