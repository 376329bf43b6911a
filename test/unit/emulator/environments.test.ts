/**
 * The environment records every service reads (the world's `environments`,
 * provided by the environments service): pre-created ones with their
 * credentials and lifecycle, the status read off the clock for every
 * service, and removal after a delete; records kept before they were the
 * engine's are refused at start, with what to do.
 */
import { beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../../../src/lib/emulator/clock.js';
import { PRE_CREATED } from '../../../src/lib/emulator/shared/pre-created.js';
import { ApiError } from '../../../src/lib/emulator/errors.js';
import { STATE_FORMAT, checkStateFormat } from '../../../src/lib/emulator/state.js';
import { Store } from '../../../src/lib/emulator/store.js';
import type { BackendContext } from '../../../src/lib/emulator/types.js';
import type { World } from '../../../src/lib/emulator/world.js';
import type { Environments } from '../../../src/lib/emulator/world/contracts.js';
import { emulatedWorld, serviceCaller, type ServiceCaller } from '../../helpers/emulator-unit.js';

const MIN = 60_000;
const T0 = Date.parse('2026-01-01T00:00:00Z');

let store: Store;
let clock: Clock;
let ctx: BackendContext;
let service: ServiceCaller;
let world: World;

/** The environments as every service reads them, now. */
const environments = (): Environments => world.in(ctx).environments;

beforeAll(async () => {
  service = await serviceCaller('environments', () => ctx);
  world = await emulatedWorld();
});

beforeEach(() => {
  clock = new Clock(1, { now: T0, paused: true }, () => T0);
  store = new Store(':memory:', 'acct');
  ctx = {
    store,
    clock,
    caller: { accountId: 'acct', actorCrn: 'crn:altus:iam:us-west-1:acct:user:u', kind: 'user' },
    info: { accountId: 'acct', region: 'us-west-1', baseUrl: 'http://localhost:1' },
    world,
  };
});

describe('environment records', () => {
  test('the pre-created environments are AVAILABLE, each with its credential', () => {
    const all = environments().all();
    expect(all.map((e) => [e.environmentName, e.status])).toEqual(PRE_CREATED.map((p) => [p.name, 'AVAILABLE']));
    const listed = service.call('listCredentials') as { credentials: Array<{ credentialName: string }> };
    const creds = listed.credentials.map((c) => c.credentialName);
    expect(creds).toEqual(all.map((e) => e.credentialName));
  });

  test('every service reads the status off the clock, and a deleted environment is gone for all', () => {
    service.call('stopEnvironment', { environmentName: 'sales-env' });
    expect(environments().require('sales-env').status).toBe('STOP_DATAHUB_STARTED');
    clock.advance(10 * MIN);
    expect(environments().find('SALES-ENV')?.status).toBe('ENV_STOPPED');
    const crn = environments().require('sales-env').crn;
    service.call('deleteEnvironment', { environmentName: crn, cascading: true });
    expect(environments().find(crn)?.status).toBe('DELETE_INITIATED');
    clock.advance(10 * MIN);
    expect(environments().find(crn)).toBeUndefined();
    expect(() => environments().require('sales-env')).toThrow(ApiError);
    expect(
      environments()
        .all()
        .map((e) => e.environmentName),
    ).not.toContain('sales-env');
  });

  test("records kept before environments were the engine's (state format 6) are refused at start, with what to do", () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdpctl-env-format-'));
    try {
      const s = new Store(join(dir, 'state.db'), 'acct');
      s.setMeta('stateFormat', '6');
      const crn = 'crn:cdp:environments:us-west-1:acct:environment:1';
      s.put('environments.environment', crn, { environmentName: 'old-env', crn }, { name: 'old-env', crn });
      expect(() => checkStateFormat(s, dir)).toThrow(
        `state format 6; this one reads ${STATE_FORMAT}); start with another --data-dir, or delete it with: cdpctl emulator reset`,
      );
      // Refused as it is: the store still says what wrote it.
      expect(s.meta('stateFormat')).toBe('6');
      s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
