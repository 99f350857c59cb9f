import { describe, expect, it } from 'vitest';
import { emptyProject } from '../../../src/core/project.ts';
import { readBundle, writeBundle } from '../../../src/formats/bundle.ts';
import { blocked, navGraph, sceneOf } from '../../support/sceneBuilder.ts';

describe('the Traversa bundle', () => {
  it('carries labels with their reason, provenance and evidence, which the CapNav files cannot', () => {
    const p = emptyProject('My benchmark');
    p.scenes.push(
      sceneOf({
        graph: navGraph(['hall-bedroom']),
        labels: {
          WHEELCHAIR: {
            'hall|bedroom': blocked('Narrow passage: clear width 0.70 m < 0.74 m needed', {
              reason: 'narrow',
              source: 'annotator',
              annotator: 'ana',
              timestamp: '2026-11-22T10:00:00.000Z',
              question: 'Can [Agent] move from the hall to the bedroom?',
              evidence: {
                measured: { clearWidthM: 0.7 },
                trajectory: [
                  [0, 0, 0],
                  [0.1, 0, 0],
                ],
                contact: { kind: 'wall', message: 'jamb', point: [0.2, 0.5, 0] },
              },
            }),
          },
        },
      }),
    );
    const file = writeBundle(p, '2026-11-22T10:00:00.000Z');
    expect(file.path).toBe('My-benchmark.traversa.json');
    const back = readBundle(file);
    expect(back.problems).toEqual([]);
    expect(back.project).toEqual(p);
  });

  it('refuses a bundle from a newer Traversa and a damaged one, saying which file', () => {
    const newer = readBundle({ path: 'x.traversa.json', text: JSON.stringify({ format: 'traversa-bundle', version: 9, project: {} }) });
    expect(newer.project).toBeNull();
    expect(newer.problems[0]).toMatchObject({ file: 'x.traversa.json', message: expect.stringMatching(/newer/) });
    const damaged = readBundle({
      path: 'y.traversa.json',
      text: JSON.stringify({ format: 'traversa-bundle', version: 1, project: { schemaVersion: 2, name: 5 } }),
    });
    expect(damaged.problems[0]!.message).toMatch(/damaged/);
  });
});
