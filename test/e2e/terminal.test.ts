/**
 * What a person at a terminal sees, driven through a pseudo-terminal: the
 * --wait spinner (its clock ticks while the state stands still, it ends
 * with one line saying how the wait ended, before the result and never
 * after it), the hints to check on a wait again (the whole command, with
 * --profile and the global flags given), "did you mean" only when a person
 * is at both ends (never inside $(...)), and --color off reaching error
 * output.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueKey } from '../../src/lib/emulator/keys.js';
import { textWidth } from '../../src/lib/cli/table.js';
import { BIN, baseEnv, run, tempHome } from '../helpers/cli.js';
import { KEYS, plain, ptyAvailable, spawnPty } from '../helpers/pty.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/recording-server.js';

const describePty = ptyAvailable() ? describe : describe.skip;

let server: ScriptedServer;
const key = issueKey('V2');
const home = tempHome('cdpctl-terminal-');
let env: Record<string, string | undefined>;

beforeAll(async () => {
  server = await startScriptedServer();
  env = { ...baseEnv(home), CI: undefined, NO_COLOR: undefined };
  mkdirSync(join(home, '.cdp'), { recursive: true });
  writeFileSync(join(home, '.cdp', 'credentials'), `[ops]\ncdp_access_key_id = ops-key\ncdp_private_key = ${key.privateKey}\n`);
});
beforeEach(() => server.play());
afterAll(async () => server.close());

const ws = (status: string) => ({ body: { workspace: { instanceName: 'ds-bench', instanceStatus: status } } });
const CREATE = [
  'ml',
  'workspaces',
  'create',
  '--environment-name',
  'sales-env',
  '--workspace-name',
  'ds-bench',
  '--provision-k8s-request',
  '{"environmentName":"sales-env","instanceGroups":[{"instanceType":"m5.2xlarge"}]}',
  '--wait',
  '--profile',
  'ops',
];
const cdpctl = (args: readonly string[], columns = 100) =>
  spawnPty([process.execPath, BIN, ...args, '--endpoint-url', server.localUrl], { env, columns });

/** Spinner frames (braille), as drawn on the terminal. */
const FRAME = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

describePty('--wait on a terminal', () => {
  it('the clock ticks while the state stands still; the closing line comes before the result, and no spinner after it', async () => {
    server.play({ '/api/v1/ml/describeWorkspace': [ws('provision:started'), ws('installation:finished')] });
    const s = cdpctl([...CREATE, '--poll-interval', '3']);
    // Two different clock readings for the same state: the line is redrawn between polls.
    await s.expect('provision:started (1s)');
    await s.expect('provision:started (2s)');
    expect(await s.exit()).toBe(0);
    const raw = s.output();
    const shown = plain(raw);
    // The line names the workspace it waits on (the poll's name, not the environment's).
    expect(shown).toMatch(/✓ ml workspaces create ds-bench: installation:finished after \d/);
    const result = raw.indexOf('"instanceStatus"');
    expect(result).toBeGreaterThan(raw.indexOf('✓ ml workspaces create ds-bench'));
    expect(FRAME.test(raw.slice(result))).toBe(false);
  });

  it('a failure reads as a failure', async () => {
    server.play({
      '/api/v1/ml/describeWorkspace': [{ body: { workspace: { instanceStatus: 'installation:failed', failureMessage: 'no capacity' } } }],
    });
    const s = cdpctl([...CREATE, '--poll-interval', '0']);
    expect(await s.exit()).toBe(5);
    const shown = plain(s.output());
    expect(shown).toMatch(/✗ ml workspaces create: failed/);
    expect(shown).not.toMatch(/stopped/);
  });

  it('Ctrl-C stops watching and gives the whole command to check again, with --profile and the endpoint', async () => {
    server.play({ '/api/v1/ml/describeWorkspace': [ws('provision:started')] });
    const s = cdpctl([...CREATE, '--poll-interval', '1']);
    await s.expect('provision:started (');
    s.type(KEYS.ctrlC);
    expect(await s.exit()).toBe(130);
    const shown = plain(s.output());
    expect(shown).toContain('stopped waiting');
    expect(shown).toMatch(
      new RegExp(`Check on it with: \\S+ ml workspaces describe --environment-name sales-env --workspace-name ds-bench .*--profile ops`),
    );
    expect(shown).toContain(`--endpoint-url ${server.localUrl}`);
  });
});

describe('--wait without a terminal', () => {
  it('WAIT_TIMEOUT says how long it really waited and how to check again', async () => {
    server.play({ '/api/v1/ml/describeWorkspace': [ws('provision:started')] });
    const r = await run([...CREATE, '--poll-interval', '0', '--wait-timeout', '0.2', '--endpoint-url', server.localUrl], { home, env });
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/gave up waiting after (\d+ ms|\d+\.\d s)/);
    expect(r.stderr).not.toContain('after 0 s');
    expect(r.stderr).toMatch(/Check on it with: .*ml workspaces describe .*--profile ops/);
    // One line per state, no control characters, off a terminal.
    expect(r.stderr).not.toContain('\u001b');
  });
});

describePty('did you mean', () => {
  it('asks on a terminal, and never inside $(...): there it is a usage error naming the command', async () => {
    const asked = cdpctl(['iam', 'usres', 'list']);
    await asked.expect('Run "iam users list"?');
    asked.type('n');
    expect(await asked.exit()).toBe(2);

    const sub = spawnPty(['sh', '-c', `out=$("${process.execPath}" "${BIN}" iam usres list); echo "exit=$? out=[$out]"`], { env });
    expect(await sub.exit()).toBe(0);
    const shown = plain(sub.output());
    expect(shown).not.toContain('Run "iam users list"?');
    expect(shown).toContain('is not a cdpctl command');
    expect(shown).toContain('exit=2 out=[]');
  });
});

describePty('colour', () => {
  it('errors are red on a terminal, and --color off turns that off too', async () => {
    const red = cdpctl(['iam', 'groups', 'create', '--no-input']);
    expect(await red.exit()).toBe(2);
    expect(red.output()).toContain('\u001b[31mINVALID_INPUT');
    expect(plain(red.output())).toContain('--group-name is required');
    const off = cdpctl(['iam', 'groups', 'create', '--no-input', '--color', 'off']);
    expect(await off.exit()).toBe(2);
    expect(off.output()).toContain('INVALID_INPUT: --group-name is required');
    expect(off.output()).not.toContain('\u001b[31m');
  });
});

describePty('tables on a terminal', () => {
  const crn = 'crn:altus:iam:us-west-1:9d74eee4-1cad-45d7-b645-7ccf9edbb73d:user:4f6c2e1a-8b9d-4c3e-a7f1-2b5d8e9c0a13';
  const user = {
    userId: '4f6c2e1a-8b9d-4c3e-a7f1-2b5d8e9c0a13',
    crn,
    email: 'yamada.hanako@example.co.jp',
    firstName: '花子',
    lastName: '山田',
    accountAdmin: false,
    status: 'ACTIVE',
    creationDate: '2026-11-22T11:13:37.702Z',
  };
  const table = (args: readonly string[], columns: number) =>
    spawnPty([process.execPath, BIN, ...args, '--output', 'table', '--no-pager', '--endpoint-url', server.localUrl, '--profile', 'ops'], {
      env: { ...env, TZ: 'UTC' },
      columns,
    });
  /** The lines of the drawn table, colours taken off. */
  const lines = async (s: ReturnType<typeof table>): Promise<string[]> => {
    expect(await s.exit()).toBe(0);
    return plain(s.output()).split(/\r?\n/);
  };

  const boxed = (shown: readonly string[]): string[] => shown.filter((l) => /^[┌├│└]/.test(l));

  it.each([80, 120])("a list at %i columns: the users' firstName is headed as such, wide names fit", async (columns) => {
    server.play({ '/iam/listUsers': [{ body: { users: [user, { ...user, firstName: 'Jo', lastName: 'Lee' }] } }] });
    const shown = boxed(await lines(table(['iam', 'users', 'list'], columns)));
    const head = shown.find((l) => l.includes('userId')) ?? '';
    expect(head).toMatch(/│ firstName +│ lastName/);
    expect(head).not.toMatch(/│ name /);
    for (const l of shown) expect(textWidth(l)).toBeLessThanOrEqual(columns);
  });

  it.each([80, 120])('a list at %i columns: CRNs break only between their parts, and a time stays with its zone', async (columns) => {
    const group = {
      groupName: 'data-platform-engineers',
      crn: crn.replace(':user:', ':group:'),
      syncMembershipOnUserLogin: true,
      creationDate: user.creationDate,
    };
    server.play({ '/iam/listGroups': [{ body: { groups: [group, { ...group, groupName: 'ops' }] } }] });
    const shown = boxed(await lines(table(['iam', 'groups', 'list'], columns)));
    for (const l of shown) expect(textWidth(l)).toBeLessThanOrEqual(columns);
    const text = shown.join('\n');
    // A CRN line ends after a `:` or `/`, never inside `us-west-1` or an account id.
    expect(text).not.toMatch(/us-west-\s+│/);
    expect(text).toMatch(/crn:altus:iam:/);
    expect(shown.some((l) => /│\s*UTC\s*│/.test(l))).toBe(false);
    // At 80 columns the time makes way for the CRN (the table says so below it); at 120 it is whole.
    if (columns >= 120) expect(text).toContain('2026-11-22 11:13:37 UTC');
  });

  it('a resource whose rows wrap is ruled between rows', async () => {
    server.play({ '/iam/getUser': [{ body: { user } }] });
    const shown = await lines(table(['iam', 'users', 'get'], 80));
    const body = shown.filter((l) => l.startsWith('│') || l.startsWith('├'));
    // Each key row is followed by a rule (but the last), so a wrapped CRN reads as one row.
    expect(body.filter((l) => l.startsWith('├')).length).toBe(Object.keys(user).length - 1);
    const crnLines = body.filter((l) => /crn:altus|user:4f6c|9d74eee4/.test(l));
    expect(crnLines.length).toBeGreaterThan(1);
    for (const l of crnLines) expect(l).not.toMatch(/us-west-\s+│$/);
  });
});
