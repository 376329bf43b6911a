/**
 * A reader that goes away early (`| head -1`) ends cdpctl quietly with exit
 * 0 in every output format, after a --wait spinner on a terminal and with
 * --wait's progress lines on a pipe: never node's "Unhandled 'error' event …
 * write EPIPE" and its stack trace.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { BIN, baseEnv } from '../helpers/cli.js';
import { plain, ptyAvailable, spawnPty } from '../helpers/pty.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/recording-server.js';
import { opsHome, WAIT_FOR_WORKSPACE } from './helpers.js';

const describePty = ptyAvailable() ? describe : describe.skip;

let server: ScriptedServer;
const home = opsHome('cdpctl-pipes-');
const env = baseEnv(home);

const GROUPS = Array.from({ length: 20_000 }, (_, i) => ({
  groupName: `group-${i}`,
  crn: `crn:altus:iam:us-west-1:acc:group:group-${i}/0f7e5b8a-${String(i).padStart(4, '0')}`,
  creationDate: '2026-01-01T00:00:00Z',
}));
/** A workspace whose description runs to a few hundred KiB: more than a pipe holds. */
const BIG_WORKSPACE = {
  instanceName: 'ds',
  instanceStatus: 'installation:finished',
  tags: Array.from({ length: 8000 }, (_, i) => ({ key: `k${i}`, value: 'v'.repeat(40) })),
};

beforeAll(async () => {
  server = await startScriptedServer();
});
beforeEach(() =>
  server.play({
    listGroups: [{ body: { groups: GROUPS } }],
    describeWorkspace: [
      { body: { workspace: { instanceName: 'ds', instanceStatus: 'provision:started' } } },
      { body: { workspace: BIG_WORKSPACE } },
    ],
  }),
);
afterAll(async () => server.close());

const cdpctl = (args: readonly string[]): string =>
  [process.execPath, BIN, ...args, '--profile', 'ops', '--endpoint-url', server.localUrl]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ');

/** Runs a bash pipeline; its output and cdpctl's exit status (PIPESTATUS[0]). */
function pipeline(line: string): Promise<{ out: string; status: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `${line}; echo "status=\${PIPESTATUS[0]}"`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', () => {
      const m = /status=(\d+)\s*$/.exec(out);
      resolve({ out: out.replace(/status=\d+\s*$/, ''), status: m ? Number(m[1]) : -1 });
    });
  });
}

describe('| head -1', () => {
  test.each(['text', 'json', 'table', 'tsv', 'yaml', 'jsonl'])(
    '--output %s over 20,000 groups: exit 0, one line, no stack trace',
    async (format) => {
      const r = await pipeline(`${cdpctl(['iam', 'list-groups', '--output', format])} | head -1`);
      expect(r.out).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
      expect(r.out.trim().split('\n')).toHaveLength(1);
      expect(r.status).toBe(0);
    },
  );

  test("--wait's progress lines and the result into a closed pipe: exit 0", async () => {
    const r = await pipeline(`${cdpctl(WAIT_FOR_WORKSPACE)} 2>&1 | head -1`);
    expect(r.out).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(r.status).toBe(0);
  });
});

describePty('after a spinner on a terminal', () => {
  test('the result into a closed pipe ends quietly: exit 0, the spinner closed', async () => {
    const s = spawnPty(['bash', '-c', `${cdpctl(WAIT_FOR_WORKSPACE)} | head -1; echo "status=\${PIPESTATUS[0]}"`], {
      env: { ...env, CI: undefined },
    });
    expect(await s.exit()).toBe(0);
    const shown = plain(s.output());
    expect(shown).toMatch(/✓ ml workspaces create ds: installation:finished/);
    expect(shown).not.toMatch(/EPIPE|Unhandled|\n\s+at /);
    expect(shown).toMatch(/status=0/);
  });
});
