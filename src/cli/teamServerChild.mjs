// pouchdb-server as the team server's child process: `node teamServerChild.mjs <pouchdb-server bin> [its arguments]`.
//
// 1. It ends when its parent goes away (the IPC channel closes), even if the parent was killed
//    outright, so no server is left holding the port or the data folder's lock.
// 2. It mends one fault of pouchdb-server 4.2.0: in a database with a validate_doc_update,
//    pouchdb-validation overwrites every incoming document's `_revisions` with those of the stored
//    one before writing. A replicated write (`_bulk_docs` with `new_edits: false`, which is how
//    PouchDB in a browser pushes its edits) then names a revision the server already has, and is
//    dropped without an error: edits made elsewhere never arrive and conflicts are never stored.
//    Here every bulk write reaches the database with the `_revisions` its sender gave.
// 3. A bulk write's validation gets no `_security` object (nor `userCtx.db`) from pouchdb-server;
//    here its userCtx names the database, as CouchDB's does, so the validation tells leads apart.
import { createRequire } from 'node:module';

process.on('disconnect', () => process.exit(0));

const [bin, ...args] = process.argv.slice(2);
const load = createRequire(bin);
const fromValidation = createRequire(load.resolve('express-pouchdb/package.json'));
const wrappers = createRequire(fromValidation.resolve('pouchdb-validation'))('pouchdb-wrappers');

/** The same mended handler for the same original and database, so uninstalling finds what was installed. */
const mended = new WeakMap();
function keepRevisions(handler, dbName) {
  let byDb = mended.get(handler);
  if (!byDb) mended.set(handler, (byDb = new Map()));
  let m = byDb.get(dbName);
  if (!m) {
    m = function (next, a) {
      // (3.) Name the database in the bulk write's userCtx.
      if (a.options && a.options.userCtx && dbName) a.options.userCtx = { ...a.options.userCtx, db: dbName };
      const sent = new Map((a.docs ?? []).map((d) => [d, d._revisions]));
      return handler(function () {
        for (const d of a.docs ?? []) {
          if (!sent.has(d)) continue;
          if (sent.get(d) === undefined) delete d._revisions;
          else d._revisions = sent.get(d);
        }
        return next.apply(this, arguments);
      }, a);
    };
    byDb.set(dbName, m);
  }
  return m;
}
const mend = (db, handlers) =>
  handlers && typeof handlers.bulkDocs === 'function' ? { ...handlers, bulkDocs: keepRevisions(handlers.bulkDocs, String((db && db.name) || '')) } : handlers;
for (const name of ['installWrapperMethods', 'uninstallWrapperMethods']) {
  const original = wrappers[name];
  wrappers[name] = (db, handlers) => original(db, mend(db, handlers));
}

process.argv = [process.argv[0], bin, ...args];
load(bin);
