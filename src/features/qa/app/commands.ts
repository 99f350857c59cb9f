import type { Project } from '../../../core/project.ts';
import type { SetOfMarkRun } from './setOfMark.ts';
import type { ArgCommandsOf } from '../../../state/commandIds.ts';
import type { StudioStore } from '../../../state/store.ts';
import type { PickedFile } from '../../../ui/pickedFiles.ts';
import { compareLabelFiles, exportQaZip, importQaFiles, importTaxonomyFile } from './qaFiles.ts';

declare module '../../../state/commandIds.ts' {
  interface ArgCommands {
    /** Import generated items (JSON / JSONL) and CapNav question files as items to review; all or nothing. */
    'qa.importFiles': (files: PickedFile[]) => Promise<boolean>;
    /** Download the accepted items as a benchmark bundle zip (refused while an accepted item has an error). */
    'qa.exportBundle': () => Promise<boolean>;
    /** Compare the project's traversability labels with another labelling (a release folder). */
    'qa.compareLabels': (files: PickedFile[]) => Promise<boolean>;
    /** Replace the project's taxonomy with one from a JSON file (a taxonomy, or a QA bundle's manifest). */
    'qa.importTaxonomy': (file: PickedFile) => Promise<boolean>;
  }
}

export function qaArgCommands(
  store: StudioStore,
  io: { flush: () => Promise<void>; tell: (notice: string) => void; setOfMark: (project: Project) => Promise<SetOfMarkRun> },
): ArgCommandsOf<'qa'> {
  return {
    'qa.importFiles': (files) => importQaFiles(store, files, io.flush),
    'qa.exportBundle': () => exportQaZip(store, io.tell, io.setOfMark),
    'qa.compareLabels': (files) => compareLabelFiles(store, files),
    'qa.importTaxonomy': (file) => importTaxonomyFile(store, file),
  };
}
