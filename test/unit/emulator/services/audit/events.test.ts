/**
 * The audit trail's store (services/audit/events.ts): a time range is found
 * by bisection and read no further than a page needs, however many events
 * there are; an account keeps a bounded number of events, the oldest going
 * first; and an event never holds a field the model marks secret, at any
 * depth of the request.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap } from '../../../../../src/lib/emulator/bootstrap.js';
import { ApiError } from '../../../../../src/lib/emulator/errors.js';
import { Emulator } from '../../../../../src/lib/emulator/server.js';
import { EVENT_KIND, EventLog } from '../../../../../src/lib/emulator/services/audit/events.js';
import { Store } from '../../../../../src/lib/emulator/store.js';
import type { ServedCall } from '../../../../../src/lib/emulator/types.js';

const dir = mkdtempSync(join(tmpdir(), 'cdpctl-audit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const call = (at: number, operation = 'createGroup'): ServedCall => ({
  service: 'iam',
  operation,
  requestId: `request-${at}`,
  caller: { accountId: 'acct', actorCrn: 'crn:altus:iam:us-west-1:acct:user:admin', kind: 'user' },
  request: { groupName: `g-${at}` },
  result: { code: 'SUCCESS' },
  at,
});

describe('the event log', () => {
  const store = new Store(join(dir, 'events.db'), 'acct');
  const log = new EventLog(store, 3_000);
  afterAll(() => store.close());

  beforeAll(() => {
    store.transaction(() => {
      for (let i = 0; i < 5_000; i++) log.record(call(1_000 + i * 10, i % 2 === 0 ? 'createGroup' : 'deleteGroup'));
    });
  });

  test('keeps at most its bound; the oldest went first', () => {
    expect(store.count(EVENT_KIND)).toBeLessThanOrEqual(3_000);
    expect(store.count(EVENT_KIND)).toBeGreaterThan(1_900);
    const [oldest] = store.list<{ event: { timestamp: number } }>(EVENT_KIND, 0, 1);
    expect(oldest?.doc.event.timestamp).toBeGreaterThan(1_000);
  });

  test('a range is [from, to): the events at from included, at to left out', () => {
    const page = log.range(40_000, 40_050, () => true).read(0, 100);
    expect(page.map((r) => r.item.doc.event.timestamp)).toEqual([40_000, 40_010, 40_020, 40_030, 40_040]);
  });

  test('a page reads a few rows, not every event: bisection to its start, then only up to its end', () => {
    let rows = 0;
    const counting = new Proxy(store, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== 'list' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
        return (...args: Parameters<Store['list']>) => {
          const out = target.list(...args);
          rows += out.length;
          return out;
        };
      },
    });
    const page = new EventLog(counting, 3_000).range(45_000, 46_000, (r) => r.event.eventName === 'createGroup').read(0, 21);
    expect(page.length).toBe(21);
    expect(page.every((r) => r.item.doc.event.timestamp >= 45_000 && r.item.doc.event.timestamp < 46_000)).toBe(true);
    expect(rows).toBeLessThan(300);
  });

  test('by request id', () => {
    expect(log.byRequest('request-45000')?.event.eventName).toBe('createGroup');
    expect(log.byRequest('request-1')).toBeUndefined();
  });
});

describe('secrets', () => {
  let em: Emulator;
  beforeAll(async () => {
    em = new Emulator({ dataDir: join(dir, 'emulator'), timeScale: 1, requestLog: false });
    await em.start();
    await bootstrap(em, { HOME: dir });
  });
  afterAll(async () => em.stop());

  test('a secret field nested in a request (a database password in a workspace config) is in no event, served or refused', () => {
    const password = 'n3sted-Secret-Value';
    try {
      em.call('ml', 'createWorkspace', {
        workspaceName: 'secret-ws',
        environmentName: 'sales-env',
        existingDatabaseConfig: { existingDatabaseHost: 'db.example.com', existingDatabaseUser: 'ml', existingDatabasePassword: password },
      });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
    em.call('iam', 'setWorkloadPassword', { password });
    const events = em.call('audit', 'listEvents', {
      fromTimestamp: '1970-01-01T00:00:00Z',
      toTimestamp: '2999-01-01T00:00:00Z',
      pageSize: 50,
    });
    const text = JSON.stringify(events);
    expect(text).toContain('existingDatabaseHost');
    expect(text).toContain('setWorkloadPassword');
    expect(text).not.toContain(password);
  });
});
