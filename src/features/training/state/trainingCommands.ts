import type { Command } from '../../../state/commands.ts';
import { setSession } from '../../../state/patch.ts';

/** The Training view's key: task augmentation on the graph, for training data (issue 27 §1). */
export const trainingCommands: Command[] = [
  {
    id: 'view.training',
    label: 'Show training tasks (augmented from the labels)',
    shortcut: '7',
    undoable: false,
    enabled: (s) => !!s.document.project,
    run: (st) => setSession(st, { view: 'training' }),
  },
];
