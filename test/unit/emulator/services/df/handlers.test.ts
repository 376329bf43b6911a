/**
 * The df service of the emulator in-process (no HTTP): services on their
 * lifecycle (enable, update, upgrade, disable; the fail- rule is not
 * reachable, pre-created environments are never named fail-), the
 * pre-created environments enabled from the start, and deployments that are
 * the workload service's records read through df.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { ApiError } from '../../../../../src/lib/emulator/errors.js';
import { PRE_CREATED, preCreatedEnvironmentCrn } from '../../../../../src/lib/emulator/shared/pre-created.js';
import { Store } from '../../../../../src/lib/emulator/store.js';
import type { Caller, Doc } from '../../../../../src/lib/emulator/types.js';
import { clockAt, refusal, serviceCaller } from '../../../../helpers/emulator-unit.js';

const ACCOUNT = 'acct-1';
const SALES = preCreatedEnvironmentCrn(ACCOUNT, 'us-west-1', 'sales-env');
/** A pre-created environment with DataFlow enabled and nothing deployed in it. */
const IDLE = preCreatedEnvironmentCrn(ACCOUNT, 'us-west-1', 'analytics-azure');
const info = { accountId: ACCOUNT, region: 'us-west-1', baseUrl: 'http://localhost:4242' };
const caller: Caller = { accountId: ACCOUNT, actorCrn: `crn:altus:iam:us-west-1:${ACCOUNT}:user:admin`, kind: 'user' };
const MIN = 60_000;

let store: Store;
let now: number;
const clock = clockAt(() => now);

const dfService = await serviceCaller('df', () => ({ store, clock, caller, info }));
const workload = await serviceCaller('dfworkload', () => ({ store, clock, caller, info }));
const df = (op: string, req: Doc = {}): Doc => dfService.call(op, req);
const dfx = (op: string, req: Doc): Doc => workload.call(op, { environmentCrn: SALES, ...req });

const fails = (op: string, req: Doc): ApiError => refusal(() => df(op, req), op);

const services = (): Array<{ crn: string; name: string; environmentCrn: string; status: { state: string } }> =>
  df('listServices').services as Array<{ crn: string; name: string; environmentCrn: string; status: { state: string } }>;
const serviceOf = (env: string): string => services().find((s) => s.environmentCrn === env)?.crn ?? '';
const stateOf = (crn: string): unknown => ((df('describeService', { serviceCrn: crn }).service as Doc).status as Doc).state;

beforeEach(() => {
  store = new Store(':memory:', ACCOUNT);
  now = Date.parse('2026-01-01T00:00:00Z');
});

describe('services', () => {
  test('the pre-created environments marked for it have DataFlow enabled, named after them, each CRN the one the workload names', () => {
    const list = services();
    expect(list.map((s) => s.name).sort()).toEqual(
      PRE_CREATED.filter((e) => e.dataflow)
        .map((e) => e.name)
        .sort(),
    );
    expect(list.every((s) => s.status.state === 'GOOD_HEALTH')).toBe(true);
    const sales = list.find((s) => s.environmentCrn === SALES);
    expect(sales?.name).toBe('sales-env');
    expect(sales?.crn).toBe(`crn:cdp:df:us-west-1:${ACCOUNT}:service:${SALES.split(':').at(-1) ?? ''}`);
    expect(df('listDeployableServicesForNewDeployments').services).toHaveLength(list.length);
  });

  test('disable (DISABLING, then NOT_ENABLED, kept), enable (ENABLING, then GOOD_HEALTH), update and upgrade on the clock', () => {
    const idle = serviceOf(IDLE);
    expect((df('disableService', { serviceCrn: idle }).status as Doc).state).toBe('DISABLING');
    now += 6 * MIN;
    expect(stateOf(idle)).toBe('NOT_ENABLED');
    expect(serviceOf(IDLE)).toBe(idle);
    const enabled = df('enableService', { environmentCrn: IDLE, minK8sNodeCount: 3, maxK8sNodeCount: 5, usePublicLoadBalancer: true });
    expect((enabled.service as Doc).crn).toBe(idle);
    expect(stateOf(idle)).toBe('ENABLING');
    expect(df('listDeployableServicesForNewDeployments').services).not.toContainEqual(expect.objectContaining({ crn: idle }));
    expect(fails('enableService', { environmentCrn: IDLE, minK8sNodeCount: 3, maxK8sNodeCount: 5, usePublicLoadBalancer: true }).code).toBe(
      'ALREADY_EXISTS',
    );
    expect(fails('updateService', { serviceCrn: idle, minK8sNodeCount: 3, maxK8sNodeCount: 9 }).code).toBe('FAILED_PRECONDITION');
    now += 11 * MIN;
    expect(stateOf(idle)).toBe('GOOD_HEALTH');
    df('updateService', { serviceCrn: idle, minK8sNodeCount: 4, maxK8sNodeCount: 9 });
    expect(stateOf(idle)).toBe('UPDATING');
    now += 3 * MIN;
    expect(df('describeService', { serviceCrn: idle }).service).toMatchObject({
      minK8sNodeCount: 4,
      maxK8sNodeCount: 9,
      status: { state: 'GOOD_HEALTH' },
    });
    const before = (df('describeService', { serviceCrn: idle }).service as Doc).workloadVersion;
    df('upgradeService', { serviceCrn: idle });
    now += 9 * MIN;
    const after = (df('describeService', { serviceCrn: idle }).service as Doc).workloadVersion;
    expect(after).not.toBe(before);
    expect(fails('upgradeService', { serviceCrn: idle }).code).toBe('FAILED_PRECONDITION');
  });
});

describe('deployments are the workload records', () => {
  function deploy(name: string): string {
    const sales = serviceOf(SALES);
    const { deploymentRequestCrn } = df('initiateDeployment', {
      serviceCrn: sales,
      flowVersionCrn: `crn:cdp:df:us-west-1:${ACCOUNT}:flow:orders/v.3`,
    }) as { deploymentRequestCrn: string };
    const details = dfx('getDeploymentRequestDetails', { deploymentRequestCrn });
    expect(details).toMatchObject({ deploymentConfigurationMetadata: { flowName: 'orders', flowVersion: 3 } });
    const out = dfx('createDeployment', { name, configurationVersion: 0, deploymentRequestCrn }) as { deployment: Doc };
    return String(out.deployment.crn);
  }

  test('a suspension through the workload reads SUSPENDING then SUSPENDED through df; terminated, it is gone', () => {
    const crn = deploy('orders');
    const describe = (): Doc => df('describeDeployment', { deploymentCrn: crn }).deployment as Doc;
    expect(describe()).toMatchObject({
      name: 'orders',
      status: { state: 'DEPLOYING' },
      service: { name: 'sales-env', cloudProvider: 'AWS' },
    });
    now += 10 * MIN;
    expect(describe()).toMatchObject({ status: { state: 'GOOD_HEALTH' }, flowName: 'orders', flowVersion: 3 });
    dfx('suspendDeployment', { deploymentCrn: crn });
    expect(describe()).toMatchObject({ status: { state: 'SUSPENDING' } });
    now += 2 * MIN;
    expect(describe()).toMatchObject({ status: { state: 'SUSPENDED' } });
    const listed = df('listDeployments', { searchTerm: 'ord' }).deployments as Doc[];
    expect(listed).toEqual([expect.objectContaining({ crn, status: expect.objectContaining({ state: 'SUSPENDED' }) })]);
    const flows = df('listFlowsInDeployment', { deploymentCrn: crn }).deployedFlows as Array<{ crn: string }>;
    expect(flows).toHaveLength(1);
    // Its flow reads as the workload shows it, a state df's model has too: not one the conforming made up.
    expect(flows[0]).toMatchObject({ status: { state: 'DEPLOYMENT_SUSPENDED', detailedState: 'DEPLOYMENT_SUSPENDED' } });
    expect(df('describeFlowInDeployment', { deploymentCrn: crn, deployedFlowCrn: flows[0]?.crn }).deployedFlow).toMatchObject({
      deploymentName: 'orders',
      flowVersion: 3,
      status: { state: 'DEPLOYMENT_SUSPENDED' },
    });
    // A service with a deployment is disabled only with its deployments.
    expect(fails('disableService', { serviceCrn: serviceOf(SALES) }).code).toBe('FAILED_PRECONDITION');
    df('disableService', { serviceCrn: serviceOf(SALES), terminateDeployments: true });
    expect(describe()).toMatchObject({ status: { state: 'TERMINATING' } });
    now += 10 * MIN;
    expect(fails('describeDeployment', { deploymentCrn: crn }).code).toBe('NOT_FOUND');
  });

  test('a request needs a healthy service and a flow version CRN', () => {
    const idle = serviceOf(IDLE);
    df('disableService', { serviceCrn: idle });
    expect(fails('initiateDeployment', { serviceCrn: idle, flowVersionCrn: `crn:cdp:df:us-west-1:${ACCOUNT}:flow:x/v.1` }).code).toBe(
      'FAILED_PRECONDITION',
    );
    expect(fails('initiateDeployment', { serviceCrn: serviceOf(SALES), flowVersionCrn: 'orders' }).code).toBe('INVALID_ARGUMENT');
  });

  test('sorting by a field the service does not sort by is refused', () => {
    expect(fails('listDeployments', { sorts: ['colour:asc'] }).code).toBe('INVALID_ARGUMENT');
  });
});
