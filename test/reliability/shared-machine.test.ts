/**
 * A shared machine and small holes: the emulator's data directory is 0700
 * and its files 0600 (also when an older one was looser); `configure set`
 * writes through a symlinked ~/.cdp/credentials instead of replacing it;
 * `__proto__` in a request document is refused like any unknown field, by
 * the CLI and by the emulator; and a body over the emulator's limit sent
 * with `Connection: close` by a client that writes before it reads gets its
 * 413, the rest of the body read and dropped, not a reset.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { chmodSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { run, tempHome } from '../helpers/cli.js';
import { postJson, signed, startInProcess, type InProcessEmulator } from './helpers.js';

const mode = (path: string): number => statSync(path).mode & 0o777;

describe("the emulator's data directory", () => {
  test('is 0700 and every file in it 0600; a looser one an older cdpctl left is tightened at start', async () => {
    const home = tempHome('cdpctl-perm-');
    const dataDir = join(home, 'emu');
    const emulator = (verb: string, ...more: string[]) => run(['emulator', verb, '--data-dir', dataDir, ...more], { home });
    const files = (): string[] => readdirSync(dataDir).filter((f) => statSync(join(dataDir, f)).isFile());
    const expectPrivate = (): void => {
      expect(mode(dataDir)).toBe(0o700);
      for (const f of files()) expect([f, mode(join(dataDir, f))]).toEqual([f, 0o600]);
    };
    expect((await emulator('start', '--detach', '--port', '0')).code).toBe(0);
    expect(files()).toEqual(expect.arrayContaining(['state.db', 'emulator.json', 'emulator.log']));
    expectPrivate();
    const made = await run(['iam', 'create-group', '--group-name', 'perm-check', '--profile', 'emulator'], { home });
    expect(made.code).toBe(0);
    expect((await emulator('stop')).code).toBe(0);
    // Stopping wrote the request log out.
    expect(files()).toEqual(expect.arrayContaining(['state.db', 'requests.log']));
    expectPrivate();

    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'state.db'), 0o644);
    chmodSync(join(dataDir, 'emulator.log'), 0o644);
    expect((await emulator('start', '--detach', '--port', '0')).code).toBe(0);
    try {
      expectPrivate();
    } finally {
      await emulator('stop');
    }
  });
});

describe('configure set and a symlinked credentials file', () => {
  test('writes through the link: the link stays, the file it points to changes', async () => {
    const home = tempHome('cdpctl-link-');
    const dotfiles = join(home, 'dotfiles');
    mkdirSync(dotfiles);
    mkdirSync(join(home, '.cdp'));
    writeFileSync(join(dotfiles, 'credentials'), '# kept in git\n[default]\ncdp_access_key_id = old\n', { mode: 0o600 });
    symlinkSync(join(dotfiles, 'credentials'), join(home, '.cdp', 'credentials'));
    const r = await run(['configure', 'set', 'cdp_access_key_id', 'new-id'], { home });
    expect(r.code).toBe(0);
    expect(lstatSync(join(home, '.cdp', 'credentials')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dotfiles, 'credentials'), 'utf8')).toBe('# kept in git\n[default]\ncdp_access_key_id = new-id\n');
    expect(readdirSync(dotfiles)).toEqual(['credentials']);
  });
});

describe('__proto__ and constructor', () => {
  test('are refused like any unknown field by the CLI, and by the emulator', async () => {
    const home = tempHome('cdpctl-proto-');
    for (const doc of ['{"groupName":"g","__proto__":{"polluted":true}}', '{"groupName":"g","constructor":{"x":1}}']) {
      const r = await run(['iam', 'create-group', '--cli-input-json', doc, '--endpoint-url', 'http://127.0.0.1:9/'], {
        home,
        env: { CDP_ACCESS_KEY_ID: 'k', CDP_PRIVATE_KEY: 'x'.repeat(44) },
      });
      expect(r.stderr).toMatch(/^INVALID_INPUT: unknown field "(__proto__|constructor)"/);
      expect(r.code).toBe(2);
    }
    const emu = await startInProcess();
    try {
      const path = '/iam/createGroup';
      const reply = await postJson(emu.port, emu.key, path, JSON.parse('{"groupName":"g","__proto__":{"polluted":true}}'));
      expect(reply.status).toBe(400);
      expect(String(reply.json?.message)).toMatch(/unknown field "__proto__"/);
    } finally {
      await emu.stop();
    }
  });
});

describe('a body over the limit with Connection: close', () => {
  let E: InProcessEmulator;
  beforeAll(async () => {
    E = await startInProcess();
  });
  afterAll(async () => E.stop());

  test('a client that writes 20 MB before it reads gets the 413, not a reset', async () => {
    const path = '/iam/createGroup';
    const body = Buffer.alloc(20 * 1024 * 1024, 0x20);
    const head = [
      `POST ${path} HTTP/1.1`,
      `Host: localhost:${E.port}`,
      'Connection: close',
      `Content-Length: ${body.length}`,
      ...Object.entries(signed(E.key, path)).map(([k, v]) => `${k}: ${v}`),
      '',
      '',
    ].join('\r\n');
    const outcome = await new Promise<{ written: boolean; error?: string; answer: string }>((resolve) => {
      const sock = connect(E.port, '127.0.0.1');
      const chunks: Buffer[] = [];
      let written = false;
      let error: string | undefined;
      sock.on('data', (c: Buffer) => chunks.push(c));
      sock.on('error', (err: NodeJS.ErrnoException) => (error = err.code ?? err.message));
      sock.on('close', () => resolve({ written, error, answer: Buffer.concat(chunks).toString('latin1') }));
      // Everything first, as a naive client does; only then is the answer read (it arrives meanwhile).
      sock.write(head);
      sock.end(body, () => (written = true));
    });
    expect(outcome.error).toBeUndefined();
    expect(outcome.written).toBe(true);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.answer).toContain('PAYLOAD_TOO_LARGE');
  });
});
