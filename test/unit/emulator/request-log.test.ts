/**
 * The request log: one JSON line a request, in files of a bounded size (at
 * most two kept), and its newest entries in memory for the console (the
 * last RECENT_KEPT, oldest first).
 */
import { describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECENT_KEPT, RequestLog, readLog, type LogEntry } from '../../../src/lib/emulator/request-log.js';

const entry = (i: number): LogEntry => ({
  time: new Date(i).toISOString(),
  requestId: `r${i}`,
  service: 'iam',
  operation: 'getUser',
  caller: 'crn:altus:iam:us-west-1:a:user:u',
  status: 200,
  durationMs: 1,
});

describe('the newest entries in memory', () => {
  test.each([10, RECENT_KEPT, RECENT_KEPT + 1, 2 * RECENT_KEPT - 1, 2 * RECENT_KEPT, 5 * RECENT_KEPT + 7])(
    'after %i requests',
    async (n) => {
      const log = new RequestLog(mkdtempSync(join(tmpdir(), 'cdpctl-log-')));
      for (let i = 0; i < n; i++) log.write(entry(i));
      const ids = log.recent().map((e) => e.requestId);
      const kept = Math.min(n, RECENT_KEPT);
      expect(ids).toHaveLength(kept);
      expect(ids[0]).toBe(`r${n - kept}`);
      expect(ids[kept - 1]).toBe(`r${n - 1}`);
      await log.close();
    },
  );
});

describe('the request log', () => {
  test('one JSON line a request, written in batches; past its size the file moves aside, so at most two files are kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdpctl-log-'));
    try {
      const log = new RequestLog(dir, 2000);
      // Lines are written in batches (every tenth of a second in the emulator; here every ten lines).
      for (let i = 0; i < 100; i++) {
        log.write(entry(i));
        if (i % 10 === 9) log.flush();
      }
      await log.close();
      const kept = readLog(dir);
      expect(kept.length).toBeGreaterThan(5);
      expect(kept.length).toBeLessThan(100);
      expect(kept[kept.length - 1]?.requestId).toBe('r99');
      expect(kept.map((e) => Number(e.requestId.slice(1)))).toEqual(
        [...kept.map((e) => Number(e.requestId.slice(1)))].sort((x, y) => x - y),
      );
      expect(statSync(join(dir, 'requests.log')).size + statSync(join(dir, 'requests.1.log')).size).toBeLessThan(4 * 2000 + 400);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
