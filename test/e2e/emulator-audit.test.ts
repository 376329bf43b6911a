/**
 * The audit service against the emulator, through the binary: every
 * mutating call (served or refused, of any service) becomes an event, found
 * by time range (start included, end excluded), source, name, actor,
 * request id and result, paged, never with a secret; reads make none.
 * Archiving: batches for the caller to archive (list their events, mark
 * them archived, after which they are gone from the batch listings), and
 * automated archive runs to a configured storage, whose tasks and runs move
 * on the emulator clock (`--wait`), and fail to a `fail-` location. Bad
 * input and refusals write nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, tempHome, type RunResult, type TestEmulator } from '../helpers/cli.js';

interface AuditEvent {
  id: string;
  eventSource: string;
  eventName: string;
  timestamp: number;
  actorIdentity: { actorCrn: string };
  accountId: string;
  requestId: string;
  resultCode: string;
  resultMessage?: string;
  apiRequestEvent: { requestParameters: string; mutating: boolean; sourceIPAddress?: string; userAgent?: string };
}
interface Batch {
  archiveId: string;
  eventCount: number;
  archiveTimestamp: number;
}

const SEEDED = 25;
const PASSWORD = 'Aud1t-never-shows-this!';
let em: TestEmulator;
let t0: number;
let t1: number;
let adminCrn: string;

const iso = (ms: number): string => new Date(ms).toISOString();
const range = (from: number, to: number): string[] => ['--from-timestamp', iso(from), '--to-timestamp', iso(to)];
const DAY = 24 * 3600_000;

async function clock(...flags: string[]): Promise<number> {
  const r = await em.raw(['emulator', 'clock', ...flags, '--data-dir', em.dataDir, '--output', 'json']);
  if (r.code !== 0) throw new Error(r.stderr);
  return (JSON.parse(r.stdout) as { nowMs: number }).nowMs;
}

const events = async (...args: string[]): Promise<AuditEvent[]> =>
  (await em.json<{ auditEvents?: AuditEvent[] }>(['audit', 'events', 'list', ...args])).auditEvents ?? [];

const refused = (r: RunResult, code: string): void => {
  expect([r.code, r.stderr]).toEqual([1, expect.stringContaining(code)]);
};

beforeAll(async () => {
  // A seed's items are calls too: SEEDED groups made at start, as the admin.
  const home = tempHome();
  const seed = join(home, 'seed.yaml');
  writeFileSync(seed, Array.from({ length: SEEDED }, (_, i) => `- iam createGroup: {groupName: seeded-${i}}`).join('\n'));
  em = await startEmulator({ home, extra: ['--seed', seed] });
  adminCrn = (await em.json<{ user: { crn: string } }>(['iam', 'users', 'get'])).user.crn;
  t0 = await clock('--pause');
  await em.json(['iam', 'users', 'create', '--identity-provider-user-id', 'jdoe', '--email', 'jdoe@example.com']);
  await em.json(['iam', 'groups', 'create', '--group-name', 'auditors']);
  refused(await em.cli(['iam', 'groups', 'create', '--group-name', 'auditors']), 'ALREADY_EXISTS');
  await em.json(['iam', 'groups', 'list']);
  t1 = await clock('--advance', '1h');
  await em.json(['iam', 'groups', 'create', '--group-name', 'later-group']);
});

afterAll(async () => {
  await em?.stop();
});

describe('events', () => {
  test('each mutating call in [from, to) is an event, served or refused; reads are not; the end is excluded', async () => {
    const got = await events(...range(t0, t1));
    expect(got.map((e) => [e.eventSource, e.eventName, e.resultCode])).toEqual([
      ['iam', 'createUser', 'SUCCESS'],
      ['iam', 'createGroup', 'SUCCESS'],
      ['iam', 'createGroup', 'ALREADY_EXISTS'],
    ]);
    for (const e of got) {
      expect(e.actorIdentity.actorCrn).toBe(adminCrn);
      expect(e.timestamp).toBe(t0);
      expect(e.apiRequestEvent).toMatchObject({ mutating: true, userAgent: expect.stringMatching(/^cdpctl\//) });
    }
    expect(JSON.parse(got[1]?.apiRequestEvent.requestParameters ?? '')).toEqual({ groupName: 'auditors' });
    expect(got[2]?.resultMessage).toContain('auditors');
    const later = await events(...range(t1, t1 + 1000));
    expect(later.map((e) => JSON.parse(e.apiRequestEvent.requestParameters) as unknown)).toEqual([{ groupName: 'later-group' }]);
  });

  test('found by request id, event name, result and source; a refused call by the request id the CLI showed', async () => {
    const r = await em.cli(['iam', 'groups', 'create', '--group-name', 'later-group']);
    const requestId = /Request ID: ([\w-]+)/.exec(r.stderr)?.[1] ?? 'missing';
    const byRequest = await events(...range(t0, t1 + DAY), '--request-id', requestId);
    expect(byRequest.map((e) => [e.requestId, e.resultCode])).toEqual([[requestId, 'ALREADY_EXISTS']]);
    expect((await events(...range(t0, t1), '--event-name', 'createUser')).map((e) => e.eventName)).toEqual(['createUser']);
    expect((await events(...range(t0, t1), '--result-code', 'SUCCESS')).length).toBe(2);
    expect((await events(...range(t0, t1 + DAY), '--result-message', 'a group named later-group already exists')).length).toBe(1);
    expect((await events(...range(t0, t1), '--event-source', 'iam')).length).toBe(3);
    expect(await events(...range(t0, t1), '--event-source', 'datalake')).toEqual([]);
  });

  test('found by actor: a machine user signing with its own key, refused (it has no role), is audited as itself', async () => {
    const mu = await em.json<{ machineUser: { crn: string } }>(['iam', 'machine-users', 'create', '--machine-user-name', 'audit-bot']);
    const key = await em.json<{ accessKey: { accessKeyId: string }; privateKey: string }>([
      'iam',
      'access-keys',
      'create-for-machine-user',
      '--machine-user-name',
      'audit-bot',
    ]);
    const asBot = await em.raw(['iam', 'groups', 'create', '--group-name', 'bot-group', '--endpoint-url', `http://localhost:${em.port}/`], {
      env: { CDP_ACCESS_KEY_ID: key.accessKey.accessKeyId, CDP_PRIVATE_KEY: key.privateKey },
    });
    expect([asBot.code, asBot.stderr]).toEqual([3, expect.stringContaining('PERMISSION_DENIED')]);
    const byBot = await events(...range(t0, t1 + DAY), '--actor-crn', mu.machineUser.crn);
    expect(byBot.map((e) => [e.eventName, e.resultCode, JSON.parse(e.apiRequestEvent.requestParameters) as unknown])).toEqual([
      ['createGroup', 'PERMISSION_DENIED', { groupName: 'bot-group' }],
    ]);
    const byAdmin = await events(...range(t0, t1 + DAY), '--actor-crn', adminCrn);
    expect(byAdmin.length).toBeGreaterThan(3);
    expect(byAdmin.every((e) => e.actorIdentity.actorCrn === adminCrn)).toBe(true);
    const ip = byBot[0]?.apiRequestEvent.sourceIPAddress ?? 'missing';
    const fromIp = await events(...range(t0, t1 + DAY), '--api-request-event-criteria', `sourceIPAddress=${ip}`);
    expect(fromIp.length).toBe(byAdmin.length + 1);
    expect(await events(...range(t0, t1 + DAY), '--api-request-event-criteria', 'sourceIPAddress=10.9.8.7')).toEqual([]);
  });

  test('a secret the request carried is never in an event', async () => {
    await em.cli(['iam', 'workload-passwords', 'set', '--password', PASSWORD]);
    const r = await em.cli(['audit', 'events', 'list', ...range(t1, t1 + DAY), '--event-name', 'setWorkloadPassword', '--output', 'json']);
    expect(r.code).toBe(0);
    const [e] = (JSON.parse(r.stdout) as { auditEvents: AuditEvent[] }).auditEvents;
    expect(e?.eventName).toBe('setWorkloadPassword');
    expect(r.stdout).not.toContain(PASSWORD);
  });

  test('pages: 20 a page and a token for the rest, or all of them in pages of 50', async () => {
    const seededRange = range(t0 - DAY, t0);
    const first = await em.cli([
      'audit',
      'events',
      'list',
      ...seededRange,
      '--event-name',
      'createGroup',
      '--max-items',
      '20',
      '--output',
      'json',
    ]);
    expect(first.code).toBe(0);
    const page = JSON.parse(first.stdout) as { auditEvents: AuditEvent[]; nextPageToken: string };
    expect(page.auditEvents.length).toBe(20);
    const rest = await events(...seededRange, '--event-name', 'createGroup', '--starting-token', page.nextPageToken);
    const names = [...page.auditEvents, ...rest].map(
      (e) => (JSON.parse(e.apiRequestEvent.requestParameters) as { groupName: string }).groupName,
    );
    expect(names).toEqual(Array.from({ length: SEEDED }, (_, i) => `seeded-${i}`));
    const all = await events('--from-timestamp', '1970-01-01T00:00:00Z', '--to-timestamp', '2999-01-01T00:00:00Z', '--page-size', '50');
    expect(all.length).toBeGreaterThan(SEEDED + 6);
  });

  test('bad input: an inverted range is INVALID_ARGUMENT; a page size under 20 and a missing range are refused before sending', async () => {
    refused(await em.cli(['audit', 'events', 'list', ...range(t1, t0)]), 'INVALID_ARGUMENT');
    const small = await em.cli(['audit', 'events', 'list', ...range(t0, t1), '--page-size', '5']);
    expect(small.code).toBe(2);
    const none = await em.cli(['audit', 'events', 'list', '--from-timestamp', iso(t0)]);
    expect([none.code, none.stderr]).toEqual([2, expect.stringContaining('--to-timestamp')]);
  });
});

describe('archiving', () => {
  test('batches for the caller: made on the clock, listed, their events listed, marked archived, then gone; events are batched once', async () => {
    await clock('--resume');
    const created = await em.cli(['audit', 'archive-batches', 'create', ...range(t0, t1), '--wait', '--poll-interval', '0.2']);
    expect([created.code, created.stderr]).toEqual([0, expect.stringContaining('COMPLETED')]);
    const status = JSON.parse(created.stdout) as { status: string; eventBatches: Batch[] };
    expect(status.status).toBe('COMPLETED');
    expect(status.eventBatches.map((b) => b.eventCount)).toEqual([3]);
    const batch = status.eventBatches[0] as Batch;
    const outstanding = await em.json<{ eventBatches: Batch[] }>(['audit', 'archive-batches', 'list']);
    expect(outstanding.eventBatches.map((b) => b.archiveId)).toContain(batch.archiveId);
    const inBatch = await em.json<{ auditEvents: AuditEvent[] }>([
      'audit',
      'archive-batches',
      'list-events',
      '--archive-id',
      batch.archiveId,
    ]);
    expect(inBatch.auditEvents.map((e) => e.id)).toEqual((await events(...range(t0, t1))).map((e) => e.id));

    const marked = await em.json<{ archiveIds: string[]; archiveTimestamp: string }>([
      'audit',
      'archive-batches',
      'mark-archived',
      '--archive-ids',
      batch.archiveId,
      '--yes',
    ]);
    expect(marked.archiveIds).toEqual([batch.archiveId]);
    refused(await em.cli(['audit', 'archive-batches', 'list-events', '--archive-id', batch.archiveId]), 'FAILED_PRECONDITION');
    const after = await em.json<{ eventBatches?: Batch[] }>(['audit', 'archive-batches', 'list']);
    expect((after.eventBatches ?? []).map((b) => b.archiveId)).not.toContain(batch.archiveId);

    const again = await em.json<{ taskId: string }>(['audit', 'archive-batches', 'create', ...range(t0, t1)]);
    await clock('--advance', '5m');
    const done = await em.json<{ status: string; eventBatches?: Batch[] }>([
      'audit',
      'archive-batches',
      'status',
      '--task-id',
      again.taskId,
    ]);
    expect([done.status, done.eventBatches ?? []]).toEqual(['COMPLETED', []]);
  });

  test('batch refusals: an unknown batch or task is NOT_FOUND; marking is all or nothing', async () => {
    refused(await em.cli(['audit', 'archive-batches', 'list-events', '--archive-id', 'no-such-batch']), 'NOT_FOUND');
    refused(await em.cli(['audit', 'archive-runs', 'status', '--task-id', 'no-such-task']), 'NOT_FOUND');
    const task = await em.json<{ taskId: string }>(['audit', 'archive-batches', 'create', ...range(t1, t1 + 30 * DAY)]);
    await clock('--advance', '10m');
    const [batch] = (await em.json<{ eventBatches: Batch[] }>(['audit', 'archive-batches', 'status', '--task-id', task.taskId]))
      .eventBatches;
    const id = batch?.archiveId ?? 'missing';
    refused(await em.cli(['audit', 'archive-batches', 'mark-archived', '--archive-ids', id, 'no-such-batch', '--yes']), 'NOT_FOUND');
    const still = await em.json<{ eventBatches: Batch[] }>(['audit', 'archive-batches', 'list']);
    expect(still.eventBatches.map((b) => b.archiveId)).toContain(id);
  });

  test('automated archiving: a configuration checked before it is kept; runs archive what is not archived yet; batching is off meanwhile', async () => {
    refused(
      await em.cli([
        'audit',
        'archiving',
        'configure',
        '--storage-location',
        'audit-bucket',
        '--credential-name',
        'nobody-credential',
        '--enabled',
      ]),
      'NOT_FOUND',
    );
    const verify = ['--storage-location', 'fail-bucket', '--credential-name', 'sales-env-credential', '--enabled', '--verify-only'];
    refused(await em.cli(['audit', 'archiving', 'configure', ...verify]), 'FAILED_PRECONDITION');
    // A configuration only verified answers the one kept, and keeps nothing.
    const verified = ['--storage-location', 'audit-bucket', '--credential-name', 'sales-env-credential', '--enabled', '--verify-only'];
    expect(await em.json(['audit', 'archiving', 'configure', ...verified])).toEqual({ configuration: { enabled: false } });
    refused(await em.cli(['audit', 'archive-runs', 'start', ...range(t0, t1 + DAY)]), 'FAILED_PRECONDITION');
    expect(await em.json(['audit', 'archiving', 'describe'])).toEqual({ configuration: { enabled: false } });

    const config = { storageLocation: 'audit-bucket', credentialName: 'sales-env-credential', enabled: true, storageRegion: 'us-west-2' };
    const configured = await em.json([
      'audit',
      'archiving',
      'configure',
      '--storage-location',
      'audit-bucket',
      '--credential-name',
      'sales-env-credential',
      '--enabled',
      '--storage-region',
      'us-west-2',
    ]);
    expect(configured).toEqual({ configuration: config });
    expect(await em.json(['audit', 'archiving', 'describe'])).toEqual({ configuration: config });
    refused(await em.cli(['audit', 'archive-batches', 'create', ...range(t0, t1)]), 'FAILED_PRECONDITION');

    const run = await em.cli(['audit', 'archive-runs', 'start', ...range(t0, Date.now() + 30 * DAY), '--wait', '--poll-interval', '0.2']);
    expect(run.code).toBe(0);
    const status = JSON.parse(run.stdout) as { status: string; eventCount: number; eventBatches: Batch[] };
    // The events batched for the caller above are not archived again.
    expect(status.status).toBe('COMPLETED');
    expect(status.eventCount).toBeGreaterThan(0);
    const runs = await em.json<{ archiveRuns: Array<{ archiveId: string; status: string; summary: string }> }>([
      'audit',
      'archive-runs',
      'list',
    ]);
    expect(runs.archiveRuns[0]).toMatchObject({ archiveId: status.eventBatches[0]?.archiveId, status: 'SUCCEEDED' });
    expect(runs.archiveRuns[0]?.summary).toContain('audit-bucket');
  });

  test('a run to a fail- storage location fails: --wait exits 5, the run shows FAILED with why', async () => {
    await em.json([
      'audit',
      'archiving',
      'configure',
      '--storage-location',
      'fail-bucket',
      '--credential-name',
      'sales-env-credential',
      '--enabled',
    ]);
    const run = await em.cli(['audit', 'archive-runs', 'start', ...range(t0, Date.now() + 30 * DAY), '--wait', '--poll-interval', '0.2']);
    expect([run.code, run.stderr]).toEqual([5, expect.stringContaining('FAILED')]);
    const runs = await em.json<{ archiveRuns: Array<{ status: string; details?: string }> }>([
      'audit',
      'archive-runs',
      'list',
      '--limit',
      '1',
    ]);
    expect(runs.archiveRuns).toEqual([expect.objectContaining({ status: 'FAILED', details: expect.stringContaining('fail-') })]);
  });
});
