import type { KappaResult } from '../../../core/interRater.ts';

/** κ to three decimals, or why it has no value. */
export const kappaText = (k: KappaResult) => (k.kappa === null ? 'undefined (one category only)' : k.kappa.toFixed(3));
