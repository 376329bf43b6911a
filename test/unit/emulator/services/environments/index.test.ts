/**
 * An environment's parts go with it: once its delete has ended, its FreeIPA,
 * FreeIPA's log collections, its ID Broker mappings and its operation
 * records are gone from the store, whoever reads the environment first;
 * another environment's parts stay. FreeIPA's work runs one at a time,
 * refused with FreeIPA's own state. Run against an emulator in this process.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap } from '../../../../../src/lib/emulator/bootstrap.js';
import { crnId } from '../../../../../src/lib/emulator/ids.js';
import { Emulator } from '../../../../../src/lib/emulator/server.js';

const dir = mkdtempSync(join(tmpdir(), 'cdpctl-env-parts-'));
let em: Emulator;
const HOUR = 3_600_000;

beforeAll(async () => {
  em = new Emulator({ dataDir: join(dir, 'emu'), timeScale: 1, requestLog: false });
  await em.start();
  await bootstrap(em, { HOME: dir });
});

afterAll(async () => {
  await em.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The kinds of an environment's parts: its ID Broker mappings, its FreeIPA, FreeIPA's log collections and its operation records. */
const ENVIRONMENT_PARTS = [
  'environments.idBrokerMappings',
  'environments.freeipa',
  'environments.freeipaDiagnostics',
  'environments.operation',
];

/** The parts stored under an environment's CRN or id (as their id or parent), by kind. */
const partsOf = (crn: string): Record<string, number> =>
  Object.fromEntries(
    ENVIRONMENT_PARTS.map((k) => [
      k,
      [crn, crnId(crn)].reduce((n, key) => n + (em.store.get(k, key) ? 1 : 0) + em.store.children(k, key).length, 0),
    ]),
  );

test('a deleted environment takes its FreeIPA, log collections, mappings and operations with it', () => {
  const crnOf = (name: string): string =>
    (em.call('environments', 'describeEnvironment', { environmentName: name }) as { environment: { crn: string } }).environment.crn;
  const doomed = crnOf('gov-env');
  const kept = crnOf('ops-env');
  for (const name of ['gov-env', 'ops-env']) {
    em.call('environments', 'upscaleFreeipa', { environmentName: name, targetAvailabilityType: 'HA' });
    em.call('environments', 'collectFreeipaDiagnostics', { environmentName: name, destination: 'LOCAL', description: 'logs' });
    em.call('environments', 'setIdBrokerMappings', { environmentName: name, dataAccessRole: 'role', setEmptyMappings: true });
  }
  em.driveClock({ advanceMs: HOUR });
  expect(Object.values(partsOf(doomed)).every((n) => n > 0)).toBe(true);

  // Cascading: DataFlow is enabled in the pre-created environments, and goes with it.
  em.call('environments', 'deleteEnvironment', { environmentName: 'gov-env', cascading: true });
  em.driveClock({ advanceMs: HOUR });
  // Another service reads the environments first: the delete settles there.
  const supported = em.call('opdb', 'listSupportedEnvironments', {}) as { environments: Array<{ name: string }> };
  expect(supported.environments.map((e) => e.name)).not.toContain('gov-env');
  expect(partsOf(doomed)).toEqual(Object.fromEntries(ENVIRONMENT_PARTS.map((k) => [k, 0])));
  expect(() => em.call('environments', 'describeEnvironment', { environmentName: 'gov-env' })).toThrow(/not found/);
  expect(Object.values(partsOf(kept)).every((n) => n > 0)).toBe(true);
});

test("FreeIPA's work runs one at a time, refused with FreeIPA's state, and what it leaves reaches its environment when it ends", () => {
  const ipa = (): { status: string; instances: Record<string, unknown> } =>
    em.call('environments', 'getFreeipaStatus', { environmentName: 'sales-env' }) as { status: string; instances: Record<string, unknown> };
  const before = Object.keys(ipa().instances).length;
  const up = em.call('environments', 'upscaleFreeipa', { environmentName: 'sales-env', targetAvailabilityType: 'HA' }) as Record<
    string,
    string
  >;
  expect(typeof up.operationId).toBe('string');
  expect(ipa().status).toBe('UPDATE_REQUESTED');
  // The same kind and another kind are refused alike while it runs, naming FreeIPA's state.
  expect(() => em.call('environments', 'upscaleFreeipa', { environmentName: 'sales-env', targetAvailabilityType: 'HA' })).toThrow(
    'FreeIPA of environment sales-env is UPDATE_REQUESTED; a FreeIPA upscale needs it AVAILABLE',
  );
  expect(() => em.call('environments', 'updateOrchestratorState', { environment: 'sales-env' })).toThrow(
    'FreeIPA of environment sales-env is UPDATE_REQUESTED; a FreeIPA orchestrator state update needs it AVAILABLE',
  );
  expect(Object.keys(ipa().instances)).toHaveLength(before);
  em.driveClock({ advanceMs: HOUR });
  expect(ipa().status).toBe('AVAILABLE');
  expect(Object.keys(ipa().instances)).toHaveLength(3);
  expect(em.call('environments', 'getOperation', { environmentName: 'sales-env', operationId: up.operationId })).toMatchObject({
    operationName: 'UPSCALE',
    operationStatus: 'FINISHED',
  });
});
