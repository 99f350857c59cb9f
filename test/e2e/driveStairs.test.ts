import { describe, expect, it } from 'vitest';
import { studio } from '../support/browser.ts';
import { driveSampleHouse } from '../support/driveEvery.ts';

// The studio's G on the sample house's stairs answers what `cli drive` answers, for every agent: G once
// said "No walkable way … even for the smallest agent" on every stairs segment (the browser asked from
// the stair foot, the command line from the landing) while the CLI was right. Every agent × edge of the
// house is test/scans/driveEverySegment.test.ts (`npm run test:scans`).

const STAIRS = new Set(['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER'].map((a) => `${a} node_10|node_8`));

describe('G on the stairs answers what cli drive answers', () => {
  const { open } = studio();

  it("every agent on the sample house's stairs: the climbers get up, the others are stopped by the stairs", async () => {
    const got = await driveSampleHouse(await open(), STAIRS);
    expect(got.get('HUMAN node_10|node_8')).toMatchObject({ reached: true });
    expect(got.get('QUADRUPEDAL node_10|node_8')).toMatchObject({ reached: true });
    for (const agent of ['WHEELCHAIR', 'SWEEPER']) expect(got.get(`${agent} node_10|node_8`)).toMatchObject({ reached: false, reason: 'stairs' });
  }, 300_000);
});
