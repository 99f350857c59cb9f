import { strToU8, zipSync } from 'fflate';
import { version } from '../../package.json';
import { hasBlocking, type Problem } from '../core/problems.ts';
import { REJECT_REASONS } from '../core/vqa/item.ts';
import { compareLabellings } from '../core/vqa/labelComparison.ts';
import { readRelease } from '../formats/capnav/read.ts';
import { exportQaBundle } from '../formats/qa/bundle.ts';
import { applyCapnavQaImport, readCapnavQaItems } from '../formats/qa/capnavItems.ts';
import { readGeneratedItems } from '../formats/qa/generated.ts';
import { readTaxonomy } from '../formats/qa/taxonomy.ts';
import type { SourceFile } from '../formats/json.ts';
import type { Command } from '../state/commands.ts';
import { commitDocument } from '../state/history.ts';
import { openItem, selectItem } from '../state/qaCommands.ts';
import { recordVerdict, REJECT_KEYS, startReview, stepItem, type Verdict } from '../state/qaReview.ts';
import type { StudioState, StudioStore } from '../state/store.ts';
import type { PickedFile } from '../ui/pickedFiles.ts';
import { download, safeName } from './exportRelease.ts';
import { commonFolder } from './importRelease.ts';

/**
 * The review decisions and the QA file actions, at the edge of the app: each verdict is one undo
 * step, stored durably before the queue moves on (as labels are).
 */
export function qaCommands(store: StudioStore, flush: () => Promise<void>, tell: (message: string) => void): Command[] {
  async function decide(v: Verdict): Promise<void> {
    const id = store.getState().qa.itemId;
    const refused = recordVerdict(store, v);
    if (refused) { tell(refused); return; }
    await flush();
    if (store.getState().storage.status === 'error') { tell('The verdict could not be saved; the queue stays here. See the message at the top.'); return; }
    const what = v.verdict === 'reject' ? `rejected (${v.reason})` : v.verdict === 'accept' ? 'accepted' : 'accepted with edits';
    tell(`Saved: ${id} ${what}.`);
    if (!stepItem(store, 1) && !stepItem(store, -1)) {
      selectItem(store, null);
      tell(`Saved: ${id} ${what}. Nothing left in your review queue.`);
    }
  }

  const inQa = (s: StudioState) => s.session.view === 'qa';
  const reviewing = (s: StudioState) => inQa(s) && s.qa.mode === 'review' && !!openItem(s);
  const deciding = (s: StudioState) => reviewing(s) && !s.qa.rejecting && !s.qa.editingForReview;
  const setQa = (patch: Partial<StudioState['qa']>) => store.setState((s) => ({ qa: { ...s.qa, ...patch } }));
  return [
    { id: 'view.qa', label: 'Question-answer items: write and review', shortcut: '5', undoable: false, enabled: (s) => !!s.document.project,
      run: () => store.setState((s) => ({ session: { ...s.session, view: 'qa' } })) },
    { id: 'qa.review', label: 'Review the items waiting for you, one after another', undoable: false, enabled: inQa, run: () => { if (!startReview(store)) tell('Nothing waits for your review (items you wrote or already reviewed are not in your queue).'); } },
    { id: 'qa.write', label: 'Back to writing items', undoable: false, enabled: inQa, run: () => setQa({ mode: 'edit', rejecting: false, editingForReview: false }) },
    { id: 'qa.accept', label: 'Accept the item', shortcut: 'A', undoable: true, enabled: deciding, run: () => void decide({ verdict: 'accept' }) },
    { id: 'qa.edit', label: 'Edit the item, then accept it with the edits', shortcut: 'E', undoable: false, enabled: deciding, run: () => setQa({ editingForReview: true }) },
    { id: 'qa.acceptEdits', label: 'Accept the item with your edits', shortcut: 'Mod+Enter', undoable: true, enabled: (s) => reviewing(s) && s.qa.editingForReview, run: () => void decide({ verdict: 'edit-accept' }) },
    { id: 'qa.reject', label: 'Reject the item (then the reason key)', shortcut: 'R', undoable: false, enabled: deciding, run: () => setQa({ rejecting: true }) },
    ...REJECT_REASONS.map((reason): Command => ({
      id: `qa.reject.${reason}`, label: `Reject: ${reason.replace(/-/g, ' ')}`, shortcut: REJECT_KEYS[reason], undoable: true,
      enabled: (s) => reviewing(s) && s.qa.rejecting, run: () => void decide({ verdict: 'reject', reason }),
    })),
    { id: 'qa.cancel', label: 'Cancel the rejection or the edit', shortcut: 'Escape', undoable: false, enabled: (s) => reviewing(s) && (s.qa.rejecting || s.qa.editingForReview), run: () => setQa({ rejecting: false, editingForReview: false }) },
    { id: 'qa.comment', label: 'Write a comment on the item (recorded with the verdict)', shortcut: '/', undoable: false, enabled: reviewing, run: () => document.getElementById('qa-comment')?.focus() },
    { id: 'qa.next', label: 'Next item', shortcut: '.', undoable: false, enabled: inQa, run: () => { if (!stepItem(store, 1)) tell('This is the last item of the list.'); } },
    { id: 'qa.previous', label: 'Previous item', shortcut: ',', undoable: false, enabled: inQa, run: () => { if (!stepItem(store, -1)) tell('This is the first item of the list.'); } },
  ];
}

const isCapnavQa = (path: string) => /_QA\.json$/i.test(path);

/**
 * Import item files: CapNav question files (`<SCENE>_QA.json`) become items to review, other
 * `.json` / `.jsonl` files are read as generated items. All files are one import: every problem
 * is reported, and if any is blocking nothing is imported.
 */
export async function importQaFiles(store: StudioStore, picked: PickedFile[], flush: () => Promise<void>): Promise<boolean> {
  const project = store.getState().document.project;
  if (!project) return false;
  const files: SourceFile[] = await Promise.all(picked.map(async (p) => ({ path: p.path, text: await p.file.text() })));
  const createdAt = new Date().toISOString();
  const requiredReviews = store.getState().qa.importReviews;
  const capnav = readCapnavQaItems(files.filter((f) => isCapnavQa(f.path)), project, { createdAt, requiredReviews });
  const generatedFiles = files.filter((f) => !isCapnavQa(f.path));
  // Generated items are numbered after the CapNav ones of the same import.
  const afterCapnav = { ...project, qa: { ...project.qa, items: [...project.qa.items, ...capnav.items] } };
  const generated = readGeneratedItems(generatedFiles, afterCapnav, { createdAt, requiredReviews });
  const problems: Problem[] = [...capnav.problems, ...generated.problems];
  const source = picked.length === 1 ? picked[0]!.path : `${picked.length} item files`;
  const accepted = !hasBlocking(problems) && capnav.items.length + generated.items.length > 0;
  if (accepted) {
    const n = capnav.items.length + generated.items.length;
    commitDocument(store, `Import ${n} item${n === 1 ? '' : 's'}`, (p) => {
      const withCapnav = applyCapnavQaImport(p, capnav);
      return { ...withCapnav, qa: { ...withCapnav.qa, items: [...withCapnav.qa.items, ...generated.items] } };
    });
    const first = capnav.items[0] ?? generated.items[0];
    if (first) selectItem(store, first.id);
    store.setState((s) => ({ qa: { ...s.qa, filter: 'pending' } }));
    await flush();
  }
  const none = !hasBlocking(problems) && !accepted;
  store.setState({ importReport: { source, accepted, replaced: false, at: Date.now(),
    problems: none ? [...problems, { severity: 'fatal', code: 'qa.nothing', file: source, location: '', message: 'no items to import in these files' }] : problems } });
  return accepted;
}

/** Export the accepted items as a benchmark bundle zip; refused, with the reasons shown, while an accepted item has an error. */
export function exportQaZip(store: StudioStore, tell: (message: string) => void): boolean {
  const project = store.getState().document.project;
  if (!project) return false;
  const result = exportQaBundle(project, { createdAt: new Date().toISOString(), appVersion: version });
  if (!result.ok) {
    store.setState((s) => ({ qa: { ...s.qa, exportBlocked: result.errors.map((f) => ({ itemId: f.itemId, field: f.field, message: f.message })) } }));
    tell(`Export refused: ${result.errors.length} error${result.errors.length === 1 ? '' : 's'} on accepted items (listed in the QA report).`);
    return false;
  }
  store.setState((s) => ({ qa: { ...s.qa, exportBlocked: null } }));
  const folder = `${safeName(project.name) || 'traversa'}-qa`;
  const entries: Record<string, Uint8Array> = {};
  for (const f of result.files) entries[`${folder}/${f.path}`] = strToU8(f.text);
  download(`${folder}.zip`, zipSync(entries, { level: 6 }));
  tell(`Exported ${result.manifest.counts.items} accepted item${result.manifest.counts.items === 1 ? '' : 's'}.`);
  return true;
}

/**
 * Compare this project's traversability labels with another labelling of the same scenes (a
 * CapNav release folder exported by a second annotator): Cohen's kappa per agent and scene.
 */
export async function compareLabelFiles(store: StudioStore, picked: PickedFile[]): Promise<boolean> {
  const project = store.getState().document.project;
  if (!project) return false;
  const files: SourceFile[] = await Promise.all(picked.map(async (p) => ({ path: p.path, text: await p.file.text() })));
  const source = commonFolder(picked.map((p) => p.path)) ?? `${picked.length} files`;
  const other = readRelease(files, source);
  if (!other.project) {
    store.setState({ importReport: { source, accepted: false, replaced: false, at: Date.now(), problems: other.problems } });
    return false;
  }
  const comparison = compareLabellings(project, other.project, source);
  store.setState((s) => ({ qa: { ...s.qa, labelComparison: comparison } }));
  return true;
}

/** Replace the project's taxonomy with one from a file (one undo step); a bad file changes nothing and is reported. */
export async function importTaxonomyFile(store: StudioStore, picked: PickedFile): Promise<boolean> {
  if (!store.getState().document.project) return false;
  const r = readTaxonomy({ path: picked.path, text: await picked.file.text() });
  store.setState({ importReport: { source: picked.path, accepted: r.taxonomy !== null, replaced: false, at: Date.now(), problems: r.problems } });
  if (!r.taxonomy) return false;
  const taxonomy = r.taxonomy;
  commitDocument(store, 'Replace the taxonomy', (p) => ({ ...p, qa: { ...p.qa, taxonomy } }));
  return true;
}
