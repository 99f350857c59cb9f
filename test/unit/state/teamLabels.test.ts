import { describe, expect, it } from 'vitest';
import { setLabel } from '../../../src/core/labelEdit.ts';
import { adjudicate, castVote, labelDisputes } from '../../../src/core/labelVotes.ts';
import { existingLabel } from '../../../src/core/queue.ts';
import type { Label } from '../../../src/core/labels.ts';
import type { Project } from '../../../src/core/project.ts';
import { labelAgreement } from '../../../src/core/interRater.ts';
import { annotatorTables, teamAgreement } from '../../../src/core/teamAgreement.ts';
import { readRelease } from '../../../src/formats/capnav/read.ts';
import { withScene } from '../../../src/state/edits.ts';
import { replaceDocument, undo } from '../../../src/state/history.ts';
import { decideDispute } from '../../../src/features/labelling/state/labelCommands.ts';
import { createStudioStore } from '../../../src/state/store.ts';
import { houseScene, releaseFiles } from '../../support/releaseBuilder.ts';

const house = (): Project => readRelease(releaseFiles([houseScene('S1'), houseScene('S2')]), 'House').project!;
const vote = (traversable: boolean, annotator: string, t: number): Label => ({
  traversable,
  note: traversable ? '' : 'step',
  annotator,
  timestamp: new Date(Date.UTC(2026, 10, 23, 10, t)).toISOString(),
  source: 'annotator',
});

/** Three annotators label the wheelchair on the first four edges of both scenes; carol disagrees twice. */
function labelledByThree(): Project {
  let p = house();
  const edges = p.scenes[0]!.graph.edges.slice(0, 4);
  for (const sceneId of ['S1', 'S2']) {
    edges.forEach((e, i) => {
      const truth = i % 2 === 0;
      p = withScene(p, sceneId, (s) => setLabel(s, 'WHEELCHAIR', e.from, e.to, vote(truth, 'alice', i)));
      p = withScene(p, sceneId, (s) => setLabel(s, 'WHEELCHAIR', e.from, e.to, vote(truth, 'bob', 10 + i)));
      p = withScene(p, sceneId, (s) => setLabel(s, 'WHEELCHAIR', e.from, e.to, vote(sceneId === 'S1' && i < 2 ? !truth : truth, 'carol', 20 + i)));
    });
  }
  return p;
}

describe('a team labelling the same segments', () => {
  it('κ per pair over every scene, Light’s κ for the team, and the disagreements listed for adjudication', () => {
    const team = teamAgreement(labelledByThree());
    expect(team.annotators).toEqual(['alice', 'bob', 'carol']);
    const pair = (a: string, b: string) => team.pairs.find((p) => p.a === a && p.b === b)!.agreement.overall;
    expect(pair('alice', 'bob')).toMatchObject({ compared: 8, agreed: 8 });
    expect(pair('alice', 'bob').cohen.kappa).toBe(1);
    expect(pair('alice', 'carol')).toMatchObject({ compared: 8, agreed: 6 });
    expect(pair('alice', 'carol').cohen.kappa).toBeCloseTo(0.5, 6);
    expect(team.light).toBeCloseTo((1 + 0.5 + 0.5) / 3, 6);
    expect(team.disputes).toBe(2);
  });

  it('counted scene by scene, the team agreement is the agreement of everyone’s labels pooled; a new label changes only its scene’s part', () => {
    let p = labelledByThree();
    const [e0, e1] = p.scenes[0]!.graph.edges;
    // A direction conflict in carol's table and an auto-approved label of bob's, both skipped from κ.
    p = withScene(p, 'S2', (s) => castVote(s, 'WHEELCHAIR', `${e0!.to}|${e0!.from}`, vote(false, 'carol', 40)));
    p = withScene(p, 'S1', (s) => setLabel(s, 'HUMAN', e1!.from, e1!.to, { ...vote(true, 'bob', 41), source: 'auto-approved' }));
    p = withScene(p, 'S1', (s) => setLabel(s, 'HUMAN', e1!.from, e1!.to, vote(true, 'alice', 42)));
    const pooled = (project: Project) => {
      const tables = annotatorTables(project);
      const names = [...tables.keys()].sort();
      return names
        .flatMap((a, i) => names.slice(i + 1).map((b) => ({ a, b, agreement: labelAgreement(tables.get(a)!, tables.get(b)!) })))
        .filter((x) => x.agreement.overall.compared > 0);
    };
    const before = teamAgreement(p);
    expect(before.pairs).toEqual(pooled(p));
    expect(before.pairs.find((x) => x.a === 'alice' && x.b === 'bob')!.agreement.skipped).toContainEqual(
      expect.objectContaining({ agent: 'HUMAN', why: 'auto-approved' }),
    );
    expect(before.pairs.find((x) => x.a === 'alice' && x.b === 'carol')!.agreement.skipped).toContainEqual(
      expect.objectContaining({ why: 'direction-conflict' }),
    );

    const after = withScene(p, 'S2', (s) => setLabel(s, 'WHEELCHAIR', e1!.from, e1!.to, vote(true, 'bob', 50)));
    expect(after.scenes[0]).toBe(p.scenes[0]);
    expect(teamAgreement(after).pairs).toEqual(pooled(after));
    expect(teamAgreement(after).pairs).not.toEqual(before.pairs);
  });

  it('an adjudicator decides a dispute (it leaves the list, the decision is the label in force); undo brings the dispute back', () => {
    const store = createStudioStore();
    replaceDocument(store, labelledByThree());
    const scene = () => store.getState().document.project!.scenes[0]!;
    const [d] = labelDisputes(scene());
    expect(decideDispute(store, 'S1', d!.agent, d!.seg, d!.votes[2]![1])).toContain('Give your name');
    store.setState((s) => ({ session: { ...s.session, annotator: 'dana' } }));
    expect(decideDispute(store, 'S1', d!.agent, d!.seg, d!.votes[2]![1])).toBeNull();
    expect(labelDisputes(scene())).toHaveLength(1);
    expect(scene().labels[d!.agent]![d!.seg]).toMatchObject({ traversable: d!.votes[2]![1].traversable, annotator: 'carol' });
    expect(scene().adjudications![d!.agent]![d!.seg]!.by).toBe('dana');
    undo(store);
    expect(labelDisputes(scene())).toHaveLength(2);
  });
});

describe("each annotator's queue in a team", () => {
  it('a segment others voted on is still to do for me; my vote, an adjudication or only a baseline label makes it done', () => {
    let scene = house().scenes[0]!;
    const e = { from: 'node_1', to: 'node_3' }; // labelled for the wheelchair by the release
    const item = { agent: 'WHEELCHAIR', from: e.from, to: e.to, questionIndex: 0 };
    // The release's unnamed baseline labels every segment: done for a named annotator too.
    expect(existingLabel(scene, item)).toBeDefined();
    expect(existingLabel(scene, item, 'alice')).toBeDefined();
    scene = setLabel(scene, 'WHEELCHAIR', e.from, e.to, vote(false, 'bob', 1));
    expect(existingLabel(scene, item, 'bob')).toMatchObject({ annotator: 'bob' });
    expect(existingLabel(scene, item, 'alice')).toBeUndefined();
    expect(existingLabel(scene, item)).toBeDefined(); // without a name: the label in force
    scene = setLabel(scene, 'WHEELCHAIR', e.from, e.to, vote(true, 'alice', 2));
    expect(existingLabel(scene, item, 'alice')).toMatchObject({ annotator: 'alice', traversable: true });
    expect(existingLabel(scene, item, 'carol')).toBeUndefined();
    scene = adjudicate(scene, 'WHEELCHAIR', `${e.from}|${e.to}`, { label: vote(true, 'alice', 3), by: 'dana', at: 't' });
    expect(existingLabel(scene, item, 'carol')).toBeDefined();
  });
});
