/**
 * A sample of bad input through the real binary (bin/run.js), pointed at a
 * loopback server that records every connection: each run ends with exit 2
 * and a one-line `INVALID_INPUT: ...` naming the flag or field, no stack
 * trace, and nothing reaches the server. Typos of flags get a suggestion.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run, type RunResult } from '../helpers/cli.js';
import { loadAllServices, type Operation } from '../../src/lib/model/index.js';
import { defectArb, noiseArb, type Doc } from './fuzz.js';
import { recordingServer } from './helpers.js';

let server: Awaited<ReturnType<typeof recordingServer>>;
let home = '';
let env: Record<string, string> = {};
let tried = 0;

beforeAll(async () => {
  server = await recordingServer();
  home = mkdtempSync(join(tmpdir(), 'cdpctl-rel-bin-'));
  const pkcs8 = generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' });
  env = { CDP_ACCESS_KEY_ID: 'rel-access-key', CDP_PRIVATE_KEY: pkcs8.subarray(pkcs8.length - 32).toString('base64') };
});

afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
  console.log(`reliability: CLI binary: ${tried} bad invocations, ${server.connections} connections reached the server`);
});

function cdpctl(args: readonly string[]): Promise<RunResult> {
  tried++;
  return run([...args, '--endpoint-url', `http://127.0.0.1:${server.port}/`], { home, env, timeoutMs: 30_000 });
}

function expectRejected(r: RunResult, args: readonly string[], names: RegExp): void {
  const first = r.stderr.split('\n')[0] ?? '';
  expect({ args: args.join(' '), code: r.code, first }).toEqual({
    args: args.join(' '),
    code: 2,
    first: expect.stringMatching(/^INVALID_INPUT: /),
  });
  expect(first).toMatch(names);
  expect(r.stderr).not.toMatch(/\n\s+at |Error: |node:internal/);
  expect(r.stdout).toBe('');
}

describe('bad input through bin/run.js sends nothing', () => {
  test('hand-picked cases', async () => {
    const bad = join(home, 'bad-utf8.json');
    writeFileSync(bad, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
    const deep = join(home, 'deep.json');
    writeFileSync(deep, `{"groupName": ${'['.repeat(50_000)}${']'.repeat(50_000)}}`);
    const cases: Array<[string[], RegExp]> = [
      [
        [
          'iam',
          'users',
          'create',
          '--identity-provider-user-id',
          'x',
          '--email',
          'e',
          '--first-name',
          'f',
          '--last-name',
          'l',
          '--groups',
          // One word starting with [ is JSON (as cdp reads it: `a,[b` would be one group named so).
          '[b',
        ],
        /--groups/,
      ],
      [['iam', 'users', 'create', '--email', 'e'], /--identity-provider-user-id|"identityProviderUserId"/],
      [['iam', 'machine-users', 'create', '--machine-user-name', '__bad'], /--machine-user-name/],
      [['iam', 'access-keys', 'create', '--type', 'V9'], /--type/],
      [['iam', 'users', 'list', '--max-items', 'abc'], /--max-items/],
      [['iam', 'users', 'list', '--page-size', '0'], /--page-size/],
      [['iam', 'users', 'list', '--cli-read-timeout', 'soon'], /--cli-read-timeout/],
      [['iam', 'users', 'list', '--output', 'jsn'], /--output/],
      [['iam', 'groups', 'create', '--input', bad], /--input/],
      [['iam', 'groups', 'create', '--input', deep], /--group-name/],
      [['iam', 'groups', 'create', '--input', '{"groupName": 5}'], /--group-name/],
      [
        ['iam', 'groups', 'create', '--input', '{"groupName": "x", "groupNam": "y"}'],
        /unknown field "groupNam" in the input \(did you mean "groupName"\?\); must be one of: groupName, syncMembershipOnUserLogin/,
      ],
      [['iam', 'users', 'list', '--max-items', 'line1\nline2\u001b[31m'], /--max-items must be an integer.*line1\\u000aline2\\u001b/],
      [['iam', 'groups', 'create', '--group-name', 'x', '--sync-membership-on-user-login=maybe'], /Unexpected argument: maybe/],
      [['iam', 'groups', 'create', '--grop-name', 'x'], /Nonexistent flag: --grop-name \(did you mean "--group-name"\?\)/],
      [['iam', 'groups', 'create', '--group-name', 'x', '--outptu', 'json'], /did you mean "--output"/],
      [['api', 'iam', 'createGroup', '--input', '{"groupNme": "x"}'], /did you mean "groupName"/],
      [['api', 'iam', 'createGrop'], /did you mean "createGroup"/],
    ];
    const results = await Promise.all(cases.map(([args]) => cdpctl(args)));
    results.forEach((r, i) => {
      const [args, names] = cases[i] ?? [[], /./];
      expectRejected(r, args, names);
    });
    // --output json: the error is one JSON line.
    const j = await cdpctl(['iam', 'groups', 'create', '--input', '{"groupName": 5}', '--output', 'json']);
    expect(j.code).toBe(2);
    const lines = j.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect((JSON.parse(lines[0] ?? '{}') as { error: { code: string } }).error.code).toBe('INVALID_INPUT');
    expect(server.connections).toBe(0);
    expect(server.requests).toEqual([]);
  });

  test('a defective --input document for a sample of operations of every service', async () => {
    const services = await loadAllServices();
    const ops: Operation[] = services.flatMap((s) =>
      s
        .operations()
        .filter((_, i) => i % 9 === 0)
        .slice(0, 3),
    );
    const jobs: Array<Promise<void>> = [];
    let n = 0;
    for (const op of ops) {
      const [pair] = fc.sample(fc.tuple(noiseArb(op), defectArb(op)), { numRuns: 1, seed: 99 + n });
      if (!pair) continue;
      const [noise, { defect, value }] = pair;
      const doc: Doc = { ...noise };
      if (defect.kind === 'missing') delete doc[defect.path];
      else doc[defect.field] = value;
      const file = join(home, `doc-${n++}.json`);
      writeFileSync(file, JSON.stringify(doc));
      const args = [...op.commandId.split(' '), '--input', file, '--yes'];
      jobs.push(cdpctl(args).then((r) => expectRejected(r, args, /--[a-z]|"[^"]+"/)));
    }
    await Promise.all(jobs);
    expect(server.connections).toBe(0);
  });
});
