import { describe, expect, it } from 'vitest';
import { judgeRoom } from '../../../src/persistence/meshStore.ts';

const MB = 1e6;

describe('storage room for a scan', () => {
  it('stores quietly when there is plenty of room', () => {
    expect(judgeRoom(50 * MB, { usage: 100 * MB, quota: 10_000 * MB })).toEqual({ ok: true });
  });
  it('warns when the scan fills the browser storage past 70 %', () => {
    const v = judgeRoom(300 * MB, { usage: 500 * MB, quota: 1000 * MB });
    expect(v.ok && v.warning).toMatch(/80 % full/);
  });
  it('refuses a scan that would pass 90 %, saying how much is free', () => {
    const v = judgeRoom(500 * MB, { usage: 500 * MB, quota: 1000 * MB });
    expect(v.ok).toBe(false);
    expect(!v.ok && v.message).toMatch(/needs 500 MB and only 400 MB is free/);
  });
  it('stores when the browser does not report its quota', () => {
    expect(judgeRoom(50 * MB, null)).toEqual({ ok: true });
  });
});
