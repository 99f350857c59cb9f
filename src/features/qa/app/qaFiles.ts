import { completed } from '../../../core/steps.ts';
import type { SetOfMarkRun } from './setOfMark.ts';
import { version } from '../../../../package.json';
import { hasBlocking, type Problem } from '../../../core/problems.ts';
import { compareLabellings } from '../../../core/labelComparison.ts';
import { readRelease } from '../../../formats/capnav/read.ts';
import type { Project } from '../../../core/project.ts';
import { exportQaBundle, QA_BUNDLE_PATHS, type QaManifest } from '../../../formats/qa/bundle.ts';
import { zipFolder } from '../../../formats/zip.ts';
import { readCapnavQaItems } from '../../../formats/qa/capnavItems.ts';
import { readGeneratedItemsSteps, type QaImport } from '../../../formats/qa/generated.ts';
import { sliced } from '../../../persistence/sliced.ts';
import { yieldNow } from '../../../engine/yieldNow.ts';
import { readTaxonomy } from '../../../formats/qa/taxonomy.ts';
import { applyEdit } from '../../../state/edits.ts';
import { ITEM_LIST_EDITS } from '../state/qaItemEdits.ts';
import { selectItem } from '../state/qaItems.ts';
import type { StudioStore } from '../../../state/store.ts';
import { readPickedText, type PickedFile } from '../../../ui/pickedFiles.ts';
import { download, safeName } from '../../../services/exportRelease.ts';
import { commonFolder } from '../../projects/app/importRelease.ts';

/** The QA files: importing items and taxonomies, exporting the bundle, comparing labellings. All or nothing, every problem reported. */

const sourceOf = (picked: readonly PickedFile[]) => (picked.length === 1 ? picked[0]!.path : `${picked.length} item files`);
const isCapnavQa = (path: string) => /_QA\.json$/i.test(path);

/**
 * Import item files: CapNav question files (`<SCENE>_QA.json`) become items to review, other
 * `.json` / `.jsonl` files are read as generated items. All files are one import: every problem
 * is reported, and if any is blocking nothing is imported.
 */
export async function importQaFiles(store: StudioStore, picked: PickedFile[], flush: () => Promise<void>): Promise<boolean> {
  const project = store.getState().document.project;
  if (!project) return false;
  const projectId = store.getState().workspace.projectId;
  const { files, problems: undecodable } = await readPickedText(picked);
  // Decoding and parsing a large file are two tasks, not one.
  await yieldNow();
  const createdAt = new Date().toISOString();
  const requiredReviews = store.getState().qa.importReviews;
  const generatedFiles = files.filter((f) => !isCapnavQa(f.path));
  // In slices (20,000 items took one 7 s task), read against the project as it is when they end:
  // if it changed meanwhile (an edit, a teammate's change), read again in slices, not at once.
  let base = project;
  let capnav: ReturnType<typeof readCapnavQaItems>;
  let generated: QaImport;
  // At most three passes in slices; a project that changed every time (a busy team) is read once
  // more at once, in one task, where nothing can change it underneath (this used to loop for ever).
  for (let pass = 1; ; pass++) {
    capnav = readCapnavQaItems(
      files.filter((f) => isCapnavQa(f.path)),
      base,
      { createdAt, requiredReviews },
    );
    // Generated items are numbered after the CapNav ones of the same import.
    const afterCapnav = { ...base, qa: { ...base.qa, items: [...base.qa.items, ...capnav.items] } };
    const steps = readGeneratedItemsSteps(generatedFiles, afterCapnav, { createdAt, requiredReviews });
    generated = pass <= 3 ? await sliced(steps) : completed(steps);
    const now = store.getState().document.project;
    // Another project opened (or none) meanwhile: the items were picked for this one, not that.
    if (!now || store.getState().workspace.projectId !== projectId) {
      store.setState({
        importReport: {
          source: sourceOf(picked),
          accepted: false,
          at: Date.now(),
          problems: [
            {
              severity: 'fatal',
              code: 'qa.project-changed',
              file: sourceOf(picked),
              location: '',
              message: `another project was opened while the items were read: nothing imported (open ${JSON.stringify(project.name)} and import them again)`,
            },
          ],
        },
      });
      return false;
    }
    if (now === base) break;
    base = now;
  }
  const problems: Problem[] = [...undecodable, ...capnav.problems, ...generated.problems];
  const source = sourceOf(picked);
  const accepted = !hasBlocking(problems) && capnav.items.length + generated.items.length > 0;
  if (accepted) {
    applyEdit(store, ITEM_LIST_EDITS.import, { capnav, generated: generated.items });
    const first = capnav.items[0] ?? generated.items[0];
    if (first) selectItem(store, first.id);
    store.setState((s) => ({ qa: { ...s.qa, filter: 'pending' } }));
    await flush();
  }
  const none = !hasBlocking(problems) && !accepted;
  // Items go into the open project (never a new one): the report says so, and how many.
  const into = accepted ? { outcome: 'items' as const, items: { count: capnav.items.length + generated.items.length, into: base.name } } : {};
  store.setState({
    importReport: {
      source,
      accepted,
      at: Date.now(),
      ...into,
      problems: none
        ? [...problems, { severity: 'fatal', code: 'qa.nothing', file: source, location: '', message: 'no items to import in these files' }]
        : problems,
    },
  });
  return accepted;
}

/**
 * The accepted items as a benchmark bundle zip, or the errors that refuse it (consistency
 * errors on accepted items). Throws `UnsafeZipEntryError`, naming the scene, if a scene id
 * would make an unsafe entry.
 */
export function qaZip(
  project: Project,
  createdAt: string,
  setOfMark?: SetOfMarkRun['pictures'],
): { ok: true; name: string; bytes: Uint8Array; items: number; navigation: QaManifest['navigation'] } | { ok: false; errors: number } {
  const result = exportQaBundle(project, { createdAt, appVersion: version, ...(setOfMark ? { setOfMark } : {}) });
  if (!result.ok) return { ok: false, errors: result.errors.length };
  const folder = `${safeName(project.name) || 'traversa'}-qa`;
  const owner = new Map(project.scenes.map((s) => [QA_BUNDLE_PATHS.capnavQa(s.id), `scene ${JSON.stringify(s.id)}`]));
  const files = [...result.files.map((f) => ({ ...f, from: owner.get(f.path) })), ...result.images];
  return { ok: true, name: `${folder}.zip`, bytes: zipFolder(folder, files), items: result.manifest.counts.items, navigation: result.manifest.navigation };
}

/**
 * Export the accepted items as a benchmark bundle zip, with each marked item's viewpoints rendered
 * as Set-of-Mark pictures (where its scan is loaded); refused, with the reasons shown, while an
 * accepted item has an error.
 */
export async function exportQaZip(store: StudioStore, tell: (message: string) => void, render: (project: Project) => Promise<SetOfMarkRun>): Promise<boolean> {
  const project = store.getState().document.project;
  if (!project) return false;
  let zip: ReturnType<typeof qaZip>;
  let som: SetOfMarkRun;
  try {
    if (project.qa.items.some((i) => i.status === 'accepted' && i.anchors.marks.length && i.anchors.viewpoints.length))
      tell('Rendering the Set-of-Mark pictures…');
    som = await render(project);
    zip = qaZip(project, new Date().toISOString(), som.pictures);
  } catch (e) {
    tell(`Export refused: ${e instanceof Error ? e.message : String(e)}`);
    return false;
  }
  if (!zip.ok) {
    tell(`Export refused: ${zip.errors} error${zip.errors === 1 ? '' : 's'} on accepted items (listed in the QA report).`);
    return false;
  }
  download(zip.name, zip.bytes);
  const nav = zip.navigation;
  const undecided = nav.undecided.length;
  const pictures = [...som.pictures.values()].reduce((n, l) => n + l.length, 0);
  const missing = som.notRendered.length;
  tell(
    `Exported ${zip.items} item${zip.items === 1 ? '' : 's'}${nav.items ? ` (${nav.items} navigation question${nav.items === 1 ? '' : 's'} as ${nav.records} per-agent answer${nav.records === 1 ? '' : 's'} from the labels${undecided ? `; ${undecided} left out: the labels do not decide them yet — listed in qa/manifest.json` : ''})` : ''}` +
      `${pictures ? `, with ${pictures} Set-of-Mark picture${pictures === 1 ? '' : 's'} (qa/set-of-mark/)` : ''}` +
      `${missing ? `; ${missing} marked item${missing === 1 ? '' : 's'} without a picture: load the scan of ${[...new Set(som.notRendered.map((n) => n.sceneId))].join(', ')} and export again` : ''}.`,
  );
  return true;
}

/**
 * Compare this project's traversability labels with another labelling of the same scenes (a
 * CapNav release folder exported by a second annotator): Cohen's kappa per agent and scene.
 */
export async function compareLabelFiles(store: StudioStore, picked: PickedFile[]): Promise<boolean> {
  const project = store.getState().document.project;
  if (!project) return false;
  const { files, problems: undecodable } = await readPickedText(picked);
  const source = commonFolder(picked.map((p) => p.path)) ?? `${picked.length} files`;
  const other = readRelease(files, source);
  if (!other.project || undecodable.length) {
    store.setState({ importReport: { source, accepted: false, at: Date.now(), problems: [...undecodable, ...other.problems] } });
    return false;
  }
  const comparison = compareLabellings(project, other.project, source);
  store.setState((s) => ({ qa: { ...s.qa, labelComparison: comparison } }));
  return true;
}

/** Replace the project's taxonomy with one from a file (one undo step); a bad file changes nothing and is reported. */
export async function importTaxonomyFile(store: StudioStore, picked: PickedFile): Promise<boolean> {
  if (!store.getState().document.project) return false;
  const {
    files: [file],
    problems: undecodable,
  } = await readPickedText([picked]);
  if (!file) {
    store.setState({ importReport: { source: picked.path, accepted: false, at: Date.now(), problems: undecodable } });
    return false;
  }
  const r = readTaxonomy(file);
  store.setState({ importReport: { source: picked.path, accepted: r.taxonomy !== null, at: Date.now(), problems: r.problems } });
  if (!r.taxonomy) return false;
  const taxonomy = r.taxonomy;
  applyEdit(store, ITEM_LIST_EDITS.taxonomy, { taxonomy });
  return true;
}
