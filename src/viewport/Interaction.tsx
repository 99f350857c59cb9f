import { useThree } from '@react-three/fiber';
import { useEffect, useRef } from 'react';
import { Plane, Vector2, Vector3, type Camera, type Matrix4 } from 'three';
import { clearWidthAt } from '../engine/measure/clearWidth.ts';
import { castRay } from '../engine/rays/cast.ts';
import type { Surface } from '../engine/rays/surface.ts';
import type { Scene } from '../core/project.ts';
import { workspaceFeed } from '../state/workspaceFeeds.ts';
import type { StudioStore } from '../state/store.ts';
import { NODE_RADIUS } from './GraphOverlay.tsx';
import { viewportHandle } from './viewportHandle.ts';
import { toSceneFrame } from './worldGraph.ts';
import { hoverNode, select, showMeasure } from '../state/sessionChanges.ts';

interface Props {
  store: StudioStore;
  scene: Scene;
  world: Map<string, Vector3>;
  surface: Surface | null;
  frame: Matrix4;
  maxY: number;
  minY: number;
  /** World height of the floor to place on when there is no mesh. */
  floorY: number;
  floors: number[];
}

const CLICK_SLOP_PX = 5;

/**
 * Pointer handling for the workspace tools. It listens on the canvas in the capture phase so a
 * press on a node can take the pointer from the camera controls (a node drag must not orbit).
 */
export function Interaction({ store, scene, world, surface, frame, maxY, minY, floorY, floors }: Props) {
  const { gl, camera, raycaster, invalidate, get } = useThree();
  const live = useRef({ scene, world, surface, frame, maxY, minY, floorY, floors });
  live.current = { scene, world, surface, frame, maxY, minY, floorY, floors };

  useEffect(() => {
    const el = gl.domElement;
    let down: { x: number; y: number } | null = null;
    let dragging: string | null = null;

    const rayAt = (e: PointerEvent) => {
      const r = el.getBoundingClientRect();
      get().camera.updateMatrixWorld(); // a camera switched since the last frame has stale matrices
      raycaster.setFromCamera(new Vector2(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1), get().camera);
      return raycaster.ray;
    };
    const nodeAt = (e: PointerEvent): string | null => {
      const ray = rayAt(e);
      let best: string | null = null,
        bestD = Infinity;
      for (const [id, p] of live.current.world) {
        if (p.y > live.current.maxY + 0.05 || p.y < live.current.minY - 0.05) continue;
        const hitR = NODE_RADIUS * 1.6;
        if (ray.distanceSqToPoint(p) > hitR * hitR) continue;
        const d = ray.origin.distanceTo(p);
        if (d < bestD) {
          bestD = d;
          best = id;
        }
      }
      return best;
    };
    const edgeAt = (e: PointerEvent): string | null => {
      const r = el.getBoundingClientRect();
      const px = new Vector2(e.clientX - r.left, e.clientY - r.top);
      const screen = (p: Vector3) => {
        const q = p.clone().project(get().camera);
        return new Vector2(((q.x + 1) / 2) * r.width, ((1 - q.y) / 2) * r.height);
      };
      for (const edge of live.current.scene.graph.edges) {
        const a = live.current.world.get(edge.from),
          b = live.current.world.get(edge.to);
        if (!a || !b) continue;
        const sa = screen(a),
          sb = screen(b);
        const t = Math.max(0, Math.min(1, px.clone().sub(sa).dot(sb.clone().sub(sa)) / Math.max(1e-9, sa.distanceToSquared(sb))));
        if (px.distanceTo(sa.clone().lerp(sb, t)) < 6) return edge.id;
      }
      return null;
    };
    /** The floor (or any surface) under the pointer, below the slice; without a mesh, the working floor plane. */
    const pick = (e: PointerEvent): Vector3 | null => {
      const ray = rayAt(e);
      const { surface, maxY, floorY } = live.current;
      if (surface) return castRay(surface, ray.origin, ray.direction, Infinity, undefined, { maxY })?.point ?? null;
      return ray.intersectPlane(new Plane(new Vector3(0, 1, 0), -floorY), new Vector3());
    };
    const controls = () => get().controls as unknown as { enabled: boolean } | null;
    const session = () => store.getState().session;

    const onDown = (e: PointerEvent) => {
      if (e.button !== 0) return;
      down = { x: e.clientX, y: e.clientY };
      const tool = session().tool;
      const node = tool === 'select' || tool === 'connect' ? nodeAt(e) : null;
      if (!node) return;
      e.stopImmediatePropagation();
      if (tool === 'connect') {
        workspaceFeed('connectPick')?.(store, node);
        invalidate();
        return;
      }
      select(store, { kind: 'node', id: node });
      dragging = node;
      workspaceFeed('startNodeDrag')?.(store);
      const c = controls();
      if (c) c.enabled = false;
      el.setPointerCapture(e.pointerId);
    };
    const onMove = (e: PointerEvent) => {
      if (dragging) {
        const hit = pick(e);
        if (hit) workspaceFeed('dragNode')?.(store, dragging, toSceneFrame(hit, live.current.frame));
        return;
      }
      if (e.buttons) return;
      const hover = nodeAt(e);
      hoverNode(store, hover);
    };
    const onUp = (e: PointerEvent) => {
      if (dragging) {
        workspaceFeed('endNodeDrag')?.(store);
        dragging = null;
        const c = controls();
        if (c) c.enabled = true;
        return;
      }
      const click = down && Math.hypot(e.clientX - down.x, e.clientY - down.y) < CLICK_SLOP_PX;
      down = null;
      if (!click || e.button !== 0) return;
      const tool = session().tool;
      if (tool === 'select') {
        const edge = edgeAt(e);
        select(store, edge ? { kind: 'edge', id: edge } : null);
      } else if (tool === 'place') {
        const hit = pick(e);
        if (hit) workspaceFeed('placeNode')?.(store, toSceneFrame(hit, live.current.frame), nearestFloor(live.current.floors, hit.y));
      } else if (tool === 'measure') {
        const hit = pick(e);
        if (hit) measureAt(store, hit, live.current.surface);
      } else if (tool === 'mark') {
        const hit = pick(e);
        if (hit) workspaceFeed('addMark')?.(store, toSceneFrame(hit, live.current.frame));
      }
      invalidate();
    };
    el.addEventListener('pointerdown', onDown, { capture: true });
    el.addEventListener('pointermove', onMove);
    el.addEventListener('pointerup', onUp);
    return () => {
      el.removeEventListener('pointerdown', onDown, { capture: true });
      el.removeEventListener('pointermove', onMove);
      el.removeEventListener('pointerup', onUp);
    };
  }, [gl, raycaster, invalidate, get, store]);

  useViewportProbe(camera, gl.domElement, live);
  return null;
}

function nearestFloor(floors: number[], y: number): number | null {
  if (!floors.length) return null;
  let best = 0;
  floors.forEach((f, i) => {
    if (Math.abs(f - y) < Math.abs(floors[best]! - y)) best = i;
  });
  return best;
}

function measureAt(store: StudioStore, hit: Vector3, surface: Surface | null) {
  const { session, ephemeral } = store.getState();
  const pt = { x: hit.x, y: hit.y, z: hit.z };
  let measure = ephemeral.measure;
  if (session.measureMode === 'width') {
    const w = surface ? clearWidthAt(surface, hit) : null;
    measure = {
      mode: 'width',
      points: [pt],
      ...(w
        ? {
            width: {
              width: w.width,
              a: { x: w.a.x, y: w.a.y, z: w.a.z },
              b: { x: w.b.x, y: w.b.y, z: w.b.z },
              height: w.height,
              facingDeg: w.facingDeg,
              warning: w.warning,
            },
          }
        : {}),
    };
  } else if (!measure || measure.mode !== 'distance' || measure.points.length >= 2) {
    measure = { mode: 'distance', points: [pt] };
  } else {
    const a = measure.points[0]!;
    const dx = pt.x - a.x,
      dy = pt.y - a.y,
      dz = pt.z - a.z;
    measure = { mode: 'distance', points: [a, pt], distance: { total: Math.hypot(dx, dy, dz), horizontal: Math.hypot(dx, dz), vertical: Math.abs(dy) } };
  }
  showMeasure(store, measure);
}

/**
 * A read-only probe for browser tests and scripted use: where on the page a scene point (in the
 * scan's own frame) or a node is drawn, under the current camera.
 */
function useViewportProbe(camera: Camera, el: HTMLCanvasElement, live: { current: { world: Map<string, Vector3>; frame: Matrix4 } }) {
  useEffect(() => {
    const toPage = (world: Vector3) => {
      const r = el.getBoundingClientRect();
      camera.updateMatrixWorld();
      const q = world.clone().project(camera);
      return { x: r.left + ((q.x + 1) / 2) * r.width, y: r.top + ((1 - q.y) / 2) * r.height };
    };
    const probe = {
      scenePointOnPage: (x: number, y: number, z: number) => toPage(new Vector3(x, y, z).applyMatrix4(live.current.frame)),
      nodeOnPage: (id: string) => {
        const p = live.current.world.get(id);
        return p ? toPage(p) : null;
      },
      /** Where the driven agent's footprint is drawn (world, on its floor), or null. */
      agentPose: () => viewportHandle.agentPose?.() ?? null,
    };
    (window as unknown as { __traversaViewport?: typeof probe }).__traversaViewport = probe;
  }, [camera, el, live]);
}
