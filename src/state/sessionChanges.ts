import type { AgentName } from '../core/agents.ts';
import { setEphemeral, setSession } from './patch.ts';
import type { MeasureReading, Selection, StudioStore } from './store.ts';

/**
 * The session changes the shell, the 3D view and more than one feature make, each named: panels and
 * the viewport call these (a lint rule keeps `setState` out of them), so every way the session
 * changes can be found by name. A feature's own changes live in its `state/` folder.
 */

/** Tell the user something in the header's notice line (null takes it away). */
export const notify = (store: StudioStore, notice: string | null): void => setEphemeral(store, { notice });

export const select = (store: StudioStore, selection: Selection | null): void => setSession(store, { selection });

/** The node under the pointer (or the graph list's row under it). */
export function hoverNode(store: StudioStore, hoverNode: string | null): void {
  if (store.getState().ephemeral.hoverNode !== hoverNode) setEphemeral(store, { hoverNode });
}

export const showMeasure = (store: StudioStore, measure: MeasureReading | null): void => setEphemeral(store, { measure });

export const chooseAgent = (store: StudioStore, agent: AgentName): void => setSession(store, { agent });

/** A scene from the list, opened in the Scene view with no question selected. */
export const openScene = (store: StudioStore, sceneId: string): void => setSession(store, { sceneId, view: 'scene', questionIndex: null });

/** Another scene for the current view, with nothing selected in it. */
export const chooseScene = (store: StudioStore, sceneId: string): void => setSession(store, { sceneId, questionIndex: null, selection: null });

export const selectQuestion = (store: StudioStore, questionIndex: number | null): void => setSession(store, { questionIndex });

/** Who is labelling and reviewing in this browser (written into every label's and verdict's provenance). */
export const setAnnotator = (store: StudioStore, annotator: string): void => setSession(store, { annotator });

/** The mark tool (placing marks on the open QA item) on, or back to selecting. */
export const toggleMarkTool = (store: StudioStore): void => setSession(store, { tool: store.getState().session.tool === 'mark' ? 'select' : 'mark' });

export const dismissImportReport = (store: StudioStore): void => store.setState({ importReport: null });
