/** The request log keeps its newest entries in memory for the console: the last RECENT_KEPT, oldest first. */
import { describe, expect, test } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECENT_KEPT, RequestLog, type LogEntry } from '../../../src/lib/emulator/request-log.js';

const entry = (i: number): LogEntry => ({
  time: new Date(i).toISOString(),
  requestId: `r${i}`,
  service: 'iam',
  operation: 'getUser',
  caller: '-',
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
