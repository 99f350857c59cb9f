import type { Problem } from '../core/problems.ts';
import type { SourceFile } from '../formats/json.ts';
import { decodeText } from '../formats/text.ts';

/** A file picked or dropped by the user, with its path inside the dropped folder when known. */
export interface PickedFile {
  path: string;
  file: File;
}

/** Files from an `<input type=file>` (folder picks carry `webkitRelativePath`). */
export function filesFromInput(list: FileList): PickedFile[] {
  return [...list].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}

/** Files from a drop: whole folders (walked recursively) and loose files alike. */
export async function filesFromDrop(data: DataTransfer): Promise<PickedFile[]> {
  const entries = [...data.items].map((item) => item.webkitGetAsEntry?.() ?? null);
  if (entries.some((e) => e === null)) return [...data.files].map((file) => ({ path: file.name, file }));
  const out: PickedFile[] = [];
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    if (entry.isFile) {
      const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
      out.push({ path: prefix + entry.name, file });
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      // readEntries returns at most ~100 entries per call: keep reading until it returns none.
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) break;
        for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
      }
    }
  };
  for (const e of entries) await walk(e!, '');
  return out;
}

/**
 * Picked files as text, through the decoder the command line uses too (`decodeText`: UTF-8, or
 * UTF-16 with a byte-order mark). A file in any other encoding is not read with U+FFFD in place
 * of its bad bytes: it comes back as a problem naming the file and the byte.
 */
export async function readPickedText(picked: readonly PickedFile[]): Promise<{ files: SourceFile[]; problems: Problem[] }> {
  const files: SourceFile[] = [];
  const problems = await readPickedInOrder(picked, (f) => files.push(f));
  return { files, problems };
}

/** Files read at once: the next wave is asked for before the one that arrived is handed over. */
const WAVE = 256;

/**
 * `readPickedText` handing each file over as it arrives, in the order picked. The browser reads
 * files on other threads, and replies to thousands of reads all at once come in one burst at the
 * end; read in waves instead, with the next wave asked for before the last one is handed over, the
 * reader's work on each wave is done while the browser reads the next (for a 1,000-scene release,
 * 3,000 files, the reading itself takes ~0.8 s). The problems are those of files that could not be decoded.
 */
export async function readPickedInOrder(picked: readonly PickedFile[], take: (file: SourceFile) => void): Promise<Problem[]> {
  const problems: Problem[] = [];
  const wave = (from: number) => Promise.all(picked.slice(from, from + WAVE).map(async (p) => new Uint8Array(await p.file.arrayBuffer())));
  let pending = wave(0);
  for (let from = 0; from < picked.length; from += WAVE) {
    const bytes = await pending;
    if (from + WAVE < picked.length) pending = wave(from + WAVE);
    bytes.forEach((b, i) => {
      const p = picked[from + i]!;
      const d = decodeText(p.path, b);
      if (d.ok) take({ path: p.path, text: d.text });
      else problems.push(d.problem);
    });
  }
  return problems;
}

/** The hidden file inputs of the header: a release folder, or loose files (the project list's Import clicks the folder's). */
export const FOLDER_INPUT_ID = 'import-folder-input';
export const FILES_INPUT_ID = 'import-files-input';
