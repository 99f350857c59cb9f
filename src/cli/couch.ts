import type { Project } from '../core/project.ts';
import { assembleProject, type BadRecord } from '../core/records/assemble.ts';
import { parseKey } from '../core/records/keys.ts';
import { projectRecords, type Rec } from '../core/records/records.ts';
import { docHolds, readDoc, recordToDoc, type RecordDoc } from '../core/sync/docs.ts';
import type { SourceFile } from '../formats/json.ts';
import { writeRelease } from '../formats/capnav/write.ts';
import { Couch, parseCouchUrl, reasonOf, type CouchEnv } from './couchClient.ts';
import { InputError } from './files.ts';
import { table } from './tables.ts';

/**
 * `push` and `pull`: a project between a release folder and a team database, one CouchDB document
 * per record (docs.ts). Push writes only what changed and reports, per record kind, what the
 * server took and what it refused (with each refused id and the server's reason). Pull reads
 * every document, assembles the project as strictly as a stored one is opened, and reports bad
 * records and unresolved revision conflicts by id: conflicts are shown, never resolved here.
 */

/** Documents per request: large enough to be quick, small enough for CouchDB's request limits. */
const BATCH = 2000;

interface KindTally {
  written: number;
  unchanged: number;
  refused: number;
}
export interface PushReport {
  user: string;
  byKind: Map<string, KindTally>;
  refused: { id: string; reason: string }[];
  /** Written records the server answered 202 for (no write quorum yet). */
  unconfirmed: number;
}

export async function pushCommand(
  project: Project,
  url: string | undefined,
  env: CouchEnv,
  now = () => new Date().toISOString(),
): Promise<{ text: string; code: number }> {
  const couch = new Couch(parseCouchUrl(url, env, 'db', '--to <couch-url>/<db>'));
  const user = await couch.signedInAs();
  if (!user) throw await couch.refusal({ status: 401, body: { error: 'unauthorized', reason: 'You are not signed in.' } }, 'pushing');
  const recs = projectRecords(project);
  const report: PushReport = { user, byKind: new Map(), refused: [], unconfirmed: 0 };
  const tally = (key: string) => {
    const kind = parseKey(key)?.kind ?? 'other';
    let t = report.byKind.get(kind);
    if (!t) report.byKind.set(kind, (t = { written: 0, unchanged: 0, refused: 0 }));
    return t;
  };
  const at = now();
  for (let i = 0; i < recs.length; i += BATCH) {
    const batch = recs.slice(i, i + BATCH);
    const stored = await storedDocs(
      couch,
      batch.map((r) => r.key),
    );
    const docs: RecordDoc[] = [];
    for (const rec of batch) {
      const have = stored.get(rec.key);
      if (have?.doc && docHolds(have.doc, rec)) {
        tally(rec.key).unchanged++;
        continue;
      }
      // A deleted document is written anew from its tombstone, without a revision.
      docs.push({ ...recordToDoc(rec, user, at), ...(have && !have.deleted ? { _rev: have.rev } : {}) });
    }
    if (!docs.length) continue;
    const res = await couch.db<{ id: string; rev?: string; error?: string; reason?: string }[]>('POST', '_bulk_docs', { docs });
    // 202: Apache CouchDB wrote them but fewer copies than its write quorum have confirmed yet.
    if (res.status === 202) report.unconfirmed += docs.length;
    else if (res.status !== 201 && res.status !== 200) throw await couch.refusal(res, 'writing records');
    for (const r of res.body) {
      if (r.error) {
        tally(r.id).refused++;
        report.refused.push({ id: r.id, reason: reasonOf(r) });
      } else tally(r.id).written++;
    }
  }
  return { text: formatPush(report, couch.dbUrl), code: report.refused.length ? 1 : 0 };
}

interface Stored {
  rev: string;
  deleted: boolean;
  doc: RecordDoc | null;
}

/** The current revision (and content) of each of `keys` that the database has, even deleted. */
async function storedDocs(couch: Couch, keys: string[]): Promise<Map<string, Stored>> {
  type Row = { key: string; error?: string; value?: { rev: string; deleted?: boolean }; doc?: RecordDoc | null };
  const res = await couch.db<{ rows: Row[] }>('POST', '_all_docs?include_docs=true', { keys });
  if (res.status !== 200) throw await couch.refusal(res, 'reading what the database holds');
  const out = new Map<string, Stored>();
  for (const row of res.body.rows) if (row.value) out.set(row.key, { rev: row.value.rev, deleted: row.value.deleted === true, doc: row.doc ?? null });
  return out;
}

function formatPush(r: PushReport, where: string): string {
  const kinds = [...r.byKind].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const total = kinds.reduce((t, [, k]) => ({ written: t.written + k.written, unchanged: t.unchanged + k.unchanged, refused: t.refused + k.refused }), {
    written: 0,
    unchanged: 0,
    refused: 0,
  });
  const rows = [...kinds.map(([kind, k]) => [kind, k.written, k.unchanged, k.refused]), ['total', total.written, total.unchanged, total.refused]];
  const lines = [`pushed to ${where} as ${r.user}`, table(['kind', 'written', 'unchanged', 'refused'], rows)];
  for (const x of r.refused) lines.push(`refused ${x.id}: ${x.reason}`);
  if (r.unconfirmed)
    lines.push(
      `note: the server answered 202 Accepted for ${r.unconfirmed} of the written records: stored, but not yet on as many copies as its cluster's write quorum asks; CouchDB copies them on by itself (a pull shows them)`,
    );
  return lines.join('\n') + '\n';
}

export interface PullResult {
  text: string;
  code: number;
  files: SourceFile[];
}

export async function pullCommand(url: string | undefined, env: CouchEnv): Promise<PullResult> {
  const couch = new Couch(parseCouchUrl(url, env, 'db', '--from <couch-url>/<db>'));
  const recs: Rec[] = [];
  const bad: BadRecord[] = [];
  const conflicts: { id: string; revs: string[] }[] = [];
  let foreign = 0;
  for await (const doc of allDocs(couch)) {
    if (!doc) continue;
    if (doc._conflicts?.length) conflicts.push({ id: doc._id, revs: [doc._rev ?? '?', ...doc._conflicts] });
    const read = readDoc(doc);
    if (!read) {
      if (!doc._id.startsWith('_design/')) foreign++;
      continue;
    }
    if ('bad' in read) bad.push(read.bad);
    else recs.push(read.rec);
  }
  const assembled = assembleProject(recs);
  const lines: string[] = [];
  for (const b of [...bad, ...assembled.bad]) lines.push(`bad record ${b.key}: ${b.reason}`);
  for (const k of assembled.orphans) lines.push(`orphan record ${k}: its scene or item has no head record, left out`);
  for (const c of conflicts) lines.push(`conflict ${c.id}: ${c.revs.length} revisions (${c.revs.join(', ')}); the winning one was read`);
  if (foreign) lines.push(`${foreign} document${foreign === 1 ? ' is' : 's are'} not Traversa records (ignored)`);
  if (!assembled.project) {
    lines.unshift(`${couch.dbUrl}: the project cannot be assembled: ${assembled.message ?? 'no project record'}`);
    return { text: lines.join('\n') + '\n', code: 1, files: [] };
  }
  const p = assembled.project;
  const labels = recs.filter((r) => r.key.startsWith('label/')).length;
  const inForce = p.scenes.reduce((n, s) => n + Object.values(s.labels).reduce((m, t) => m + Object.keys(t).length, 0), 0);
  // The release layout has one label per agent and segment and no QA items: say what stays behind.
  if (labels > inForce) lines.push(`the release holds the ${inForce} labels in force; all ${labels} annotators' labels stay in the database`);
  if (p.qa.items.length) lines.push(`the ${p.qa.items.length} QA items are not part of the release layout; they stay in the database`);
  lines.unshift(
    `pulled ${recs.length} records from ${couch.dbUrl}: ${p.scenes.length} scenes, ${labels} labels, ${p.qa.items.length} QA items; ` +
      `${bad.length + assembled.bad.length} bad, ${conflicts.length} in conflict`,
  );
  return { text: lines.join('\n') + '\n', code: 0, files: writeRelease(p) };
}

/** Every document of the database, page by page (`startkey_docid` after the last one seen). */
async function* allDocs(couch: Couch): AsyncGenerator<RecordDoc | null> {
  let after: string | undefined;
  for (;;) {
    const q = new URLSearchParams({ include_docs: 'true', conflicts: 'true', limit: String(BATCH) });
    if (after !== undefined) {
      q.set('startkey', JSON.stringify(after));
      q.set('skip', '1');
    }
    const res = await couch.db<{ rows: { id: string; doc?: RecordDoc | null }[] }>('GET', `_all_docs?${q}`);
    if (res.status !== 200) throw await couch.refusal(res, 'reading the project');
    if (!Array.isArray(res.body?.rows)) throw new InputError(`${couch.dbUrl} did not answer with documents`);
    for (const row of res.body.rows) yield row.doc ?? null;
    if (res.body.rows.length < BATCH) return;
    after = res.body.rows[res.body.rows.length - 1]!.id;
  }
}
