import { describe, it } from 'vitest';
import { checkMatrix, runMatrix } from '../../support/scanMatrix.ts';

// The scan-realism matrix (test/support/scanMatrix.ts), variant "ceilings": both houses, every agent × edge,
// driven and suggested, against the true answers.

describe('scans as they really are: the "ceilings" variant', () => {
  for (const house of ['sample', 'second'] as const) {
    it(`${house} house: drive and suggest give the true answer for every agent × edge, or say the scan cannot tell where it cannot`, async () => {
      checkMatrix(house, 'ceilings', await runMatrix(house, 'ceilings'));
    }, 600_000);
  }
});
