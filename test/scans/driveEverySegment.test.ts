import { describe, expect, it } from 'vitest';
import { studio } from '../support/browser.ts';
import { driveSampleHouse } from '../support/driveEvery.ts';

// The studio's G, on every agent × edge of the sample house, answers what `cli drive` answers on the
// same scan — the stairs included, which G once failed on every time (the browser asked from the
// stair foot, the command line from the landing). The same on the house rewritten as a reconstruction
// looks is driveScanLike.test.ts. Both are in `npm run test:scans`; `npm test` drives the stairs
// (test/e2e/driveStairs.test.ts).

describe('G on every agent × edge answers what cli drive answers', () => {
  const { open } = studio();

  it('on the sample house, stairs included', async () => {
    const got = await driveSampleHouse(await open());
    // The stairs in both directions were decided, and the agents that climb them got up.
    expect(got.get('HUMAN node_10|node_8')).toMatchObject({ reached: true });
    expect(got.get('QUADRUPEDAL node_10|node_8')).toMatchObject({ reached: true });
    expect(got.get('WHEELCHAIR node_10|node_8')).toMatchObject({ reached: false, reason: 'stairs' });
  }, 600_000);
});
