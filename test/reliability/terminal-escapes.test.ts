/**
 * Terminal escape injection: names with ESC, OSC, BEL and C1 characters,
 * stored by the emulator or sent by a hostile server, reach a terminal only
 * escaped (`\u001b`): in every output format on a terminal, in --query
 * results, in error messages (the emulator's own and a server's), in the
 * --wait spinner and in `emulator log`. Machine formats to a pipe or a file
 * keep the bytes, so `--output json > file` round-trips the name.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, baseEnv, startEmulator, type TestEmulator } from '../helpers/cli.js';
import { ptyAvailable, spawnPty } from '../helpers/pty.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/recording-server.js';
import { opsHome, postJson, send, signed, startInProcess, WAIT_FOR_WORKSPACE } from './helpers.js';

const describePty = ptyAvailable() ? describe : describe.skip;

/** Retitles the window, rings, clears the screen, and a C1 CSI that starts colour on 8-bit terminals. */
const HOSTILE = 'x\u001b]0;pwned\u0007\u001b[2J\u009b31my';
/** How it must look: every control character in its escaped form. */
const SHOWN = 'x\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31my';

/** What a terminal must never receive: OSC, BEL, erase-display, a C1 control. */
function expectNeutral(raw: string, what: string): void {
  for (const [name, seq] of [
    ['OSC', '\u001b]'],
    ['BEL', '\u0007'],
    ['erase display', '\u001b[2J'],
    ['C1 CSI', '\u009b'],
  ] as const) {
    if (raw.includes(seq)) throw new Error(`${what}: the terminal received ${name}:\n${JSON.stringify(raw.slice(0, 2000))}`);
  }
}

let T: TestEmulator;
let env: Record<string, string | undefined>;
let server: ScriptedServer;
const scriptedHome = opsHome('cdpctl-escapes-');

beforeAll(async () => {
  T = await startEmulator();
  env = { ...baseEnv(T.home), CI: undefined, NO_COLOR: undefined };
  const made = await T.cli(['iam', 'create-group', '--group-name', HOSTILE]);
  expect(made.code).toBe(0);
  server = await startScriptedServer();
});
beforeEach(() => server.play());
afterAll(async () => {
  await server.close();
  await T.stop();
});

/** cdpctl on a terminal against the emulator; resolves with everything the terminal showed. */
async function onTerminal(args: readonly string[]): Promise<{ code: number; raw: string }> {
  const s = spawnPty([process.execPath, BIN, ...args, '--profile', 'emulator'], { env });
  const code = await s.exit();
  return { code, raw: s.output() };
}

describePty('on a terminal', () => {
  test.each([
    ['table', ['--output', 'table', '--no-pager']],
    ['text', ['--output', 'text']],
    ['--query with text', ['--query', 'groups[].groupName', '--output', 'text']],
    ['yaml', ['--output', 'yaml']],
    ['json', ['--output', 'json']],
    ['tsv', ['--output', 'tsv']],
    ['jsonl', ['--output', 'jsonl']],
  ])('%s shows the name escaped', async (_name, flags) => {
    const r = await onTerminal(['iam', 'list-groups', ...flags]);
    expect(r.code).toBe(0);
    expectNeutral(r.raw, flags.join(' '));
    // The table wraps the name, so look for its last part there; YAML writes its own escapes (\e, \a) for C0.
    const expected = flags.includes('table')
      ? 'pwned\\u0007\\u001b[2J\\u009b31my'
      : flags.includes('yaml')
        ? '"x\\e]0;pwned\\a\\e[2J\\u009b31my"'
        : SHOWN;
    expect(r.raw).toContain(expected);
  });

  test('bidirectional controls (a right-to-left override) are shown escaped in tables and text, not obeyed', async () => {
    // Shows as "invoice-fdp.exe" reversed: a terminal obeying U+202E displays "invoice-exe.pdf".
    const spoof = 'invoice-\u202efdp.exe';
    const others = '\u2066a\u2069\u200f\u061c';
    expect((await T.cli(['iam', 'create-group', '--group-name', spoof])).code).toBe(0);
    expect((await T.cli(['iam', 'create-group', '--group-name', `rtl${others}`])).code).toBe(0);
    for (const flags of [
      ['--output', 'table', '--no-pager'],
      ['--output', 'text'],
      ['--output', 'json'],
    ]) {
      const r = await onTerminal(['iam', 'list-groups', ...flags]);
      expect(r.code).toBe(0);
      for (const c of ['\u202e', '\u2066', '\u2069', '\u200f', '\u061c'])
        if (r.raw.includes(c)) throw new Error(`${flags.join(' ')}: the terminal received U+${c.charCodeAt(0).toString(16)}`);
      expect(r.raw).toContain('invoice-\\u202efdp.exe');
      expect(r.raw).toContain('\\u2066a\\u2069\\u200f\\u061c');
    }
  });

  test("the emulator's NOT_FOUND echoes the name escaped, and so does cdpctl", async () => {
    const r = await onTerminal(['iam', 'list-group-members', '--group-name', `${HOSTILE}-missing`]);
    expect(r.code).toBe(1);
    expectNeutral(r.raw, 'NOT_FOUND');
    expect(r.raw).toContain(`${SHOWN}-missing`);
  });

  test('a hostile server: its error message and the --wait spinner show escapes', async () => {
    const scripted = (args: readonly string[]) =>
      spawnPty([process.execPath, BIN, ...args, '--profile', 'ops', '--endpoint-url', server.localUrl], {
        env: { ...baseEnv(scriptedHome), CI: undefined, NO_COLOR: undefined },
      });
    server.play({ getUser: [{ status: 404, body: { code: 'NOT_FOUND', message: `no user ${HOSTILE}\nFAKE: second line` } }] });
    const failed = scripted(['iam', 'get-user']);
    expect(await failed.exit()).toBe(1);
    expectNeutral(failed.output(), 'server error');
    expect(failed.output()).toContain(`no user ${SHOWN}\\u000aFAKE: second line`);

    const ws = (status: string) => ({ body: { workspace: { instanceName: 'ds', instanceStatus: status } } });
    server.play({ describeWorkspace: [ws(`provision:${HOSTILE}`), ws(`provision:${HOSTILE}`), ws('installation:finished')] });
    const waited = scripted(WAIT_FOR_WORKSPACE);
    expect(await waited.exit()).toBe(0);
    expectNeutral(waited.output(), 'spinner');
    expect(waited.output()).toContain(`provision:${SHOWN}`);
  });

  test('a prompt quoting the name shows it escaped', async () => {
    const s = spawnPty([process.execPath, BIN, 'iam', 'delete-group', '--group-name', HOSTILE, '--profile', 'emulator'], { env });
    await s.expect('this cannot be undone');
    s.type('n');
    expect(await s.exit()).toBe(2);
    expectNeutral(s.output(), 'prompt');
    expect(s.output()).toContain(SHOWN);
  });

  test('emulator log shows a tampered request log escaped', async () => {
    const entry = {
      time: new Date().toISOString(),
      requestId: 'r-1',
      service: 'iam',
      operation: `listGroups${HOSTILE}`,
      caller: `crn:altus:iam:us-west-1:a:user:${HOSTILE}`,
      status: 200,
      durationMs: 1,
    };
    appendFileSync(join(T.dataDir, 'requests.log'), `${JSON.stringify(entry)}\n`);
    const s = spawnPty([process.execPath, BIN, 'emulator', 'log', '--data-dir', T.dataDir], { env });
    expect(await s.exit()).toBe(0);
    expectNeutral(s.output(), 'emulator log');
    expect(s.output()).toContain(`listGroups${SHOWN}`);
  });
});

describe('off a terminal, machine formats keep the bytes', () => {
  test('--output json to a file round-trips the name; text and tsv carry it as stored', async () => {
    const json = await T.json<{ groups: Array<{ groupName: string }> }>(['iam', 'list-groups']);
    expect(json.groups.map((g) => g.groupName)).toContain(HOSTILE);
    const text = await T.cli(['iam', 'list-groups', '--output', 'text']);
    expect(text.stdout).toContain(HOSTILE);
    const tsv = await T.cli(['iam', 'list-groups', '--output', 'tsv']);
    expect(tsv.stdout).toContain(HOSTILE);
    // A table is only for reading: escaped wherever it goes.
    const table = await T.cli(['iam', 'list-groups', '--output', 'table']);
    expectNeutral(table.stdout, 'table to a pipe');
  });

  test('error messages are escaped on stderr wherever it goes; a JSON error stays JSON', async () => {
    const r = await T.cli(['iam', 'list-group-members', '--group-name', HOSTILE + '-gone']);
    expect(r.code).toBe(1);
    expectNeutral(r.stderr, 'stderr');
    const j = await T.cli(['iam', 'list-group-members', '--group-name', HOSTILE + '-gone', '--output', 'json']);
    const parsed = JSON.parse(j.stderr) as { error: { message: string } };
    expect(parsed.error.message).toContain(`${SHOWN}-gone`);
  });

  test("the emulator's messages carry the name escaped on the wire", async () => {
    const emu = await startInProcess();
    try {
      const r = await postJson(emu.port, emu.key, '/iam/listGroupMembers', { groupName: HOSTILE });
      expect(r.status).toBe(404);
      expect(String(r.json?.message)).toContain(SHOWN);
      expectNeutral(String(r.json?.message), 'wire message');
      // Also for a name that is not valid in a path, quoted in a validation message.
      const v = await send(emu.port, {
        path: '/iam/createGroup',
        headers: signed(emu.key, '/iam/createGroup'),
        body: JSON.stringify({ groupName: 'a', [HOSTILE]: 1 }),
      });
      expect(v.status).toBe(400);
      expectNeutral(String(v.json?.message), 'validation message');
    } finally {
      await emu.stop();
    }
  });
});
