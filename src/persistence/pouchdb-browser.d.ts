// pouchdb-browser ships no types; persistence/pouch.ts types the calls the team sync makes.
declare module 'pouchdb-browser' {
  const PouchDB: unknown;
  export default PouchDB;
}
declare module 'pouchdb-adapter-memory' {
  const plugin: unknown;
  export default plugin;
}
