import { Vector3 } from 'three';
import type { AgentProfile } from '../../../core/agents.ts';
import { driveDraft, findingsOfContact, type DriveFindings } from '../../../core/driveDraft.ts';
import type { Vec3 } from '../../../core/graph.ts';
import { itemKey, type QueueItem } from '../../../core/queue.ts';
import { colliderWorldOf, LiveReadouts, spawnFacing, type AgentBody, type ColliderWorld, type Contact } from '../../../engine/collider/index.ts';
import type { LoadedMesh } from '../../../engine/mesh/load.ts';
import type { DriveDecision } from '../../../engine/planner/decide.ts';
import { selectedScene } from '../../../state/commands.ts';
import { currentItem } from '../../labelling/state/queueSelectors.ts';
import type { DriveView, StudioStore, Triple } from '../../../state/store.ts';
import type { MeshManager } from '../../../services/meshManager.ts';

const t = (v: { x: number; y: number; z: number }): Triple => [v.x, v.y, v.z];
/** Poses kept for playing a motion back (every few centimetres): enough to watch, small to hold. */
const PLAYBACK_POSES = 400;

/**
 * Drives the current queue item's agent through the scan. `G`: the motion planner (engine/planner,
 * in the scene worker) decides the segment and the overlay plays the motion it found — or as far
 * as the agent gets, with the measured reason. `B` and the arrow keys: the agent's true footprint
 * driven by hand with the collider; a contact that stops it is measured. Either way what stopped
 * it becomes the label draft (core/driveDraft.ts), and, when the label is confirmed, its evidence.
 */
export class DriveController {
  private worlds = new WeakMap<LoadedMesh, { frame: string; world: ColliderWorld }>();
  private body: AgentBody | null = null;
  private readouts = new LiveReadouts();
  private planning: string | null = null;

  /** `plan`: the planner's decision for an agent between two node positions (mesh frame), found off the page's thread. */
  constructor(
    private store: StudioStore,
    private meshes: MeshManager,
    private tell: (m: string) => void,
    private plan: (loaded: LoadedMesh, profile: AgentProfile, a: Vec3, b: Vec3) => Promise<DriveDecision>,
  ) {}

  private context() {
    const s = this.store.getState();
    const scene = selectedScene(s),
      item = currentItem(s);
    const profile = s.document.project?.profiles.find((p) => p.name === item?.agent);
    const loaded = scene && this.meshes.get(scene.id);
    if (!scene || !item || !profile) return null;
    if (!loaded) {
      this.tell('Driving needs the scene’s scan: load it first.');
      return null;
    }
    // The frame changes in place when the up axis or scale does: the world follows it.
    const frame = loaded.frame.elements.join(',');
    let cached = this.worlds.get(loaded);
    if (cached?.frame !== frame) {
      cached = { frame, world: colliderWorldOf(loaded) };
      this.worlds.set(loaded, cached);
    }
    const node = (id: string) => scene.graph.nodes.find((x) => x.id === id)!.position;
    const world = (p: Vec3) => new Vector3(p.x, p.y, p.z).applyMatrix4(loaded.frame);
    return { scene, item, profile, loaded, world: cached.world, from: node(item.from), to: node(item.to), a: world(node(item.from)), b: world(node(item.to)) };
  }

  /** Whether the queue is still on the item a drive was started for (the annotator may have moved on). */
  private stillOn(item: QueueItem): boolean {
    const now = currentItem(this.store.getState());
    return !!now && itemKey(now) === itemKey(item);
  }

  /**
   * Place the agent at the segment's start facing a way it can go: towards the end node, or —
   * when a wall or furniture stands that way — the nearest heading clear for a metre (and say so).
   */
  spawn(): void {
    const c = this.context();
    if (!c) return;
    const s = spawnFacing(c.world, c.profile, c.a, c.b);
    this.body = s.body;
    this.readouts.reset(this.body);
    this.publish(c.item, c.profile, this.hand([t(this.body.pose)], this.body.contact, {}));
    if (!s.facingEnd) {
      this.tell(
        `${c.profile.name} faces ${Math.abs(s.turnedDeg)}° ${s.turnedDeg > 0 ? 'left' : 'right'} of ${c.item.to}: straight towards it a wall or furniture is in the way within a metre. Drive with ↑ ↓ ← →.`,
      );
    }
  }

  /**
   * One keyboard step. A contact that says something about the passage (a door the agent cannot
   * open, a step above its limit, a drop) is proposed as the draft; a wall or furniture touched is
   * where the driver steered, said as such, and drafts nothing.
   */
  step(forward: number, turn: number): void {
    const d = this.store.getState().ephemeral.drive;
    const c = this.context();
    if (!this.body || !d || !c || d.itemKey !== itemKey(c.item)) return;
    const r = this.body.step({ forward, turn });
    this.readouts.update(this.body, r);
    const trajectory = r.moved ? [...d.trajectory, t(r.pose)] : d.trajectory;
    const findings = r.contact ? findingsOfContact(r.contact, c.profile) : null;
    this.publish(c.item, c.profile, this.hand(trajectory, r.contact ?? null, findings?.measured ?? {}), findings ?? undefined);
  }

  /** Let the planner decide the segment, then play its motion. */
  async auto(): Promise<void> {
    const c = this.context();
    if (!c) return;
    const key = itemKey(c.item);
    if (this.planning === key) return;
    this.planning = key;
    this.body = null;
    this.tell(`Planning ${c.item.agent} from ${c.item.from} to ${c.item.to}…`);
    let d: DriveDecision;
    try {
      d = await this.plan(c.loaded, c.profile, c.from, c.to);
    } catch (e) {
      if (this.stillOn(c.item)) this.tell(`The drive could not be planned: ${e instanceof Error ? e.message : String(e)}`);
      return;
    } finally {
      this.planning = null;
    }
    // The annotator moved on while it was planned: this drive belongs to an item no longer shown.
    if (!this.stillOn(c.item)) return;
    const findings: DriveFindings = {
      reached: d.reached,
      reason: d.reason,
      measured: d.measured,
      ...(d.reason === 'other' && d.note ? { message: d.note } : {}),
    };
    const motion = thin(d.motion);
    const last = d.motion[d.motion.length - 1] ?? { ...c.a, yaw: 0 };
    const view: Omit<DriveView, 'sceneId' | 'agent' | 'itemKey' | 'shape' | 'widthM' | 'depthM' | 'heightM'> = {
      pose: { x: last.x, y: last.y, z: last.z, yaw: last.yaw },
      trajectory: every10cm(motion.map(t)),
      reached: d.reached,
      contact: null,
      readouts: {
        clearWidthM: d.measured.clearWidthM ?? null,
        lastStepM: d.measured.stepHeightM ?? 0,
        tightestClearanceM: d.measured.tightestClearanceM ?? null,
      },
      measured: { ...d.measured },
      source: 'planner',
      motion,
      playFrom: performance.now(),
      reason: d.reason,
      note: d.note,
      stoppedAt: d.stoppedAt ? t(d.stoppedAt) : null,
      resolution: `${Math.round(d.resolution.stepM * 100)} cm, ${d.resolution.headingDeg}°`,
      doubt: d.doubt,
    };
    this.publish(c.item, c.profile, view, findings);
  }

  /** Play the last planned motion again. */
  replay(): void {
    this.store.setState((s) =>
      s.ephemeral.drive?.source === 'planner'
        ? { ephemeral: { ...s.ephemeral, drive: { ...s.ephemeral.drive, playFrom: performance.now(), replayed: true } } }
        : {},
    );
  }

  stop(): void {
    this.body = null;
    this.store.setState((s) => ({ ephemeral: { ...s.ephemeral, drive: null } }));
  }

  /** The view of a drive by hand. */
  private hand(
    trajectory: Triple[],
    contact: Contact | null,
    measured: Record<string, number>,
  ): Omit<DriveView, 'sceneId' | 'agent' | 'itemKey' | 'shape' | 'widthM' | 'depthM' | 'heightM'> {
    const pose = this.body!.pose;
    return {
      pose: { x: pose.x, y: pose.y, z: pose.z, yaw: pose.yaw },
      trajectory,
      reached: false,
      contact: contact
        ? { kind: contact.kind, message: contact.message, point: t(contact.point), ...(contact.heightM !== undefined ? { heightM: contact.heightM } : {}) }
        : null,
      readouts: {
        clearWidthM: this.readouts.clearWidth?.widthM ?? null,
        lastStepM: this.readouts.lastStepHeightM,
        tightestClearanceM: Number.isFinite(this.readouts.tightestClearanceM) ? this.readouts.tightestClearanceM : null,
      },
      measured,
      source: 'hand',
      motion: [],
      playFrom: null,
      reason: null,
      note: '',
      stoppedAt: contact ? t(contact.point) : null,
      resolution: null,
      doubt: null,
    };
  }

  /** Show the drive on the item's footprint and panel; what stopped it becomes the label draft (the annotator still decides). */
  private publish(item: QueueItem, profile: AgentProfile, view: ReturnType<DriveController['hand']>, findings?: DriveFindings): void {
    const draft = findings ? driveDraft(findings, profile) : null;
    const drive: DriveView = {
      sceneId: this.store.getState().session.sceneId!,
      agent: item.agent,
      itemKey: itemKey(item),
      shape: profile.shape,
      widthM: profile.widthM,
      depthM: profile.depthM ?? profile.widthM,
      heightM: profile.heightM,
      ...view,
      reason: draft?.reason ?? view.reason,
      note: draft?.note ?? view.note,
    };
    this.store.setState((s) => ({
      ephemeral: { ...s.ephemeral, drive },
      ...(draft ? { session: { ...s.session, labelDraft: { reason: draft.reason, note: draft.note, by: 'drive' as const } } } : {}),
    }));
    if (!findings) return;
    if (findings.reached)
      this.tell(`${profile.name} reached the next node: a collision-free motion exists (${view.resolution ?? 'driven'}), driven by the collider end to end.`);
    else if (draft) this.tell(`${profile.name} stopped: ${draft.note}. Press X to label it not traversable.`);
  }
}

/** A point every ~10 cm (and the last): the trajectory a label keeps as evidence. */
function every10cm(points: Triple[]): Triple[] {
  const out: Triple[] = [];
  for (const p of points) {
    const q = out[out.length - 1];
    if (!q || Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) >= 0.1) out.push(p);
  }
  const last = points[points.length - 1];
  if (last && out[out.length - 1] !== last) out.push(last);
  return out;
}

/** At most PLAYBACK_POSES poses, evenly taken, the last one kept. */
function thin<T>(poses: readonly T[]): T[] {
  if (poses.length <= PLAYBACK_POSES) return [...poses];
  const every = poses.length / PLAYBACK_POSES;
  const out: T[] = [];
  for (let i = 0; i < PLAYBACK_POSES; i++) out.push(poses[Math.floor(i * every)]!);
  out.push(poses[poses.length - 1]!);
  return out;
}
