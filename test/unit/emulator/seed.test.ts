/**
 * Seed files (seed.ts), beyond the parsing state.test.ts covers: the
 * parse errors it does not try (a key twice, an item that is no entry, a
 * request that is not an object), an item with no request, the digest a
 * file is remembered by; and a file applied as an emulator starts through
 * the library (startEmulator's `seed`): services and operations by their
 * other names, the whole file in one transaction (an error names its file,
 * line, code and message, and leaves nothing behind), and a file applied
 * to a data directory once.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeedError, appliedKey, parseSeed } from '../../../src/lib/emulator/seed.js';
import { startEmulator } from '../../../src/lib/sdk/emulator.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cdpctl-seed-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The message parseSeed refuses a text with. */
function refusedWith(text: string): string {
  try {
    parseSeed(text, 'seed.yaml');
  } catch (e) {
    if (e instanceof SeedError) return e.message;
    throw e;
  }
  throw new Error('the seed was parsed');
}

/** A seed file of these lines in the test's directory. */
function seedFile(name: string, ...lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

describe('parsing', () => {
  test('refused with the line: a key given twice, an item that is no entry, a request that is not an object', () => {
    expect(refusedWith('- iam createGroup: {groupName: a}\n- iam createGroup: {groupName: a, groupName: b}\n')).toBe(
      'seed.yaml line 2: Map keys must be unique',
    );
    expect(refusedWith('- iam createGroup: {groupName: a}\n- ~\n')).toMatch(
      /^seed\.yaml line 2: each item is one "<service> <operation>: \{request\}" entry/,
    );
    expect(refusedWith('- iam createGroup: 5\n')).toMatch(
      /^seed\.yaml line 1: the request of iam createGroup must be an object of its fields/,
    );
  });

  test('an item with no request asks with an empty one', () => {
    expect(parseSeed('- iam listGroups:\n', 'seed.yaml').steps).toEqual([
      { line: 1, service: 'iam', operation: 'listGroups', request: {} },
    ]);
  });

  test('a file is remembered by the digest of its text: the same text, the same key', () => {
    const a = parseSeed('- iam createGroup: {groupName: a}\n', 'one.yaml');
    expect(a.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(appliedKey(a)).toBe(`seed.applied:${a.digest}`);
    expect(parseSeed('- iam createGroup: {groupName: a}\n', 'two.yaml').digest).toBe(a.digest);
  });
});

describe('applying, as an emulator starts', () => {
  test('services and operations are named by wire name or CLI topic and by API or kebab name; the admin makes what they say', async () => {
    const file = seedFile(
      'names.yaml',
      '- iam createGroup: {groupName: seeded}',
      '- iam create-machine-user: {machineUserName: bot}',
      '- environments describe-environment: {environmentName: sales-env}',
      '- lakehouse list-environments:',
    );
    const emu = await startEmulator({ seed: file });
    try {
      expect((await emu.client.iam.listGroups({})).groups.map((g) => g.groupName)).toEqual(['seeded']);
      expect((await emu.client.iam.listMachineUsers({})).machineUsers.map((m) => m.machineUserName)).toEqual(['bot']);
    } finally {
      await emu.stop();
    }
  });

  test('an item refused names the file, its line, the code and the message, and nothing of the file is left', async () => {
    const file = seedFile('twice.yaml', '- iam createGroup: {groupName: first}', '- iam createGroup: {groupName: first}');
    const data = join(dir, 'twice-data');
    await expect(startEmulator({ seed: file, dataDir: data })).rejects.toThrow(
      `${file} line 2: iam createGroup: ALREADY_EXISTS: a group named first already exists`,
    );
    const missing = seedFile('missing.yaml', '- iam createGroup: {groupName: x}', '- iam createGroup: {}');
    await expect(startEmulator({ seed: missing })).rejects.toThrow(
      `${missing} line 2: iam createGroup: INVALID_ARGUMENT: missing required field "groupName"`,
    );
    const unknown = seedFile('unknown.yaml', '- nothing createGroup: {groupName: x}');
    await expect(startEmulator({ seed: unknown })).rejects.toThrow(
      new RegExp(`^${unknown} line 1: unknown service "nothing"; services: iam, `),
    );
    const emu = await startEmulator({ dataDir: data });
    try {
      expect((await emu.client.iam.listGroups({})).groups).toEqual([]);
    } finally {
      await emu.stop();
    }
  });

  test('a file is applied to a data directory once: started again with it, what it made and was since deleted stays deleted', async () => {
    const file = seedFile('once.yaml', '- iam createGroup: {groupName: once}');
    const data = join(dir, 'once-data');
    const first = await startEmulator({ seed: file, dataDir: data });
    try {
      await first.client.iam.deleteGroup({ groupName: 'once' });
    } finally {
      await first.stop();
    }
    const again = await startEmulator({ seed: file, dataDir: data });
    try {
      expect((await again.client.iam.listGroups({})).groups).toEqual([]);
    } finally {
      await again.stop();
    }
  });

  test('a seed file that cannot be read is a UsageError (SEED_FILE) before anything starts', async () => {
    await expect(startEmulator({ seed: join(dir, 'no-such.yaml') })).rejects.toMatchObject({ code: 'SEED_FILE' });
  });
});
