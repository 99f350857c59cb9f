import { Vector3 } from 'three';
import { undirectedKey, type Vec3 } from '../core/graph.ts';
import { itemKey, type QueueItem } from '../core/queue.ts';
import { SIDE_CLEARANCE_M, STEP_TOLERANCE_M, type ReasonCategory } from '../core/rules.ts';
import { autoDrive, colliderWorldOf, LiveReadouts, place, type AgentBody, type ColliderWorld, type Contact } from '../engine/collider/index.ts';
import type { LoadedMesh } from '../engine/mesh/load.ts';
import { selectedScene } from '../state/commands.ts';
import { currentItem } from '../state/queueSelectors.ts';
import type { DriveView, StudioStore, Triple } from '../state/store.ts';
import type { MeshManager } from './meshManager.ts';

const t = (v: { x: number; y: number; z: number }): Triple => [v.x, v.y, v.z];

/**
 * Drives the current queue item's agent through the scan: placed at the segment's start node,
 * moved by the arrow keys, or driven along the reference route until the first obstacle. What it
 * finds becomes the label draft and, when the label is confirmed, its evidence.
 */
export class DriveController {
  private worlds = new WeakMap<LoadedMesh, ColliderWorld>();
  private routes = new Map<string, Vector3[] | null>();
  private body: AgentBody | null = null;
  private readouts = new LiveReadouts();

  /** `routeOf`: the reference route between two points of the scan (mesh frame → world), found off the page's thread. */
  constructor(private store: StudioStore, private meshes: MeshManager, private tell: (m: string) => void,
    private routeOf: (loaded: LoadedMesh, a: Vec3, b: Vec3) => Promise<Vec3[] | null>) {}

  private context() {
    const s = this.store.getState();
    const scene = selectedScene(s), item = currentItem(s);
    const profile = s.document.project?.profiles.find((p) => p.name === item?.agent);
    const loaded = scene && this.meshes.get(scene.id);
    if (!scene || !item || !profile) return null;
    if (!loaded) { this.tell('Driving needs the scene’s scan: load it first.'); return null; }
    let world = this.worlds.get(loaded);
    if (!world) { world = colliderWorldOf(loaded); this.worlds.set(loaded, world); }
    const node = (id: string) => { const n = scene.graph.nodes.find((x) => x.id === id)!; return new Vector3(n.position.x, n.position.y, n.position.z).applyMatrix4(loaded.frame); };
    return { scene, item, profile, loaded, world, a: node(item.from), b: node(item.to) };
  }

  /** Place the agent at the segment's start, facing its end, for driving with the arrow keys. */
  spawn(): void {
    const c = this.context();
    if (!c) return;
    this.body = place(c.world, c.profile, c.a, Math.atan2(c.b.x - c.a.x, c.b.z - c.a.z));
    this.readouts.reset(this.body);
    this.publish(c.item, [t(this.body.pose)], this.body.contact, false, {});
  }

  /** One keyboard step. */
  step(forward: number, turn: number): void {
    const d = this.store.getState().ephemeral.drive;
    if (!this.body || !d) return;
    const r = this.body.step({ forward, turn });
    this.readouts.update(this.body, r);
    const item = currentItem(this.store.getState());
    if (!item) return;
    const trajectory = r.moved ? [...d.trajectory, t(r.pose)] : d.trajectory;
    this.publish(item, trajectory, r.contact ?? null, false, r.contact?.kind === 'step' && r.contact.heightM !== undefined ? { stepHeightM: r.contact.heightM } : {});
  }

  /** Drive along the reference route from the start node to the end node, stopping at the first obstacle. */
  async auto(): Promise<void> {
    const c = this.context();
    if (!c) return;
    this.tell(`Driving ${c.item.agent} from ${c.item.from} to ${c.item.to}…`);
    const route = await this.route(c.loaded, c.scene.id, c.item, c.item.from < c.item.to ? [c.a, c.b] : [c.b, c.a]);
    if (!route) { this.tell('No walkable route between these nodes in the scan (a lift, or a gap): drive by hand with B and the arrow keys.'); return; }
    const r = autoDrive(c.world, c.profile, route);
    const last = r.trajectory[r.trajectory.length - 1];
    this.body = null;
    const measured: Record<string, number> = {};
    if (r.measured.clearWidthM !== undefined) measured.clearWidthM = r.measured.clearWidthM;
    if (r.measured.stepHeightM !== undefined) measured.stepHeightM = r.measured.stepHeightM;
    if (Number.isFinite(r.measured.tightestClearanceM)) measured.tightestClearanceM = r.measured.tightestClearanceM;
    this.publish(c.item, thin(r.trajectory.map(t)), r.contact ?? null, r.reached, measured, last);
    this.proposeDraft(r.reached, r.contact, measured, c.profile);
  }

  stop(): void {
    this.body = null;
    this.store.setState((s) => ({ ephemeral: { ...s.ephemeral, drive: null } }));
  }

  /** The reference route of the edge, found once in the edge's key order (`ends`: lower id first) and walked the item's way. */
  private async route(loaded: LoadedMesh, sceneId: string, item: QueueItem, ends: [Vector3, Vector3]): Promise<Vector3[] | null> {
    const key = `${sceneId}:${undirectedKey(item.from, item.to)}`;
    if (!this.routes.has(key)) {
      const inv = loaded.frame.clone().invert();
      const local = (v: Vector3) => { const p = v.clone().applyMatrix4(inv); return { x: p.x, y: p.y, z: p.z }; };
      const route = await this.routeOf(loaded, local(ends[0]), local(ends[1]));
      this.routes.set(key, route ? route.map((p) => new Vector3(p.x, p.y, p.z)) : null);
    }
    const r = this.routes.get(key) ?? null;
    return r && item.from > item.to ? [...r].reverse() : r;
  }

  private publish(item: QueueItem, trajectory: Triple[], contact: Contact | null, reached: boolean, measured: Record<string, number>, pose = this.body?.pose): void {
    const s = this.store.getState();
    const profile = s.document.project?.profiles.find((p) => p.name === item.agent);
    if (!profile || !pose) return;
    const drive: DriveView = {
      sceneId: s.session.sceneId!, agent: item.agent, itemKey: itemKey(item), shape: profile.shape,
      widthM: profile.widthM, depthM: profile.depthM ?? profile.widthM, heightM: profile.heightM,
      pose: { x: pose.x, y: pose.y, z: pose.z, yaw: pose.yaw }, trajectory, reached,
      contact: contact ? { kind: contact.kind, message: contact.message, point: t(contact.point), ...(contact.heightM !== undefined ? { heightM: contact.heightM } : {}) } : null,
      readouts: { clearWidthM: this.readouts.clearWidth?.widthM ?? measured.clearWidthM ?? null, lastStepM: this.readouts.lastStepHeightM, tightestClearanceM: Number.isFinite(this.readouts.tightestClearanceM) ? this.readouts.tightestClearanceM : measured.tightestClearanceM ?? null },
      measured,
    };
    this.store.setState((st) => ({ ephemeral: { ...st.ephemeral, drive } }));
  }

  /** Turn what stopped the drive into the label draft (the annotator still decides). */
  private proposeDraft(reached: boolean, contact: Contact | undefined, measured: Record<string, number>, profile: { widthM: number; maxStepM: number; name: string }): void {
    if (reached || !contact) { this.tell(`${profile.name} reached the next node.`); return; }
    let reason: ReasonCategory = 'other';
    let note = `Driven: ${contact.message}`;
    const needed = profile.widthM + 2 * SIDE_CLEARANCE_M;
    if (contact.kind === 'door') { reason = 'door'; note = 'Closed door: cannot open doors (driven, stopped at the door)'; }
    else if (contact.kind === 'step' && contact.heightM !== undefined) {
      reason = 'step'; note = `Sill ${contact.heightM.toFixed(3)} m higher than the ${profile.maxStepM} m the agent can cross (driven)`;
    } else if (contact.kind === 'wall' && measured.clearWidthM !== undefined && measured.clearWidthM < needed + STEP_TOLERANCE_M) {
      reason = 'narrow'; note = `Narrow passage: clear width ${measured.clearWidthM.toFixed(2)} m < ${needed.toFixed(2)} m needed (driven)`;
    }
    this.store.setState((s) => ({ session: { ...s.session, labelDraft: { reason, note } } }));
    this.tell(`${profile.name} stopped: ${note}. Press X to label it not traversable.`);
  }
}

/** Keep a trajectory point every ~10 cm (and the last): enough to replay, small enough to store. */
function thin(points: Triple[]): Triple[] {
  const out: Triple[] = [];
  for (const p of points) {
    const q = out[out.length - 1];
    if (!q || Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]) >= 0.1) out.push(p);
  }
  const last = points[points.length - 1];
  if (last && out[out.length - 1] !== last) out.push(last);
  return out;
}
