import { Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import type { PathPreview } from '../../../../src/state/store.ts';
import { createStudioStore } from '../../../../src/state/store.ts';
import { openRecord } from '../../../../src/features/scoring/state/links.ts';
import { routeLabels } from '../../../../src/viewport/routeLabels.ts';

// Issue 23 §10: the route viewer never suggests what did not happen.
const world = new Map(['hall', 'landing', 'bath', 'bedroom'].map((id, i) => [id, new Vector3(i, i > 1 ? 3 : 0, 0)]));
const hop = (from: string, to: string): PathPreview['hops'][number] => ({ from, to, state: 'traversable' });

describe('the route viewer', () => {
  it('numbers every visit: a node the route comes back to carries each of its numbers', () => {
    const preview = {
      hops: [hop('hall', 'landing'), hop('landing', 'bath'), hop('bath', 'landing'), hop('landing', 'bedroom')],
      wrongStart: null,
      wrongEnd: null,
    } as unknown as PathPreview;
    const { order } = routeLabels(preview, world);
    expect(Object.fromEntries(order)).toEqual({ hall: '1', landing: '2, 4', bath: '3', bedroom: '5' });
  });

  it('opens in a view that keeps the floors apart: from Top it turns to Orbit; another camera is left as it is', () => {
    const store = createStudioStore();
    store.setState((s) => ({ session: { ...s.session, camera: 'top' } }));
    openRecord(store, 'vlm', 'r1');
    expect(store.getState().session).toMatchObject({ view: 'score', camera: 'orbit' });
    store.setState((s) => ({ session: { ...s.session, camera: 'first' } }));
    openRecord(store, 'vlm', 'r2');
    expect(store.getState().session.camera).toBe('first');
  });
});
