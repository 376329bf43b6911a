/**
 * The shared environment records (environments.ts): pre-created ones with
 * their credentials and lifecycle, the status read off the clock for every
 * service, removal after a delete, and state kept before environments had a
 * lifecycle (records without an activity) read as available.
 */
import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { Clock } from '../../../src/lib/emulator/clock.js';
import {
  ENVIRONMENT_KIND,
  environmentResources,
  environments,
  findEnvironment,
  requireEnvironment,
} from '../../../src/lib/emulator/environments.js';
import { ApiError } from '../../../src/lib/emulator/errors.js';
import { PRE_CREATED } from '../../../src/lib/emulator/shared/pre-created.js';
import { Store } from '../../../src/lib/emulator/store.js';
import type { BackendContext } from '../../../src/lib/emulator/types.js';
import { World } from '../../../src/lib/emulator/world.js';
import { serviceCaller, type ServiceCaller } from '../../helpers/emulator-unit.js';

const MIN = 60_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');

let store: Store;
let clock: Clock;
let ctx: BackendContext;
let service: ServiceCaller;

beforeAll(async () => {
  service = await serviceCaller('environments', () => ctx);
});

beforeEach(() => {
  clock = new Clock(1, { now: T0, paused: true }, () => T0);
  store = new Store(':memory:', 'acct');
  ctx = {
    store,
    clock,
    caller: { accountId: 'acct', actorCrn: 'crn:altus:iam:us-west-1:acct:user:u', kind: 'user' },
    info: { accountId: 'acct', region: 'us-west-1', baseUrl: 'http://localhost:1' },
    world: World.empty,
  };
});

describe('environment records', () => {
  test('the pre-created environments are AVAILABLE, each with its credential', () => {
    const all = environments(ctx);
    expect(all.map((e) => [e.environmentName, e.status])).toEqual(PRE_CREATED.map((p) => [p.name, 'AVAILABLE']));
    const listed = service.call('listCredentials') as { credentials: Array<{ credentialName: string }> };
    const creds = listed.credentials.map((c) => c.credentialName);
    expect(creds).toEqual(all.map((e) => e.credentialName));
  });

  test('every service reads the status off the clock, and a deleted environment is gone for all', () => {
    const envs = environmentResources(ctx);
    envs.begin(envs.get('sales-env'), 'stop');
    expect(requireEnvironment(ctx, 'sales-env').status).toBe('STOP_DATAHUB_STARTED');
    clock.advance(10 * MIN);
    expect(findEnvironment(ctx, 'SALES-ENV')?.status).toBe('ENV_STOPPED');
    const crn = requireEnvironment(ctx, 'sales-env').crn;
    envs.begin(envs.get(crn), 'delete', { anyState: true });
    expect(findEnvironment(ctx, crn)?.status).toBe('DELETE_INITIATED');
    clock.advance(10 * MIN);
    expect(findEnvironment(ctx, crn)).toBeUndefined();
    expect(() => requireEnvironment(ctx, 'sales-env')).toThrow(ApiError);
    expect(environments(ctx).map((e) => e.environmentName)).not.toContain('sales-env');
  });

  test('records kept before environments had a lifecycle are read as available', () => {
    const crn = environments(ctx)[0]?.crn ?? '';
    const { activity: _a, freeipa: _f, ...old } = store.get<Record<string, unknown>>(ENVIRONMENT_KIND, crn) ?? {};
    store.put(ENVIRONMENT_KIND, crn, old, { name: String(old.environmentName), crn });
    store.setMeta('environments.tracked', '');
    const e = findEnvironment(ctx, crn);
    expect(e?.status).toBe('AVAILABLE');
    expect(e?.freeipa.instanceCountByGroup).toBe(1);
  });
});
