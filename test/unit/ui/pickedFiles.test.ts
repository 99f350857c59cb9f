import { describe, expect, it } from 'vitest';
import { readPickedText, type PickedFile } from '../../../src/ui/pickedFiles.ts';

// Picked files are read all at once (a release of 1,000 scenes is 3,000 files); what comes back must be
// each file's own text, in the order picked, with a file in another encoding refused by name.

const file = (path: string, bytes: BlobPart): PickedFile => ({ path, file: new File([bytes], path.split('/').pop()!) });

describe('reading picked files', () => {
  it('returns every file’s own text in the order picked, and refuses a Latin-1 file among them by name and byte', async () => {
    const big = Array.from({ length: 12 }, (_, i) => file(`r/graphs/S${i}-graph.json`, `{"i": ${i}, "pad": "${'ü'.repeat(500_000)}"}`));
    const latin1 = file('r/qa/S5_QA.json', new Uint8Array(Buffer.from('{"name": "Café"}', 'latin1')) as Uint8Array<ArrayBuffer>);
    const small = file('r/agent_profile.json', '{"agents": []}');
    const picked = [...big.slice(0, 6), latin1, ...big.slice(6), small];
    const read = await readPickedText(picked);
    expect(read.files.map((f) => f.path)).toEqual([...big, small].map((p) => p.path));
    read.files.slice(0, 12).forEach((f, i) => {
      expect(JSON.parse(f.text).i).toBe(i);
      expect(f.text.length).toBe(`{"i": ${i}, "pad": ""}`.length + 500_000);
    });
    expect(read.files[12]!.text).toBe('{"agents": []}');
    expect(read.problems).toEqual([expect.objectContaining({ file: 'r/qa/S5_QA.json', location: 'byte 13', code: 'text.encoding' })]);
  });
});
