/**
 * Saving and loading emulator state in-process: seed files parsed with the
 * line of each item (and refused naming the line), a whole-state export
 * and import with the clock and uploaded files, and the state-format check
 * (the request log: request-log.test.ts).
 */
import { describe, expect, test } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeedError, parseSeed } from '../../../src/lib/emulator/seed.js';
import { STATE_FORMAT, StateError, checkStateFormat, exportState, importState, parseStateFile } from '../../../src/lib/emulator/state.js';
import { Store } from '../../../src/lib/emulator/store.js';

const seedError = (text: string): string => {
  try {
    parseSeed(text, 'seed.yaml');
  } catch (e) {
    if (e instanceof SeedError) return e.message;
    throw e;
  }
  throw new Error('parsed');
};

describe('seed files', () => {
  test('YAML and JSON lists of "<service> <operation>: request", each with its line', () => {
    const yaml = [
      '# fixtures',
      '- iam createGroup: {groupName: data-eng}',
      '',
      '- iam createMachineUser:',
      '    machineUserName: etl',
      '- lakehouse listEnvironments:',
    ];
    const f = parseSeed(yaml.join('\n'), 'seed.yaml');
    expect(f.steps).toEqual([
      { line: 2, service: 'iam', operation: 'createGroup', request: { groupName: 'data-eng' } },
      { line: 4, service: 'iam', operation: 'createMachineUser', request: { machineUserName: 'etl' } },
      { line: 6, service: 'lakehouse', operation: 'listEnvironments', request: {} },
    ]);
    const json = parseSeed('[\n  {"iam createGroup": {"groupName": "a"}},\n  {"iam createGroup": {"groupName": "b"}}\n]', 'seed.json');
    expect(json.steps.map((s) => [s.line, s.request.groupName])).toEqual([
      [2, 'a'],
      [3, 'b'],
    ]);
    expect(parseSeed('', 'empty.yaml').steps).toEqual([]);
    expect(parseSeed('- iam createGroup: {groupName: a}', 'x').digest).not.toBe(parseSeed('- iam createGroup: {groupName: b}', 'x').digest);
  });

  test('bad files are refused naming the line', () => {
    expect(seedError('- iam createGroup: {groupName: a}\n- iam createGroup: {groupName: b\n')).toMatch(/^seed\.yaml line [23]: /);
    expect(seedError('iam createGroup: {groupName: a}')).toMatch(/^seed\.yaml line 1: a seed file is a list of operations/);
    expect(seedError('- iam createGroup: {groupName: a}\n- just text\n')).toMatch(/^seed\.yaml line 2: each item is one/);
    expect(seedError('- iam createGroup: {groupName: a}\n- iam: {groupName: a}\n')).toMatch(
      /^seed\.yaml line 2: "iam" is not "<service> <operation>"/,
    );
    expect(seedError('- iam createGroup: [a]\n')).toMatch(/^seed\.yaml line 1: the request of iam createGroup must be an object/);
    expect(seedError('- iam createGroup: {a: 1}\n  iam createUser: {}\n')).toMatch(/line 1: each item is one/);
  });
});

describe('export and import', () => {
  test('everything round-trips: documents in order, meta, the clock, uploaded files', () => {
    const a = mkdtempSync(join(tmpdir(), 'cdpctl-state-a-'));
    const b = mkdtempSync(join(tmpdir(), 'cdpctl-state-b-'));
    try {
      const src = new Store(join(a, 'state.db'), 'acct');
      checkStateFormat(src, a);
      mkdirSync(join(a, 'uploads'));
      writeFileSync(join(a, 'uploads', 'blob-1'), 'file bytes');
      src.setMeta('accountId', 'acct');
      src.put('iam.group', 'g1', { groupName: 'one' }, { name: 'one', crn: 'crn:altus:iam:us-west-1:acct:group:one' });
      src.put('dfworkload.asset', 'a1', { storedAt: join(a, 'uploads', 'blob-1') }, { parent: 'p' });
      src.put('iam.group', 'g2', { groupName: 'two' }, { name: 'two' });
      const file = parseStateFile(JSON.stringify(exportState(src, a, { now: 1_800_000_000_000, paused: true })), 'state.json');
      src.close();
      expect(file.clock).toEqual({ now: new Date(1_800_000_000_000).toISOString(), nowMs: 1_800_000_000_000, paused: true });
      expect(file.meta).not.toHaveProperty('clock');
      expect(file.uploads).toEqual({ 'blob-1': Buffer.from('file bytes').toString('base64') });
      expect(JSON.stringify(file.documents)).not.toContain(a);

      const dst = new Store(join(b, 'state.db'), 'acct');
      dst.put('iam.group', 'old', { groupName: 'old' });
      mkdirSync(join(b, 'uploads'));
      writeFileSync(join(b, 'uploads', 'stale'), 'x');
      const clock = importState(dst, b, file);
      expect(clock).toEqual({ now: 1_800_000_000_000, paused: true });
      expect(dst.list<{ groupName: string }>('iam.group').map((r) => r.doc.groupName)).toEqual(['one', 'two']);
      expect(dst.getByName('iam.group', 'ONE')).toEqual({ groupName: 'one' });
      expect(dst.getByCrn('crn:altus:iam:us-west-1:acct:group:one')?.id).toBe('g1');
      const asset = dst.get<{ storedAt: string }>('dfworkload.asset', 'a1');
      expect(asset?.storedAt).toBe(join(b, 'uploads', 'blob-1'));
      expect(readFileSync(String(asset?.storedAt), 'utf8')).toBe('file bytes');
      expect(existsSync(join(b, 'uploads', 'stale'))).toBe(false);
      expect([dst.meta('clock'), dst.meta('clock.paused'), dst.meta('stateFormat')]).toEqual(['1800000000000', '1', String(STATE_FORMAT)]);
      dst.close();
    } finally {
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
    }
  });

  test('files that are not exports are refused with what is wrong', () => {
    const bad = (v: unknown): string => {
      try {
        parseStateFile(typeof v === 'string' ? v : JSON.stringify(v), 'f.json');
      } catch (e) {
        if (e instanceof StateError) return e.message;
        throw e;
      }
      return 'accepted';
    };
    const ok = {
      format: 'cdpctl-emulator-state',
      version: 1,
      stateFormat: STATE_FORMAT,
      clock: { nowMs: 1, paused: false },
      meta: {},
      documents: [],
      uploads: {},
    };
    expect(bad(ok)).toBe('accepted');
    expect(bad('{')).toMatch(/^f\.json is not JSON/);
    expect(bad({ ...ok, format: 'x' })).toMatch(/not an emulator state export/);
    expect(bad({ ...ok, stateFormat: 1 })).toMatch(/state format 1/);
    // Format 2 is read as it is, unless it holds documents whose layout changed since (compute's).
    expect(bad({ ...ok, stateFormat: 2 })).toBe('accepted');
    const cluster = { kind: 'compute.cluster', id: 'c1', account: 'acct', name: null, crn: null, parent: null, body: {} };
    expect(bad({ ...ok, stateFormat: 2, documents: [cluster] })).toMatch(`state format 2; this cdpctl reads state format ${STATE_FORMAT}`);
    // Format 3 likewise, unless it holds audit's archiving records (their layout changed in 4).
    const task = { kind: 'audit.task', id: 't1', account: 'acct', name: null, crn: null, parent: null, body: {} };
    expect(bad({ ...ok, stateFormat: 3, documents: [cluster] })).toBe('accepted');
    expect(bad({ ...ok, stateFormat: 3, documents: [task] })).toMatch(`state format 3; this cdpctl reads state format ${STATE_FORMAT}`);
    expect(bad({ ...ok, documents: [{ kind: 'k' }] })).toMatch(/document 1 needs/);
    expect(bad({ ...ok, uploads: { '../x': 'aa' } })).toMatch(/plain file names/);
  });

  test('state kept before the lifecycle engine is refused at start, with what to do', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdpctl-state-old-'));
    try {
      const s = new Store(join(dir, 'state.db'), 'acct');
      s.put('datalake.datalake', 'l1', { tl: {} });
      expect(() => checkStateFormat(s, dir)).toThrow(/older cdpctl.*emulator reset/);
      s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('state of format 2 is read on when it holds none of the kinds whose layout changed since (the compute ones), else refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdpctl-state-2-'));
    try {
      const s = new Store(join(dir, 'state.db'), 'acct');
      s.setMeta('stateFormat', '2');
      s.put('iam.workloadToken', 'h', { hash: 'h', actorCrn: 'me', workloadName: 'DE', expireAt: 0 });
      checkStateFormat(s, dir);
      expect(s.meta('stateFormat')).toBe(String(STATE_FORMAT));
      s.setMeta('stateFormat', '2');
      s.put('compute.cluster', 'c1', { clusterName: 'c1' });
      expect(() => checkStateFormat(s, dir)).toThrow(
        `state format 2; this one reads ${STATE_FORMAT}); start with another --data-dir, or delete it with: cdpctl emulator reset`,
      );
      s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
