import { Grid } from '@react-three/drei';
import { Canvas } from '@react-three/fiber';
import { useCallback, useContext, useMemo, useRef } from 'react';
import { Box3, Matrix4, Plane, Vector3 } from 'three';
import { frameMatrix } from '../engine/frame.ts';
import { STUDIO_LOOK } from '../engine/video/look.ts';
import { scanSurface, type Surface } from '../engine/rays/surface.ts';
import { planScene } from '../core/plan.ts';
import { selectedScene } from '../state/commands.ts';
import { useStudio, useStudioShallow, useStudioStore } from '../state/useStudio.ts';
import { sceneFloors, viewSlice } from '../state/slice.ts';
import { workspaceFeed } from '../state/workspaceFeeds.ts';
import type { Mark } from '../core/vqa/item.ts';

import { CameraRig } from './CameraRig.tsx';
import { GraphOverlay, nodeVisible, NODE_RADIUS } from './GraphOverlay.tsx';
import { anchor, LabelProjector, type LabelAnchors } from './LabelLayer.tsx';
import { Interaction } from './Interaction.tsx';
import { MeasureOverlay, measureLabelAt, measureText } from './MeasureOverlay.tsx';
import { AgentOverlay } from './AgentOverlay.tsx';
import { CameraMemory } from './CameraMemory.tsx';
import { MarksOverlay } from './MarksOverlay.tsx';
import { PathOverlay } from './PathOverlay.tsx';
import { MeshRegistryContext, useSceneMesh } from './meshRuntime.ts';
import { SceneMeshView } from './SceneMeshView.tsx';
import { softwareRenderer } from './softwareRenderer.ts';
import { framingBounds, worldPositions } from './worldGraph.ts';
import { framePoints, routeLabels } from './routeLabels.ts';
import { ImpliedRouteOverlay } from './ImpliedRouteOverlay.tsx';
import { undirectedKey } from '../core/graph.ts';

const NO_MARKS: Mark[] = [];
const noDrive = () => null;
const NO_NODES: string[] = [];

/** The 3D workspace of the selected scene: its scan, its graph, the tools. Renders on demand. */
export function Workspace() {
  const store = useStudioStore();
  const scene = useStudio(selectedScene);
  // Only what the view draws: a hover, a notice or a drive's progress does not draw the workspace again.
  const session = useStudioShallow((s) => ({
    view: s.session.view,
    questionIndex: s.session.questionIndex,
    tool: s.session.tool,
    camera: s.session.camera,
    agent: s.session.agent,
    selection: s.session.selection,
  }));
  const ephemeral = useStudioShallow((s) => ({ connectFrom: s.ephemeral.connectFrom, measure: s.ephemeral.measure, pathPreview: s.ephemeral.pathPreview }));
  const floors = useStudioShallow(sceneFloors);
  const slice = useStudioShallow(viewSlice);
  const drive = useStudio(workspaceFeed('drive') ?? noDrive);
  const mesh = useSceneMesh(scene?.id ?? null);
  const registry = useContext(MeshRegistryContext);

  const frame = useMemo(() => mesh?.frame ?? (scene?.mesh ? frameMatrix(scene.mesh.upAxis, scene.mesh.unitScale) : new Matrix4()), [mesh, scene?.mesh]);
  const world = useMemo(() => (scene ? worldPositions(scene, frame) : new Map<string, Vector3>()), [scene, frame]);
  const surface: Surface | null = useMemo(() => (mesh ? scanSurface(mesh) : null), [mesh]);
  const bounds = useMemo(() => {
    if (mesh) {
      const box = new Box3().setFromBufferAttribute(mesh.collision.geometry.getAttribute('position') as never).applyMatrix4(mesh.frame);
      return framingBounds([box.min, box.max]);
    }
    return framingBounds(world.values());
  }, [mesh, world]);
  const plan = useMemo(() => (scene ? planScene(scene) : []), [scene]);
  const anchors = useRef<LabelAnchors>(new Map()).current;
  const item = useStudio((s) => (s.session.view === 'label' ? workspaceFeed('segment')?.(s) : undefined));
  const marks = useStudio((s) => (s.session.view === 'qa' ? (workspaceFeed('marks')?.(s) ?? NO_MARKS) : NO_MARKS));
  const referenced = useStudio((s) => (s.session.view === 'qa' ? (workspaceFeed('referenced')?.(s) ?? NO_NODES) : NO_NODES));
  const highlight = useMemo(() => new Set(referenced), [referenced]);
  const keysBlocked = useCallback(() => store.getState().ephemeral.helpOpen, [store]);
  const preview = session.view === 'score' ? ephemeral.pathPreview : null;
  const routeView = useMemo(() => routeLabels(preview, world), [preview, world]);
  // Reviewing a navigation question: the route it implies, its nodes numbered in order.
  const implied = useStudio((s) => (s.session.view === 'qa' ? (workspaceFeed('implied')?.(s) ?? null) : null));
  const impliedOrder = useMemo(() => new Map(implied?.nodes.map((id, i) => [id, String(i + 1)]) ?? []), [implied]);
  const fit = useMemo(() => framePoints(preview?.frame ?? null, world), [preview?.frame, world]);
  if (!scene) return null;

  const maxY = slice.on ? slice.height : Infinity;
  // The label view also hides the floors below the segment's, so their names do not sit under its own.
  const minY = slice.on && slice.below !== null ? slice.below : -Infinity;
  const slicePlanes = [
    ...(slice.on ? [new Plane(new Vector3(0, -1, 0), slice.height)] : []),
    ...(minY > -Infinity ? [new Plane(new Vector3(0, 1, 0), -minY)] : []),
  ];
  const sliceFloor = slice.on ? ([...floors].reverse().find((f) => f <= slice.height) ?? floors[0] ?? 0) : (floors[0] ?? 0);
  const q = session.questionIndex !== null ? scene.questions[session.questionIndex] : undefined;
  const planned = session.questionIndex !== null ? plan[session.questionIndex] : undefined;
  const route = implied
    ? {
        edges: new Set(implied.legs.flatMap((l) => (l.path ?? []).slice(1).map((id, i) => undirectedKey(l.path![i]!, id)))),
        start: implied.waypoints[0]!.nodeId,
        end: implied.waypoints.at(-1)!.nodeId,
      }
    : {
        edges: new Set(planned && 'edges' in planned ? planned.edges : []),
        start: q?.start.nodeId ?? null,
        end: q?.end.nodeId ?? null,
      };

  return (
    <div
      className={`workspace tool-${session.tool}`}
      data-testid="workspace"
      data-camera={session.camera}
      data-tool={session.tool}
      data-route={preview?.frame?.key ?? ''}
      data-implied-route={implied?.nodes.join(' ') ?? ''}
      data-renderer={softwareRenderer() ? 'software' : 'gpu'}
    >
      <Canvas
        frameloop="demand"
        gl={{ localClippingEnabled: true, antialias: !softwareRenderer(), preserveDrawingBuffer: true }}
        dpr={[1, 1.5]}
        data-testid="viewport"
        onCreated={noShaderChecks}
      >
        <color attach="background" args={[STUDIO_LOOK.background]} />
        <hemisphereLight args={[STUDIO_LOOK.sky, STUDIO_LOOK.ground, STUDIO_LOOK.skyIntensity]} />
        <directionalLight position={STUDIO_LOOK.sunPosition} intensity={STUDIO_LOOK.sunIntensity} />
        <CameraRig
          key={`${session.camera}:${scene.id}:${preview?.frame?.key ?? ''}`}
          mode={session.camera}
          center={bounds.center}
          size={bounds.size}
          eyeFloor={sliceFloor}
          keysBlocked={keysBlocked}
          fit={fit}
        />
        {mesh ? (
          <SceneMeshView mesh={mesh} planes={slicePlanes} onCoverage={(share) => registry?.reportCoverage?.(scene.id, share)} />
        ) : (
          <Grid
            position={[bounds.center.x, sliceFloor, bounds.center.z]}
            args={[bounds.size * 2, bounds.size * 2]}
            cellSize={0.5}
            sectionSize={5}
            infiniteGrid={false}
            fadeDistance={bounds.size * 4}
          />
        )}
        <GraphOverlay
          store={store}
          scene={scene}
          world={world}
          agent={session.agent}
          maxY={maxY}
          minY={minY}
          selection={session.selection}
          connectFrom={ephemeral.connectFrom}
          route={route}
          segment={item ?? null}
          highlight={highlight}
        />
        <MeasureOverlay measure={ephemeral.measure} />
        <AgentOverlay drive={drive} />
        <PathOverlay preview={preview} world={world} />
        <ImpliedRouteOverlay route={implied} world={world} />
        <Interaction store={store} scene={scene} world={world} surface={surface} frame={frame} maxY={maxY} minY={minY} floorY={sliceFloor} floors={floors} />
        <LabelProjector anchors={anchors} />
        <CameraMemory store={store} mode={session.camera} />
        <MarksOverlay marks={marks} frame={frame} />
      </Canvas>
      <div className="label-layer" aria-hidden="true">
        {scene.graph.nodes.map((n) => {
          const p = world.get(n.id);
          if (!p) return null;
          const selected = session.selection?.kind === 'node' && session.selection.id === n.id;
          const step = preview ? routeView.order.get(n.id) : impliedOrder.get(n.id);
          return (
            <div
              key={n.id}
              ref={anchor(anchors, `node:${n.id}`, p.clone().setY(p.y + NODE_RADIUS * 2.2), !nodeVisible(world, n.id, maxY, minY))}
              className={`node-label${selected ? ' selected' : ''}${highlight.has(n.id) ? ' referenced' : ''}${preview ? (step !== undefined ? ' on-route' : ' off-route') : ''}`}
              data-node-label={n.id}
            >
              {step !== undefined && <b className="step">{step}</b>}
              {n.name || n.id}
            </div>
          );
        })}
        {routeView.hopNote && (
          <div ref={anchor(anchors, 'hop-note', routeView.hopNote.at, false)} className={`hop-note ${routeView.hopNote.state}`} data-testid="hop-note">
            {routeView.hopNote.text}
          </div>
        )}
        {marks.map((m) => {
          const p = new Vector3(m.position.x, m.position.y, m.position.z).applyMatrix4(frame);
          // A mark's number always shows (its dot is drawn through everything): off the sliced floors it is dimmed, not dropped.
          const off = p.y > maxY + 0.3 || p.y < minY - 0.3;
          return (
            <div
              key={m.id}
              ref={anchor(anchors, `mark:${m.id}`, p.setY(p.y + 0.25), false)}
              className={`mark-label${off ? ' off-slice' : ''}`}
              data-mark={m.number}
              data-off-slice={off ? 'yes' : undefined}
            >
              {m.number}
              {m.label ? ` ${m.label}` : ''}
            </div>
          );
        })}
        {ephemeral.measure && measureText(ephemeral.measure) && (
          <div ref={anchor(anchors, 'measure', measureLabelAt(ephemeral.measure)!, false)} className="measure-label" data-testid="measure-label">
            {measureText(ephemeral.measure)}
          </div>
        )}
      </div>
    </div>
  );
}

/**
 * three asks the driver for every shader's and program's log after compiling them, which waits on
 * the page's thread for the GPU to finish all it was given: after a million-triangle scan's first
 * upload that froze the studio for 3.5 s on a software GPU. The built studio does not ask (its
 * shaders are three's own); the development server keeps the checks.
 */
function noShaderChecks({ gl }: { gl: { debug: { checkShaderErrors: boolean } } }): void {
  gl.debug.checkShaderErrors = import.meta.env.DEV;
}
