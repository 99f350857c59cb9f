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
  const decoded = await Promise.all(picked.map(async (p) => decodeText(p.path, new Uint8Array(await p.file.arrayBuffer()))));
  const files: SourceFile[] = [], problems: Problem[] = [];
  decoded.forEach((d, i) => { if (d.ok) files.push({ path: picked[i]!.path, text: d.text }); else problems.push(d.problem); });
  return { files, problems };
}
