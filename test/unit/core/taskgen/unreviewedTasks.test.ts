import { describe, expect, it } from 'vitest';
import { buildQueue } from '../../../../src/core/queue.ts';
import { unreviewedTasks } from '../../../../src/core/taskgen/unreviewed.ts';
import { capnavItemsForScene } from '../../../../src/core/vqa/capnav.ts';
import type { QaItem } from '../../../../src/core/vqa/item.ts';
import { scoringHouse } from '../../../support/scoreSupport.ts';

// Issue 23 §6: a generated task stays out of the label queue until a reviewer accepts it.
describe('generated tasks waiting for review are held out of the label queue', () => {
  const project = scoringHouse();
  const scene = project.scenes[0]!;
  const [task] = capnavItemsForScene(project, 'HOUSE01', { createdAt: '2026-05-01T00:00:00Z' }) as [QaItem];
  const asTask = (status: QaItem['status']): QaItem => ({ ...task, source: 'generated', status });
  const questions = (held: ReadonlySet<number>) => [...new Set(buildQueue(scene, ['HUMAN'], held).map((i) => i.questionIndex))];

  it('pending, draft or in adjudication: held; accepted or rejected: not (a rejected one is hallucinated instead)', () => {
    for (const status of ['pending', 'draft', 'adjudicate'] as const) expect([...unreviewedTasks([asTask(status)], 'HOUSE01').keys()], status).toEqual([0]);
    for (const status of ['accepted', 'rejected'] as const) expect(unreviewedTasks([asTask(status)], 'HOUSE01').size, status).toBe(0);
    // A CapNav question under review is the release's own: it stays in the queue.
    expect(unreviewedTasks([{ ...task, status: 'pending' }], 'HOUSE01').size).toBe(0);
    expect(unreviewedTasks([asTask('pending')], 'OTHER').size).toBe(0);
  });

  it('the queue leaves the held question out and keeps the others', () => {
    expect(questions(new Set())).toEqual([0, 1, 2]);
    expect(questions(new Set(unreviewedTasks([asTask('pending')], 'HOUSE01').keys()))).toEqual([1, 2]);
  });
});
