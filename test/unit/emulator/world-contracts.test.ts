/**
 * The world's contracts (world/contracts.ts): each provided by exactly one
 * service, or the emulator does not start; every contract of every service
 * module is provided; and each is read bound to the reading request's scope.
 */
import { describe, expect, test } from '@jest/globals';
import { Store } from '../../../src/lib/emulator/store.js';
import { World, type Providers } from '../../../src/lib/emulator/world.js';
import { CONTRACTS } from '../../../src/lib/emulator/world/contracts.js';
import { clockAt, emulatedWorld, UNIT_ACCOUNT, UNIT_INFO, worldProviders } from '../../helpers/emulator-unit.js';

describe('world contracts', () => {
  test('every contract of the service modules has its provider', async () => {
    const providers = await worldProviders();
    expect(Object.keys(providers).sort()).toEqual([...CONTRACTS].sort());
  });

  test('a contract with no provider, two, or one that is none, stops the start', async () => {
    const all = await worldProviders();
    const { lakes, ...rest } = all;
    expect(() => World.of([], [{ service: 'x', provides: rest }])).toThrow('no service provides the world contract lakes');
    expect(() =>
      World.of(
        [],
        [
          { service: 'x', provides: all },
          { service: 'y', provides: { lakes } },
        ],
      ),
    ).toThrow('the world contract lakes is provided twice: by x and y');
    expect(() => World.of([], [{ service: 'x', provides: { ...all, weather: lakes } as Providers }])).toThrow(
      'x provides weather, which is no world contract',
    );
  });

  test('a contract is read in the scope it is asked in: its store, its clock', async () => {
    const world = await emulatedWorld();
    const a = new Store(':memory:', UNIT_ACCOUNT);
    const b = new Store(':memory:', UNIT_ACCOUNT);
    const clock = clockAt(() => Date.parse('2026-01-01T00:00:00Z'));
    // Pre-created environments are made, once, in the store that is asked.
    expect(world.in({ store: a, clock, info: UNIT_INFO }).environments.require('sales-env').status).toBe('AVAILABLE');
    expect(a.count('environments.environment')).toBeGreaterThan(0);
    expect(b.count('environments.environment')).toBe(0);
  });

  test("an environment's FreeIPA runs from when it was made, on its instances; an unknown CRN has none", async () => {
    const world = await emulatedWorld();
    const store = new Store(':memory:', UNIT_ACCOUNT);
    let now = Date.parse('2026-01-01T00:00:00Z');
    const reads = (): ReturnType<typeof world.in> => world.in({ store, clock: clockAt(() => now), info: UNIT_INFO });
    const env = reads().environments.require('sales-env');
    now += 3_600_000;
    const freeipa = reads().environments.freeipaRuns(env.crn);
    expect(freeipa?.instances).toBeGreaterThan(0);
    expect(freeipa?.runs.at(-1)?.to).toBe(now);
    expect(reads().environments.freeipaRuns(env.crn.replace(/[0-9a-f]{12}$/, '000000000000'))).toBeUndefined();
  });

  test("the account's credentials, the pre-created environments' first, each found by name and CRN", async () => {
    const world = await emulatedWorld();
    const store = new Store(':memory:', UNIT_ACCOUNT);
    const reads = world.in({ store, clock: clockAt(() => Date.parse('2026-01-01T00:00:00Z')), info: UNIT_INFO });
    const all = reads.environments.credentials();
    expect(all.map((c) => c.credentialName)).toContain(reads.environments.require('sales-env').credentialName);
    for (const c of all) {
      expect(reads.environments.credential(c.credentialName)?.crn).toBe(c.crn);
      expect(reads.environments.credential(c.crn)?.credentialName).toBe(c.credentialName);
    }
  });
});
