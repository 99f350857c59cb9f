import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../support/cli.ts';
import { createStudioStore, initialState, keysOfScope, leaveProject, registerSlice } from '../../../src/state/store.ts';
import { setTaskGen } from '../../../src/features/tasks/state/taskGenCommands.ts';
import { initialTaskGen } from '../../../src/features/tasks/state/taskGen.ts';
import { IDLE_TOUR } from '../../../src/features/tour/state/tourSession.ts';
import { initialQaAnswers } from '../../../src/features/scoring/state/qaAnswersState.ts';

// Issue 26 §1: a feature's state is its own slice, declared and registered in its state/ folder;
// the shared store names no feature.
describe('a feature slice', () => {
  it('starts in every new store with the value its feature registered, under its scope', () => {
    const s = initialState();
    expect(s.taskgen).toEqual(initialTaskGen());
    expect(s.qaAnswers).toEqual(initialQaAnswers());
    expect(keysOfScope('session')).toEqual(expect.arrayContaining(['taskgen', 'qaAnswers', 'session', 'qa']));
    expect(keysOfScope('document')).toEqual(['document']);
    expect(s.tour).toEqual(IDLE_TOUR);
    expect(keysOfScope('ephemeral')).toContain('tour');
    // Two stores never share a slice's value.
    expect(initialState().taskgen).not.toBe(s.taskgen);
  });

  it('cannot be registered twice, nor take a shared key', () => {
    expect(() => registerSlice('taskgen', 'session', initialTaskGen)).toThrow('already has a slice "taskgen"');
    expect(() => registerSlice('session' as 'taskgen', 'session', initialTaskGen)).toThrow('already has a slice "session"');
  });

  it("keeps the task panel's settings when another project opens (as when it lived inside the QA slice)", () => {
    const store = createStudioStore();
    setTaskGen(store, { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', open: true });
    store.setState(leaveProject(store.getState()));
    expect(store.getState().taskgen).toMatchObject({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', open: true });
  });
});

describe('the features the studio loads', () => {
  it('include every module that registers a slice, a followed slice or a workspace feed (else, read only for its types, it never runs)', () => {
    const root = join(REPO, 'src/features');
    const registering = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.tsx?$/.test(f))
      .filter((f) => /^(registerSlice|followSliceIn|feedWorkspace)\(/m.test(readFileSync(join(root, f), 'utf8')))
      .map((f) => `../features/${f.split(sep).join('/')}`)
      .sort();
    const loaded = [...readFileSync(join(REPO, 'src/app/features.ts'), 'utf8').matchAll(/^import '([^']+)';$/gm)].map((m) => m[1]).sort();
    expect(registering.length).toBeGreaterThanOrEqual(5);
    expect(loaded).toEqual(registering);
  });
});
