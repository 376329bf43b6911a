/**
 * The same command line sends the same requests as the official CLI. Every
 * operation's examples were run through `cdp` 0.9.158 by scripts/pin-wire.mjs,
 * which pinned the paths and JSON bodies it sent in test/fixtures/wire/. Here
 * bin/run.js gets the same argv against a recording server and must send the
 * same requests, each one signed (aws-cli's per-operation functional tests,
 * with `cdp` itself as the oracle).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPublicKey, verify } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { canonicalString, fromB64url } from '../../src/lib/core/signing.js';
import { issueKey } from '../../src/lib/emulator/keys.js';
import { loadService } from '../../src/lib/model/index.js';
import { ROOT, run, tempHome } from '../helpers/cli.js';
import { startRecordingServer, type Recorded, type RecordingServer } from '../helpers/recording-server.js';

interface PinnedRequest {
  readonly method: string;
  readonly path: string;
  readonly contentType?: string;
  readonly body?: unknown;
  readonly bytes?: number;
}

interface Entry {
  readonly operation: string;
  readonly argv: readonly string[];
  readonly files?: Readonly<Record<string, string>>;
  readonly requests: readonly PinnedRequest[];
  /** cdp refused the example (e.g. a form-factor-only argument): nothing to compare. */
  readonly cdpExit?: number;
}

interface Fixture {
  readonly service: string;
  /**
   * Canned answers by path (e.g. the workload token exchange), `$BASE` standing for the server's URL;
   * `{"__status", "__headers", "__body"}` answers with another status (a redirect).
   */
  readonly replies?: Readonly<Record<string, unknown>>;
  /** cdp was pinned with a patch (scripts/pin-wire-cdp), and why. */
  readonly cdpPatch?: string;
  readonly entries: readonly Entry[];
}

const DIR = join(ROOT, 'test/fixtures/wire');
const fixtures: Fixture[] = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Fixture);

/**
 * Examples where cdpctl is known to send something else than `cdp`, with why.
 * Each must still differ (a fix must take it off this list).
 */
const KNOWN_DIFFERENCES: Readonly<Record<string, string>> = {};

const key = issueKey('V2');
const publicKey = createPublicKey(key.publicKey);
const WORKERS = 4;
/** One recording server per concurrent run: workload calls go to an origin (cdp drops any base path), so runs cannot share one. */
const servers: Array<{ server: RecordingServer; replies: Readonly<Record<string, unknown>> }> = [];

beforeAll(async () => {
  for (let i = 0; i < WORKERS; i++) {
    const slot: { server?: RecordingServer; replies: Readonly<Record<string, unknown>> } = { replies: {} };
    slot.server = await startRecordingServer((req) => {
      const reply = slot.replies[req.path.split('?')[0] ?? ''];
      if (reply === undefined) return undefined;
      const special = reply as { __status?: number; __headers?: Record<string, string>; __body?: unknown };
      return special.__status ? { status: special.__status, headers: special.__headers, body: special.__body ?? {} } : { body: reply };
    });
    servers.push(slot as { server: RecordingServer; replies: Readonly<Record<string, unknown>> });
  }
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.server.close()));
});

/** A fixture's canned replies for one server: `$BASE` stands for its URL. */
function repliesFor(fixture: Fixture, base: string): Record<string, unknown> {
  return JSON.parse(JSON.stringify(fixture.replies ?? {}).replaceAll('$BASE', base)) as Record<string, unknown>;
}

/** What a recorded request must equal, in the fixture's terms. */
function asPinned(req: Recorded): PinnedRequest {
  const type = String(req.headers['content-type'] ?? '');
  return {
    method: req.method,
    path: req.path,
    ...(type ? { contentType: type } : {}),
    ...(type.startsWith('application/json')
      ? { body: req.body ? (JSON.parse(req.body) as unknown) : undefined }
      : { bytes: Buffer.byteLength(req.body) }),
  };
}

/** Problems with one signature, or undefined when it verifies as the control plane would. */
function signatureProblem(req: Recorded): string | undefined {
  const auth = String(req.headers['x-altus-auth'] ?? '');
  const [head, sig] = auth.split('.');
  if (!head || !sig) return 'no x-altus-auth';
  const meta = JSON.parse(fromB64url(head).toString('utf8')) as { access_key_id?: string; auth_method?: string };
  if (meta.access_key_id !== 'pinned-key') return `signed by ${meta.access_key_id}`;
  // The signed path leaves the query out (a redirect's upload URL carries one).
  const signed = canonicalString(
    'POST',
    String(req.headers['content-type'] ?? ''),
    String(req.headers['x-altus-date']),
    req.path.split('?')[0] ?? '',
    'ed25519v1',
  );
  return verify(null, Buffer.from(signed), publicKey, fromB64url(sig)) ? undefined : 'signature does not verify';
}

/**
 * Workload calls carry the token given with --access-token, else the one the
 * canned token exchange issued, prefixed with `Bearer ` once.
 */
function bearerProblem(req: Recorded, entry: Entry, fixture: Fixture): string | undefined {
  const given = entry.argv.indexOf('--access-token');
  const exchanged = (fixture.replies?.['/iam/generateWorkloadAuthToken'] as { token?: string } | undefined)?.token;
  const token = given >= 0 ? entry.argv[given + 1] : exchanged;
  return req.headers.authorization === `Bearer ${token}` ? undefined : `authorization is ${req.headers.authorization}`;
}

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
          slot.replies = repliesFor(fixture, slot.server.localUrl);
          const [, alias, ...flags] = entry.argv;
          // Private-cloud-only services and operations were pinned with --form-factor private in their argv.
          const r = await run([svc.topic, alias ?? '', ...flags, '--endpoint-url', slot.server.localUrl], {
            home,
            cwd: home,
            env: { CDP_ACCESS_KEY_ID: 'pinned-key', CDP_PRIVATE_KEY: key.privateKey },
          });
          const sent = [...slot.server.requests];
          const who = `${entry.argv.join(' ')}`;
          const before = problems.length;
          if (r.code !== 0) problems.push(`${who}: exit ${r.code}: ${r.stderr.trim().split('\n')[0]}`);
          const got = sent.map((q) => asPinned(q));
          if (JSON.stringify(got) !== JSON.stringify(entry.requests)) {
            try {
              expect(got).toEqual(entry.requests);
            } catch (err) {
              problems.push(`${who}: ${(err as Error).message.split('\n').slice(0, 12).join('\n')}`);
            }
          }
          for (const q of sent) {
            const p = q.headers.authorization ? bearerProblem(q, entry, fixture) : signatureProblem(q);
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
