/**
 * Durability: 16 concurrent writers against the emulator process, kill -9 at
 * a random moment, restart: every write that got a 200 is there, the
 * database passes `PRAGMA integrity_check`, and no document is half-written.
 * And eight `cdpctl configure set` processes at once leave a valid
 * credentials file holding every key.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import Database from 'better-sqlite3';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parsePrivateKey } from '../../src/lib/core/signing.js';
import { readIni } from '../../src/lib/core/config.js';
import { parseIni } from '../../src/lib/core/ini.js';
import { run, startEmulatorProcess, tempHome, type TestEmulator } from '../helpers/cli.js';
import { postJson } from './helpers.js';

const emulators: TestEmulator[] = [];
const totals = { acknowledged: 0, found: 0, inFlight: 0, kills: 0 };

afterAll(async () => {
  for (const e of emulators) await e.stop().catch(() => undefined);
  console.log(
    `reliability: durability: ${totals.kills} kill -9 during 16 concurrent writers; ${totals.acknowledged} writes acknowledged, ${totals.found} found after restart (${totals.inFlight} in flight at the kill)`,
  );
});

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('kill -9 under 16 concurrent writers', () => {
  test('every acknowledged write survives; integrity_check passes; nothing half-written', async () => {
    const home = tempHome('cdpctl-rel-dur-');
    let emu = await startEmulatorProcess({ home });
    emulators.push(emu);
    for (let round = 0; round < 2; round++) {
      const creds = readIni(join(home, '.cdp', 'credentials')).emulator as Record<string, string>;
      const key = parsePrivateKey(String(creds.cdp_access_key_id), String(creds.cdp_private_key));
      const pid = (JSON.parse(readFileSync(join(emu.dataDir, 'emulator.json'), 'utf8')) as { pid: number }).pid;
      const acked = new Set<string>();
      const attempted = new Set<string>();
      let stop = false;
      let killed = false;
      const writer = async (w: number): Promise<void> => {
        for (let n = 0; !stop; n++) {
          const name = `r${round}-w${w}-n${n}`;
          attempted.add(name);
          try {
            const r = await postJson(emu.port, key, '/iam/createGroup', { groupName: name });
            if (r.status === 200) acked.add(name);
            else throw new Error(`unexpected ${r.status} ${r.text}`);
          } catch (err) {
            if (stop || killed) return;
            throw err;
          }
        }
      };
      const writers = Array.from({ length: 16 }, (_, w) => writer(w));
      // A random moment once writes are flowing.
      const deadline = Date.now() + 20_000;
      const target = 50 + Math.floor(Math.random() * 300);
      while (acked.size < target && Date.now() < deadline) await sleep(5);
      await sleep(Math.floor(Math.random() * 50));
      killed = true;
      process.kill(pid, 'SIGKILL');
      totals.kills++;
      while (alive(pid)) await sleep(10);
      stop = true;
      await Promise.all(writers);
      const ackedNow = new Set(acked);
      expect(ackedNow.size).toBeGreaterThan(0);

      // The database as the killed process left it.
      const db = new Database(join(emu.dataDir, 'state.db'));
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();

      // Restart on the same data and read back through the API.
      emu = await startEmulatorProcess({ home });
      emulators.push(emu);
      const list = await emu.json<{ groups: Array<{ groupName: string; crn: string; creationDate: string }> }>(['iam', 'groups', 'list']);
      const found = new Map(list.groups.filter((g) => g.groupName.startsWith(`r${round}-`)).map((g) => [g.groupName, g]));
      for (const name of ackedNow) expect({ name, found: found.has(name) }).toEqual({ name, found: true });
      // Present means whole: every stored group is one that was sent, with all its fields.
      for (const [name, g] of found) {
        expect(attempted.has(name)).toBe(true);
        expect(typeof g.crn).toBe('string');
        expect(typeof g.creationDate).toBe('string');
      }
      const ro = new Database(join(emu.dataDir, 'state.db'), { readonly: true });
      const rows = ro.prepare("SELECT id, body, crn FROM docs WHERE kind LIKE 'iam.%'").all() as Array<{
        id: string;
        body: string;
        crn: string | null;
      }>;
      for (const row of rows) expect(() => JSON.parse(row.body) as unknown).not.toThrow();
      ro.close();
      totals.acknowledged += ackedNow.size;
      totals.found += [...ackedNow].filter((n) => found.has(n)).length;
      totals.inFlight += found.size - ackedNow.size;
    }
  });
});

describe('concurrent configure set', () => {
  test('eight processes at once leave every key in a 0600 credentials file', async () => {
    const home = tempHome('cdpctl-rel-cfg-');
    const jobs: Array<Promise<{ code: number; stderr: string }>> = [];
    for (let i = 0; i < 8; i++) {
      jobs.push(run(['configure', 'set', 'cdp_access_key_id', `key-${i}`, '--profile', `p${i}`], { home }));
    }
    const results = await Promise.all(jobs);
    for (const r of results) expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const credPath = join(home, '.cdp', 'credentials');
    const creds = parseIni(readFileSync(credPath, 'utf8'));
    for (let i = 0; i < 8; i++) {
      expect(creds[`p${i}`]?.cdp_access_key_id).toBe(`key-${i}`);
    }
    expect(statSync(credPath).mode & 0o777).toBe(0o600);
    // No lock or temporary file left behind.
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(join(home, '.cdp'))).toEqual(['credentials']);
  });
});
