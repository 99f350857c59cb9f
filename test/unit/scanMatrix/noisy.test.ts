import { describe, it } from 'vitest';
import { checkMatrix, runMatrix } from '../../support/scanMatrix.ts';

// The scan-realism matrix (test/support/scanMatrix.ts), variant "noisy": both houses, every agent × edge,
// driven and suggested, against the true answers.

describe('scans as they really are: the "noisy" variant', () => {
  for (const house of ['sample', 'second'] as const) {
    it(`${house} house: drive and suggest give the true answer for every agent × edge, or say the scan cannot tell where it cannot`, async () => {
      checkMatrix(house, 'noisy', await runMatrix(house, 'noisy'));
    }, 600_000);
  }
});
