import { describe, expect, it } from 'vitest';
import type { Project } from '../../../../src/core/project.ts';
import { capnavItemsForScene } from '../../../../src/core/vqa/capnav.ts';
import type { QaItem } from '../../../../src/core/vqa/item.ts';
import { benchmarkItems, navigationAnswers } from '../../../../src/core/vqa/navigationAnswers.ts';
import { writeBundle } from '../../../../src/formats/bundle.ts';
import { exportQaBundle } from '../../../../src/formats/qa/bundle.ts';
import { readQaGroundTruth } from '../../../../src/formats/qa/groundTruth.ts';
import { blocked, traversable } from '../../../support/sceneBuilder.ts';
import { scoringHouse } from '../../../support/scoreSupport.ts';

// Issue 23 §3: a navigation question sent to review is not a yes/no item answered "yes". Its
// answer is per agent and comes from the labels; an answer nobody decided is never exported.
const AT = '2026-05-01T10:00:00.000Z';
const AGENTS = ['HUMAN', 'WHEELCHAIR', 'HUMANOID', 'QUADRUPEDAL', 'SWEEPER'];

function house(): { project: Project; items: QaItem[] } {
  const project = scoringHouse();
  const items = capnavItemsForScene(project, 'HOUSE01', { createdAt: AT });
  return { project, items };
}
const answers = (project: Project, item: QaItem) => Object.fromEntries(navigationAnswers(project.scenes[0]!, item, AGENTS).map((a) => [a.agent, a.answer]));
const accept = (item: QaItem): QaItem => ({ ...item, status: 'accepted', reviews: [{ reviewer: 'rita', verdict: 'accept', comment: '', timeMs: 1, at: AT }] });

describe("a navigation question's answer, per agent, from the labels", () => {
  it('front hall → master bedroom: the human and the quadruped can; the wheelchair and the humanoid cannot (stairs); the sweeper has no labels: undecided', () => {
    const { project, items } = house();
    expect(answers(project, items[0]!)).toEqual({ HUMAN: true, WHEELCHAIR: false, HUMANOID: false, QUADRUPEDAL: true, SWEEPER: null });
    const sweeper = navigationAnswers(project.scenes[0]!, items[0]!, ['SWEEPER'])[0]!;
    expect(sweeper.why).toBe('7 segments are not labelled for SWEEPER (or labelled both ways), and the answer depends on them');
  });

  it('follows the labels: a ramp on the stairs makes it yes for the wheelchair; an unlabelled segment that could open a way makes it undecided', () => {
    const { project, items } = house();
    const scene = project.scenes[0]!;
    scene.labels.WHEELCHAIR!['living|landing'] = traversable('a ramp');
    expect(answers(project, items[0]!).WHEELCHAIR).toBe(true);
    delete scene.labels.WHEELCHAIR!['living|landing'];
    expect(answers(project, items[0]!).WHEELCHAIR).toBeNull();
    // An unlabelled segment no route can use (the study is a dead end) leaves a "no" decided.
    delete scene.labels.HUMANOID!['hall|study'];
    expect(answers(project, items[0]!).HUMANOID).toBe(false);
    // The stairs labelled both ways, one traversable and one not: undecided until the conflict is settled.
    scene.labels.HUMANOID!['landing|living'] = traversable('a stair climber');
    expect(answers(project, items[0]!).HUMANOID).toBeNull();
    scene.labels.HUMANOID!['landing|living'] = blocked('stairs');
    expect(answers(project, items[0]!).HUMANOID).toBe(false);
  });

  it('a question whose place names resolve to no node has no answer for anyone', () => {
    const { project, items } = house();
    const garage = navigationAnswers(project.scenes[0]!, items[3]!, AGENTS);
    expect(garage.map((a) => a.answer)).toEqual([null, null, null, null, null]);
    expect(garage[0]!.why).toBe('the question\'s start "Garage" names no node of the graph');
  });
});

describe('what the benchmark holds: one item per agent the labels decide, never the question\'s own "yes"', () => {
  it('an accepted navigation question becomes qa_N:<agent> items with [Agent] filled in; a pending one is not there', () => {
    const { project, items } = house();
    project.qa.items = [accept(items[0]!), items[1]!];
    const { items: out, navigation } = benchmarkItems(project);
    expect(out.map((i) => [i.id, i.question, i.answer, i.anchors.agent])).toEqual([
      ['qa_1:HUMAN', 'Can HUMAN move from the front hall to the master bedroom?', { kind: 'yesno', correct: true }, 'HUMAN'],
      ['qa_1:WHEELCHAIR', 'Can WHEELCHAIR move from the front hall to the master bedroom?', { kind: 'yesno', correct: false }, 'WHEELCHAIR'],
      ['qa_1:HUMANOID', 'Can HUMANOID move from the front hall to the master bedroom?', { kind: 'yesno', correct: false }, 'HUMANOID'],
      ['qa_1:QUADRUPEDAL', 'Can QUADRUPEDAL move from the front hall to the master bedroom?', { kind: 'yesno', correct: true }, 'QUADRUPEDAL'],
    ]);
    expect(navigation).toMatchObject({ items: 1, records: 4, undecided: [{ item: 'qa_1', agent: 'SWEEPER' }] });
    expect(out.some((i) => i.id === 'qa_1' || i.question.includes('[Agent]'))).toBe(false);
  });

  it('the QA bundle and score-qa on the project file hold the same items, answers from the labels', () => {
    const { project, items } = house();
    project.qa.items = items.slice(0, 3).map(accept);
    const qa = exportQaBundle(project, { createdAt: AT, appVersion: 'test' });
    if (!qa.ok) throw new Error('export refused');
    const fromBundle = readQaGroundTruth({ path: 'qa/items.json', text: qa.files.find((f) => f.path === 'qa/items.json')!.text }).items;
    const bundle = writeBundle(project, AT);
    const fromProject = readQaGroundTruth({ path: bundle.path, text: bundle.text }).items;
    expect(fromProject.map((t) => [t.id, t.answer])).toEqual(fromBundle.map((t) => [t.id, t.answer]));
    expect(fromBundle.map((t) => t.id)).toEqual([
      'qa_1:HUMAN',
      'qa_1:WHEELCHAIR',
      'qa_1:HUMANOID',
      'qa_1:QUADRUPEDAL',
      'qa_2:HUMAN',
      'qa_2:WHEELCHAIR',
      'qa_2:HUMANOID',
      'qa_2:QUADRUPEDAL',
      'qa_3:HUMAN',
      'qa_3:WHEELCHAIR',
      'qa_3:HUMANOID',
      'qa_3:QUADRUPEDAL',
    ]);
    // Kitchen → bathroom: the bathroom door is too narrow for the wheelchair and the humanoid.
    expect(fromBundle.filter((t) => t.id.startsWith('qa_2:')).map((t) => t.answer)).toEqual(
      [true, false, false, true].map((correct) => ({ kind: 'yesno', correct })),
    );
  });
});
