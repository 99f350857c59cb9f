import type { StudioStore, TourStatus } from '../../../state/store.ts';

/** The tour panel's settings (frame rate, field of view, eye height, size). */
export const setTourSettings = (store: StudioStore, settings: TourStatus['settings']): void => store.setState((s) => ({ tour: { ...s.tour, settings } }));
