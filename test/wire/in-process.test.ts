/**
 * The pinned examples again (see pinned.test.ts), in this process: each
 * command line goes through the fast path as bin/run.js sends it (the same
 * normalising, flag parsing and run), with a run context on a fake transport,
 * so that argv -> exact wire request is checked without spawning node or
 * opening a socket. Lines the fast path leaves to oclif, and examples that
 * need files, are the spawned test's alone.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fastRun, normalizeCommandLine } from '../../src/lib/cli/fast-run.js';
import { ROOT, tempHome } from '../helpers/cli.js';
import { FakeTransport, fakeContext } from '../helpers/fakes.js';
import { PINNED_ENV, asPinned, authProblem, cannedReply, fixtures, type Entry, type Fixture } from '../helpers/wire-fixtures.js';

const BASE = 'http://localhost:48999/';
const home = tempHome('cdpctl-wire-in-process-');
afterAll(() => rmSync(home, { recursive: true, force: true }));

let runs = 0;

/** Runs one pinned example in-process, in a HOME of its own (workload tokens are cached there); undefined when the fast path leaves it to oclif. */
async function runInProcess(fixture: Fixture, entry: Entry) {
  const transport = new FakeTransport((req) => cannedReply(fixture, BASE, req.path));
  const { err } = fakeContext();
  const [, alias, ...flags] = entry.argv;
  const argv = normalizeCommandLine([fixture.service, alias ?? '', ...flags, '--endpoint-url', BASE]);
  const code = await fastRun(argv, {
    root: ROOT,
    deps: {
      env: { HOME: join(home, String(runs++)), ...PINNED_ENV },
      transport: () => transport,
      streams: { out: err, err, stdinIsTTY: false },
    },
  });
  return code === undefined ? undefined : { code, stderr: err.text, sent: transport.sent };
}

describe('argv -> the pinned request, in-process', () => {
  it('a list operation sends exactly its pinned request, signed', async () => {
    const iam = fixtures.find((f) => f.service === 'iam') as Fixture;
    const entry = iam.entries.find((e) => e.operation === 'listUsers' && e.argv.includes('--max-items')) as Entry;
    expect(entry.argv).toEqual(['iam', 'list-users', '--max-items', '10']);
    const ran = await runInProcess(iam, entry);
    expect(ran?.code).toBe(0);
    expect(ran?.sent.map((q) => asPinned(q.method, q.path, q.headers['content-type'] ?? '', JSON.stringify(q.body)))).toEqual([
      { method: 'POST', path: '/iam/listUsers', contentType: 'application/json', body: { pageSize: 10 } },
    ]);
    expect(entry.requests).toEqual([{ method: 'POST', path: '/iam/listUsers', contentType: 'application/json', body: { pageSize: 10 } }]);
    expect(ran?.sent.map((q) => authProblem(q.headers, q.path, entry, iam))).toEqual([undefined]);
  });

  for (const fixture of fixtures) {
    it(`${fixture.service}: every pinned example the fast path runs`, async () => {
      const problems: string[] = [];
      let ran = 0;
      for (const entry of fixture.entries) {
        if (entry.cdpExit !== undefined || entry.files) continue;
        const result = await runInProcess(fixture, entry);
        if (!result) continue;
        ran++;
        const who = entry.argv.join(' ');
        if (result.code !== 0) problems.push(`${who}: exit ${result.code}: ${result.stderr.trim().split('\n')[0]}`);
        const got = result.sent.map((q) =>
          asPinned(q.method, q.path, q.headers['content-type'] ?? '', q.bytes === undefined ? JSON.stringify(q.body) : 'x'.repeat(q.bytes)),
        );
        if (JSON.stringify(got) !== JSON.stringify(entry.requests)) problems.push(`${who}: sent ${JSON.stringify(got)}`);
        for (const q of result.sent) {
          const p = authProblem(q.headers, q.path, entry, fixture);
          if (p) problems.push(`${who}: ${q.path}: ${p}`);
        }
      }
      expect(problems).toEqual([]);
      // Most examples are plain enough for the fast path.
      expect(ran).toBeGreaterThan(0);
    });
  }
});
