// The studio's features, as the state knows them: each module below registers its feature's slice
// of the state, what the floor slice follows in its view, or what it shows in the 3D workspace.
// Loaded before the store is made (main.tsx imports this first); a module only read for its types
// would otherwise never run, and its slice would be missing. test/unit/state/featureSlices.test.ts holds
// this list to every module that registers something.
import '../features/tasks/state/taskGen.ts';
import '../features/scoring/state/qaAnswersState.ts';
import '../features/tour/state/tourSession.ts';
import '../features/labelling/state/queueSelectors.ts';
import '../features/qa/state/evidence.ts';
import '../features/scene/state/graphCommands.ts';
import '../features/training/state/training.ts';
