import { describe, expect, it } from 'vitest';
import { emptyProject } from '../../src/core/project.ts';
import { stateCommands } from '../../src/state/commandList.ts';
import type { Command } from '../../src/state/commands.ts';
import { replaceDocument } from '../../src/state/history.ts';
import { createStudioStore, type StudioState } from '../../src/state/store.ts';
import { navGraph, navQuestion, ref, sceneOf } from '../support/sceneBuilder.ts';

/** A key must never mean two things at once: in every view, each enabled shortcut runs one command. */
describe('keyboard shortcuts', () => {
  const store = createStudioStore();
  const p = emptyProject('keys');
  p.scenes.push(sceneOf({ graph: navGraph(['hall-kitchen']), questions: [navQuestion('Can [Agent] move from the hall to the kitchen?', ref('hall'), ref('kitchen'))] }));
  replaceDocument(store, p);

  const states: [string, Partial<StudioState['session']>][] = [
    ['statistics', { view: 'overview' }],
    ['scene, selecting', { view: 'scene', sceneId: p.scenes[0]!.id, selection: { kind: 'node', id: 'hall' } }],
    ['scene, measuring', { view: 'scene', sceneId: p.scenes[0]!.id, tool: 'measure' }],
    ['labelling', { view: 'label', sceneId: p.scenes[0]!.id, questionIndex: 0, selection: { kind: 'node', id: 'hall' } }],
    ['problems', { view: 'problems', sceneId: p.scenes[0]!.id }],
  ];
  it.each(states)('in %s, no two enabled commands share a key', (_, session) => {
    store.setState((s) => ({ session: { ...s.session, ...session } }));
    const s = store.getState();
    const enabled = stateCommands.filter((c: Command) => c.shortcut && (!c.enabled || c.enabled(s)));
    const byKey = new Map<string, string[]>();
    for (const c of enabled) byKey.set(c.shortcut!, [...(byKey.get(c.shortcut!) ?? []), c.id]);
    expect([...byKey].filter(([, ids]) => ids.length > 1)).toEqual([]);
  });
});
