/**
 * localStorage key of the task-generation endpoint's API key: kept in this browser, as the judge's
 * (features/scoring/ui/judgeKey.ts), never in projects, records, exports, provenance, caches or logs.
 */
export const TASKGEN_KEY_STORAGE = 'traversa.taskgenKey';
