import { studioCommands } from '../../support/commands.ts';
import { describe, expect, it } from 'vitest';
import { emptyProject } from '../../../src/core/project.ts';
import { isEnabled, type Command } from '../../../src/state/commands.ts';
import { createWrittenItem } from '../../../src/core/vqa/items.ts';
import { openItem as openItemOf } from '../../../src/features/qa/state/qaItems.ts';
import { replaceDocument } from '../../../src/state/history.ts';
import { createStudioStore, type StudioState } from '../../../src/state/store.ts';
import { navGraph, navQuestion, ref, sceneOf } from '../../support/sceneBuilder.ts';

/** A key must never mean two things at once: in every view, each enabled shortcut runs one command. */
describe('keyboard shortcuts', () => {
  const store = createStudioStore();
  const p = emptyProject('keys');
  p.qa.items.push(createWrittenItem([], { sceneId: 'S', author: 'Ana', createdAt: 't', question: 'Q?', category: { capability: 'spatial' } }));
  p.scenes.push(
    sceneOf({ graph: navGraph(['hall-kitchen']), questions: [navQuestion('Can [Agent] move from the hall to the kitchen?', ref('hall'), ref('kitchen'))] }),
  );
  replaceDocument(store, p);

  const states: [string, Partial<StudioState['session']>][] = [
    ['statistics', { view: 'overview' }],
    ['scene, selecting', { view: 'scene', sceneId: p.scenes[0]!.id, selection: { kind: 'node', id: 'hall' } }],
    ['scene, measuring', { view: 'scene', sceneId: p.scenes[0]!.id, tool: 'measure' }],
    ['labelling', { view: 'label', sceneId: p.scenes[0]!.id, questionIndex: 0, selection: { kind: 'node', id: 'hall' } }],
    ['problems', { view: 'problems', sceneId: p.scenes[0]!.id }],
    ['QA, writing', { view: 'qa', sceneId: p.scenes[0]!.id, questionIndex: 0 }],
  ];
  const { commands } = studioCommands(store);
  it.each(states.filter(([name]) => !name.startsWith('QA, reviewing')))('in %s, no two enabled commands share a key', (_, session) => {
    store.setState((s) => ({ session: { ...s.session, tool: 'select', ...session }, qa: { ...s.qa, mode: 'edit', itemId: null } }));
    const s = store.getState();
    const enabled = commands.filter((c: Command) => c.shortcut && isEnabled(c, s));
    const byKey = new Map<string, string[]>();
    for (const c of enabled) byKey.set(c.shortcut!, [...(byKey.get(c.shortcut!) ?? []), c.id]);
    expect([...byKey].filter(([, ids]) => ids.length > 1)).toEqual([]);
  });

  // While an item is under review its keys come first (the app lists the review commands first):
  // a key the workspace also uses (A next agent, T top view, M measure, W width, Escape) means the review's.
  const review: [string, Partial<StudioState['qa']>, Record<string, string>][] = [
    ['deciding', {}, { A: 'qa.accept', E: 'qa.edit', R: 'qa.reject', '/': 'qa.comment', '.': 'qa.next', ',': 'qa.previous' }],
    [
      'rejecting',
      { rejecting: true },
      {
        H: 'qa.reject.hallucinated',
        W: 'qa.reject.wrong-answer',
        M: 'qa.reject.ambiguous',
        T: 'qa.reject.trivial',
        N: 'qa.reject.not-in-taxonomy',
        P: 'qa.reject.implausible',
        Escape: 'qa.cancel',
      },
    ],
    ['editing', { editingForReview: true }, { 'Mod+Enter': 'qa.acceptEdits', Escape: 'qa.cancel' }],
  ];
  it.each(review)('reviewing, %s: each review key runs the review command', (_, qa, expected) => {
    store.setState((s) => ({
      session: { ...s.session, view: 'qa', sceneId: p.scenes[0]!.id, questionIndex: 0, annotator: 'Rita', tool: 'measure' },
      qa: { ...s.qa, mode: 'review', itemId: 'qa_1', rejecting: false, editingForReview: false, ...qa },
    }));
    const s = store.getState();
    expect(openItemOf(s)).toBeDefined();
    const first = (key: string) => commands.find((c) => c.shortcut === key && isEnabled(c, s))?.id;
    expect(Object.fromEntries(Object.keys(expected).map((k) => [k, first(k)]))).toEqual(expected);
  });

  // The shortcuts list files a key under "Everywhere" when its command names no views: such a key
  // must then work in every view (given the same selection, history and open item), or the list lies.
  it('a key listed as working everywhere works in every view', () => {
    const views = ['overview', 'scene', 'label', 'score', 'qa', 'problems'] as const;
    const enabledIn = (c: Command) =>
      views.filter((view) => {
        store.setState((s) => ({
          session: { ...s.session, view, sceneId: p.scenes[0]!.id, questionIndex: 0, annotator: 'Rita', selection: { kind: 'node', id: 'hall' } },
          qa: { ...s.qa, mode: 'review', itemId: 'qa_1', rejecting: false, editingForReview: false },
        }));
        return isEnabled(c, store.getState());
      });
    const partial = commands
      .filter((c) => c.shortcut && !c.views)
      .map((c) => [c.id, enabledIn(c)] as const)
      .filter(([, where]) => where.length > 0 && where.length < views.length);
    expect(partial).toEqual([]);
  });
});
