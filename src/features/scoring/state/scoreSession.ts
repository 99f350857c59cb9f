import type { PathPreview, ScoringState, StudioStore } from '../../../state/store.ts';
import type { QaAnswersState } from './qaAnswersState.ts';

/** The Score view's session changes, each named (the panels call these; none changes the project). */

export const setScoreSettings = (store: StudioStore, patch: Partial<ScoringState['settings']>): void =>
  store.setState((s) => ({ scoring: { ...s.scoring, settings: { ...s.scoring.settings, ...patch } } }));

/** The HTTP judge's endpoint, model and time-out. */
export const setJudgeHttp = (store: StudioStore, patch: Partial<ScoringState['settings']['http']>): void =>
  store.setState((s) => ({ scoring: { ...s.scoring, settings: { ...s.scoring.settings, http: { ...s.scoring.settings.http, ...patch } } } }));

export const setRecordFilter = (store: StudioStore, patch: Partial<ScoringState['filter']>): void =>
  store.setState((s) => ({ scoring: { ...s.scoring, filter: { ...s.scoring.filter, ...patch } } }));

/** The model whose records are listed (its open record closes), or the one compared with it. */
export const pickModel = (store: StudioStore, model: string, which: 'selectedModel' | 'compareModel' = 'selectedModel'): void =>
  store.setState((s) => ({ scoring: { ...s.scoring, [which]: model, ...(which === 'selectedModel' ? { selectedRecord: null } : {}) } }));

/** The route viewer's focused hop and compared model. */
export const setViewer = (store: StudioStore, patch: Partial<{ hop: number | null; compare: string | null }>): void =>
  store.setState((s) => ({ scoring: { ...s.scoring, viewer: { ...s.scoring.viewer, ...patch } } }));

/** Leave one of two prediction files for the same model out of the run. */
export const dropPredictionFile = (store: StudioStore, path: string): void =>
  store.setState((s) => ({ scoring: { ...s.scoring, files: s.scoring.files.filter((f) => f.path !== path) } }));

/** The scored route drawn over the scene, in the record's scene for the record's agent. */
export const showPathPreview = (store: StudioStore, preview: PathPreview, sceneId: string, agent: string): void =>
  store.setState((s) => ({ ephemeral: { ...s.ephemeral, pathPreview: preview }, session: { ...s.session, sceneId, agent } }));

export const clearPathPreview = (store: StudioStore): void => {
  if (store.getState().ephemeral.pathPreview !== null) store.setState((s) => ({ ephemeral: { ...s.ephemeral, pathPreview: null } }));
};

export const setQaAnswersSettings = (store: StudioStore, patch: Partial<QaAnswersState['settings']>): void =>
  store.setState((s) => ({ qaAnswers: { ...s.qaAnswers, settings: { ...s.qaAnswers.settings, ...patch } } }));

export const setQaAnswersFilter = (store: StudioStore, patch: Partial<QaAnswersState['filter']>): void =>
  store.setState((s) => ({ qaAnswers: { ...s.qaAnswers, filter: { ...s.qaAnswers.filter, ...patch } } }));

export const pickQaAnswersModel = (store: StudioStore, model: string): void => store.setState((s) => ({ qaAnswers: { ...s.qaAnswers, selectedModel: model } }));
