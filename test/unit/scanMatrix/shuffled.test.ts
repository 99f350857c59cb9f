import { describe, it } from 'vitest';
import { checkMatrix, runMatrix } from '../../support/scanMatrix.ts';

// The scan-realism matrix (test/support/scanMatrix.ts), variant "shuffled": both houses, every agent × edge,
// driven and suggested, against the true answers.

describe('scans as they really are: the "shuffled" variant', () => {
  for (const house of ['sample', 'second'] as const) {
    it(`${house} house: drive and suggest give the true answer for every agent × edge, or say the scan cannot tell where it cannot`, async () => {
      checkMatrix(house, 'shuffled', await runMatrix(house, 'shuffled'));
    }, 600_000);
  }
});
