/** The newest change (mtime, ms) of the files under `dir` whose names `counts` (all by default). */
export function newestChange(dir: string, counts?: (name: string) => boolean): number;
