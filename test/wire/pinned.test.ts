/**
 * The same command line sends the same requests as the official CLI. Every
 * operation's examples were run through `cdp` 0.9.158 by scripts/pin-wire.mjs,
 * which pinned the paths and JSON bodies it sent in test/fixtures/wire/. Here
 * bin/run.js gets the same argv against a recording server and must send the
 * same requests, each one signed (aws-cli's per-operation functional tests,
 * with `cdp` itself as the oracle). The lines run in this process (the
 * fast path, as bin/run.js runs it), but for those that read files.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadService } from '../../src/lib/model/index.js';
import { runCli, tempHome } from '../helpers/cli.js';
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js';
import { PINNED_ENV, asPinned, authProblem, cannedReply, fixtures, type Fixture } from '../helpers/wire-fixtures.js';

/**
 * Examples where cdpctl is known to send something else than `cdp`, with why.
 * Each must still differ (a fix must take it off this list).
 */
const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {};

const WORKERS = 4;
/** One recording server per concurrent run: workload calls go to an origin (cdp drops any base path), so runs cannot share one. */
const servers: Array<{ server: RecordingServer; fixture?: Fixture }> = [];

beforeAll(async () => {
  for (let i = 0; i < WORKERS; i++) {
    const slot: { server?: RecordingServer; fixture?: Fixture } = {};
    slot.server = await startRecordingServer((req) =>
      slot.fixture && slot.server ? cannedReply(slot.fixture, slot.server.localUrl, req.path) : undefined,
    );
    servers.push(slot as { server: RecordingServer; fixture?: Fixture });
  }
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.server.close()));
});

/** Whether a problem line belongs to an example of the named `service operation`. */
function differingEntry(fixture: Fixture, known: string, problem: string): boolean {
  const op = known.split(' ')[1];
  return fixture.entries.some((e) => e.operation === op && problem.startsWith(`${e.argv.join(' ')}:`));
}

/** Runs fn over items with `size` workers; each call gets its worker's number. */
async function pool<T>(items: readonly T[], size: number, fn: (item: T, worker: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async (_, worker) => {
      while (next < items.length) await fn(items[next++] as T, worker);
    }),
  );
}

describe('requests match the official CLI for the same command line', () => {
  it('has pinned examples', () => {
    expect(fixtures.length).toBeGreaterThan(0);
  });

  for (const fixture of fixtures) {
    it(`${fixture.service}: every pinned example`, async () => {
      const svc = await loadService(fixture.service);
      const problems: string[] = [];
      const differing = new Set<string>();
      const entries = fixture.entries.filter((e) => e.cdpExit === undefined);
      await pool(entries, WORKERS, async (entry, worker) => {
        const home = tempHome('cdpctl-wire-');
        const slot = servers[worker] as (typeof servers)[number];
        try {
          for (const [path, content] of Object.entries(entry.files ?? {})) {
            const full = join(home, path.replace(/^~\//, ''));
            mkdirSync(dirname(full), { recursive: true });
            writeFileSync(full, content);
          }
          slot.server.requests.length = 0;
          // localhost, as the examples were pinned: a numeric address is a private cloud to both CLIs.
          slot.fixture = fixture;
          const [, alias, ...flags] = entry.argv;
          // Private-cloud-only services and operations were pinned with --form-factor private in their argv.
          // Examples that name files read them from where they were pinned: a process in that directory.
          const r = await runCli([svc.topic, alias ?? '', ...flags, '--endpoint-url', slot.server.localUrl], {
            home,
            ...(entry.files ? { cwd: home } : {}),
            env: PINNED_ENV,
          });
          const sent = [...slot.server.requests];
          const who = `${entry.argv.join(' ')}`;
          const before = problems.length;
          if (r.code !== 0) problems.push(`${who}: exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
          const got = sent.map((q) => asPinned(q.method, q.path, String(q.headers['content-type'] ?? ''), q.body));
          if (JSON.stringify(got) !== JSON.stringify(entry.requests)) {
            try {
              expect(got).toEqual(entry.requests);
            } catch (err) {
              problems.push(`${who}: ${(err as Error).message.split('\n').slice(0, 12).join('\n')}`);
            }
          }
          for (const q of sent) {
            const p = authProblem(q.headers, q.path, entry, fixture);
            if (p) problems.push(`${who}: ${q.path}: ${p}`);
          }
          if (problems.length > before) differing.add(`${fixture.service} ${entry.operation}`);
        } finally {
          rmSync(home, { recursive: true, force: true });
        }
      });
      const known = Object.keys(KNOWN_DIFFERENCES).filter((k) => k.startsWith(`${fixture.service} `));
      expect(known.filter((k) => !differing.has(k)).map((k) => `${k} now matches cdp: take it off KNOWN_DIFFERENCES`)).toEqual([]);
      expect(problems.filter((p) => !known.some((k) => differingEntry(fixture, k, p)))).toEqual([]);
    }, 600_000);
  }
});
