/**
 * Keys that move something continuously rather than run a command: the shortcuts list shows them
 * from here, and the handlers that act on them read the same tables, so the list says what the keys do.
 */

export interface MovementKey {
  key: string;
  shows: string;
}

/** Driving the placed agent in the label view (after B): one collision-checked step per press. */
export const DRIVE_KEYS: Record<string, { forwardM: number; turnRad: number }> = {
  ArrowUp: { forwardM: 0.05, turnRad: 0 },
  ArrowDown: { forwardM: -0.05, turnRad: 0 },
  ArrowLeft: { forwardM: 0, turnRad: Math.PI / 36 },
  ArrowRight: { forwardM: 0, turnRad: -Math.PI / 36 },
};

export const DRIVE_KEY_HELP: MovementKey[] = [
  { key: '↑ / ↓', shows: 'Drive the placed agent (B) 5 cm forward / back, stopped by what it touches' },
  { key: '← / →', shows: 'Turn the placed agent 5° left / right' },
];

/** Walking in the first-person camera (F): held keys move at 1.2 m/s, 3 m/s with Shift. */
export const WALK_KEYS = { forward: 'ArrowUp', back: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight', hurry: 'Shift' } as const;

export const WALK_KEY_HELP: MovementKey[] = [{ key: '↑ ↓ ← →', shows: 'Walk in the first-person view (F); hold Shift to hurry, drag to look around' }];
