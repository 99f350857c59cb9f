/** localStorage key of the HTTP judge's API key: kept in this browser, never in projects, exports or logs. */
export const JUDGE_KEY_STORAGE = 'traversa.judgeKey';
