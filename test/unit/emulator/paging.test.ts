/**
 * Paging from the model, in one place: the page function under every paging
 * spec the model has (every service, served or not), and every paged
 * operation the emulator serves walked page by page in this process — the
 * smallest page it takes (one item, unless its model says more), following
 * the token under the operation's own field names — giving exactly what one
 * big page gives.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap } from '../../../src/lib/emulator/bootstrap.js';
import { ApiError } from '../../../src/lib/emulator/errors.js';
import { decodeToken, page, pageResponse, pagingOf, storeListing, type Paging } from '../../../src/lib/emulator/engine/paging.js';
import { Emulator } from '../../../src/lib/emulator/server.js';
import { Store } from '../../../src/lib/emulator/store.js';
import type { Doc } from '../../../src/lib/emulator/types.js';
import { loadAllServices } from '../../../src/lib/model/index.js';

const services = await loadAllServices();
const specs = services.flatMap((s) =>
  s.operations().flatMap((op) => (op.paging ? [{ id: `${s.name} ${op.name}`, paging: pagingOf(op) as Paging }] : [])),
);

/** The smallest page an operation takes (one item, unless its model says more) and a big one (100, unless it takes fewer). */
function pageSizes(service: string, operation: string, paging: Paging): { small: number; big: number } {
  const svc = services.find((s) => s.name === service);
  const field = svc?.requestFields(svc.operation(operation)).find((f) => f.name === paging.pageSize);
  return { small: Math.max(1, field?.min ?? 1), big: Math.min(100, field?.max ?? 100) };
}

/** Follows the tokens of a listing from the first page to the last. */
function walk<T>(paging: Paging, size: number, get: (req: Doc) => Doc): T[] {
  const out: T[] = [];
  let req: Doc = { [paging.pageSize]: size };
  for (let i = 0; i < 10_000; i++) {
    const answer = get(req);
    const items = answer[paging.result] as T[];
    expect(items.length).toBeLessThanOrEqual(size);
    out.push(...items);
    const token = answer[paging.outputToken];
    if (typeof token !== 'string' || token === '') return out;
    req = { [paging.pageSize]: size, [paging.inputToken]: token };
  }
  throw new Error('the listing never ended');
}

describe('the page function, under every paging spec of the model', () => {
  test('the model has paged operations in many services', () => {
    expect(specs.length).toBeGreaterThan(30);
    expect(new Set(specs.map((s) => s.id.split(' ')[0])).size).toBeGreaterThan(5);
  });

  test.each(specs)('$id', ({ paging }) => {
    const all = Array.from({ length: 23 }, (_, i) => ({ n: i }));
    for (const size of [1, 5, 23, 100]) expect(walk(paging, size, (req) => pageResponse(paging, page(paging, req, all)))).toEqual(all);
    // No page size: the model's default for the field, else the spec's default item count.
    const first = page(paging, {}, all);
    expect(first.items).toHaveLength(Math.min(all.length, paging.defaultSize));
    // A token that is not one of ours is refused.
    expect(() => page(paging, { [paging.inputToken]: 'bogus' }, all)).toThrow(ApiError);
    // The last page carries no token.
    expect(pageResponse(paging, page(paging, { [paging.pageSize]: 100 }, all))).not.toHaveProperty(paging.outputToken);
  });

  test('one token format for lists and for store listings (by creation order)', () => {
    const store = new Store(':memory:', 'a');
    for (let i = 0; i < 7; i++) store.put('k', `id${i}`, { i });
    const paging = specs[0]?.paging as Paging;
    const p = page(paging, { [paging.pageSize]: 3 }, storeListing<{ i: number }>(store, 'k'));
    expect(p.items.map((x) => x.i)).toEqual([0, 1, 2]);
    expect(typeof decodeToken(String(p.nextToken))).toBe('number');
    const rest = walk<{ i: number }>(paging, 3, (req) => pageResponse(paging, page(paging, req, storeListing(store, 'k'))));
    expect(rest.map((x) => x.i)).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});

describe('every paged operation the emulator serves, walked in this process', () => {
  let home: string;
  let emu: Emulator;
  /** The request of each paged operation (beyond paging), over data made in beforeAll. */
  const requests: Record<string, Doc> = {};

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'cdpctl-paging-'));
    emu = new Emulator({ dataDir: join(home, 'emu'), port: 0, timeScale: 1000, requestLog: false });
    await emu.start();
    await bootstrap(emu, { HOME: home });
    const call = (service: string, op: string, req: Doc): Doc => {
      try {
        return emu.call(service, op, req);
      } catch (e) {
        throw new Error(`${service} ${op}: ${(e as Error).message}`);
      }
    };
    const users = [1, 2, 3].map(
      (i) => (call('iam', 'createUser', { identityProviderUserId: `u${i}`, email: `u${i}@example.com` }).user as Doc).crn as string,
    );
    const mus = [1, 2, 3].map((i) => (call('iam', 'createMachineUser', { machineUserName: `m${i}` }).machineUser as Doc).crn as string);
    for (const g of ['g1', 'g2', 'g3']) {
      call('iam', 'createGroup', { groupName: g });
      call('iam', 'addUserToGroup', { groupName: g, userId: users[0] });
      call('iam', 'addMachineUserToGroup', { groupName: g, machineUserName: 'm1' });
    }
    for (const u of users.slice(1)) call('iam', 'addUserToGroup', { groupName: 'g1', userId: u });
    for (const m of mus) call('iam', 'createMachineUserAccessKey', { machineUserName: m });
    const roles = ((call('iam', 'listRoles', {}).roles as Doc[]).map((r) => r.crn) as string[]).slice(0, 3);
    const resourceRoles = ((call('iam', 'listResourceRoles', {}).resourceRoles as Doc[]).map((r) => r.crn) as string[]).slice(0, 3);
    const resource = `crn:cdp:environments:us-west-1:${emu.account}:environment:e1`;
    for (const r of roles) {
      call('iam', 'assignUserRole', { user: users[1], role: r });
      call('iam', 'assignMachineUserRole', { machineUserName: 'm1', role: r });
      call('iam', 'assignGroupRole', { groupName: 'g1', role: r });
    }
    for (const rr of resourceRoles) {
      call('iam', 'assignUserResourceRole', { user: users[1], resourceRoleCrn: rr, resourceCrn: resource });
      call('iam', 'assignMachineUserResourceRole', { machineUserName: 'm1', resourceRoleCrn: rr, resourceCrn: resource });
      call('iam', 'assignGroupResourceRole', { groupName: 'g1', resourceRoleCrn: rr, resourceCrn: resource });
    }
    for (const p of ['okta', 'azure-ad']) call('iam', 'createSamlProvider', { samlProviderName: p, enableScim: true });
    for (let i = 0; i < 2; i++) call('iam', 'createScimAccessToken', { identityProviderNameOrCrn: 'okta', accessTokenLifetimeDays: 30 });
    Object.assign(requests, {
      'iam listUsers': {},
      'iam listMachineUsers': {},
      'iam listGroups': {},
      'iam listAccessKeys': {},
      'iam listSamlProviders': {},
      'iam listScimAccessTokens': { identityProviderNameOrCrn: 'okta' },
      'iam listGroupMembers': { groupName: 'g1' },
      'iam listGroupsForUser': { userId: users[0] },
      'iam listGroupsForMachineUser': { machineUserName: 'm1' },
      'iam listRoles': {},
      'iam listResourceRoles': {},
      'iam listUserAssignedRoles': { user: users[1] },
      'iam listUserAssignedResourceRoles': { user: users[1] },
      'iam listMachineUserAssignedRoles': { machineUserName: 'm1' },
      'iam listMachineUserAssignedResourceRoles': { machineUserName: 'm1' },
      'iam listGroupAssignedRoles': { groupName: 'g1' },
      'iam listGroupAssignedResourceRoles': { groupName: 'g1' },
      'iam listResourceAssignees': { resourceCrn: resource },
    });
    // compute, datacatalog, lakehouse.
    for (const n of ['c-one', 'c-two', 'c-three']) call('compute', 'createCluster', { environment: 'sales-env', name: n });
    requests['compute listClusters'] = {};
    const env = (call('lakehouse', 'listEnvironments', { pageToken: 'ALL' }).environments as Doc[]).find(
      (e) => e.environmentName === 'sales-env',
    );
    const lake = { datalakeCrn: `crn:cdp:datalake:us-west-1:${emu.account}:datalake:d1`, environmentCrn: String(env?.environmentCrn) };
    for (const n of ['s1', 's2', 's3'])
      call('datacatalog', 'createDataShare', { ...lake, dataShareName: n, assets: [{ databaseName: 'db', tableName: n }] });
    call('datacatalog', 'createExternalUsers', {
      ...lake,
      externalUsers: [1, 2, 3].map((i) => ({ username: `x${i}`, email: `x${i}@example.com`, companyName: 'acme' })),
    });
    requests['datacatalog listDataShares'] = lake;
    requests['datacatalog listExternalUsers'] = lake;
    const hub = (call('lakehouse', 'listEnvironments', { pageToken: 'ALL' }).environments as Doc[]).find((e) => e.datahubCrn)?.datahubCrn;
    call('lakehouse', 'createPolicy', { datahubCrn: hub, policyName: 'p1', resources: { script: 'compaction' } });
    call('lakehouse', 'createTablePoliciesAssociations', { datahubCrn: hub, namespace: 'sales', tableName: 'orders', policies: ['p1'] });
    for (let i = 0; i < 3; i++)
      call('lakehouse', 'executePolicy', { datahubCrn: hub, namespace: 'sales', tableName: 'orders', policyName: 'p1', dryRun: false });
    // df: services (one per pre-created environment), deployments of the workload and the flows of one.
    const sales = String(env?.environmentCrn);
    const deployments = ['dep-a', 'dep-b'].map((name) => {
      const deploymentRequestCrn = `crn:cdp:df:us-west-1:${emu.account}:deploymentRequest:${name}`;
      call('dfworkload', 'getDeploymentRequestDetails', { environmentCrn: sales, deploymentRequestCrn });
      const out = call('dfworkload', 'createDeployment', { environmentCrn: sales, name, configurationVersion: 0, deploymentRequestCrn });
      return String((out.deployment as Doc).crn);
    });
    emu.driveClock({ advanceMs: 30 * 60_000 });
    const deployedFlowRequestCrn = `crn:cdp:df:us-west-1:${emu.account}:deployedFlowRequest:second`;
    call('dfworkload', 'getFlowRequestDetailsInDeployment', { environmentCrn: sales, deployedFlowRequestCrn });
    const second = call('dfworkload', 'addFlowToDeployment', {
      environmentCrn: sales,
      deploymentCrn: deployments[0],
      name: 'second',
      configurationVersion: 0,
      deployedFlowRequestCrn,
    });
    requests['df listServices'] = {};
    requests['df listDeployments'] = {};
    requests['df listFlowsInDeployment'] = { deploymentCrn: deployments[0] };
    // df: the catalog (ReadyFlows, two of them added), collections, projects and diagnostics of a service; events of a
    // suspended deployment and of a stopped flow (created, then suspended or stopped).
    const dfService = (call('df', 'listServices', {}).services as Doc[]).find((s) => s.environmentCrn === sales)?.crn;
    const readyflows = (call('df', 'listReadyflows', {}).readyflows as Doc[]).map((r) => r.readyflowCrn);
    for (const readyflowCrn of readyflows.slice(0, 2)) call('df', 'addReadyflow', { readyflowCrn });
    for (const name of ['ingest', 'egress']) call('df', 'createCollection', { name });
    for (const name of ['sales', 'ops']) call('df', 'createProject', { name, serviceCrn: dfService });
    for (const description of ['first', 'second']) {
      call('df', 'startGetDiagnosticsCollection', { dfServiceCrn: dfService, destination: 'SUPPORT', description });
      emu.driveClock({ advanceMs: 10 * 60_000 });
    }
    const flowCrn = String((second.deployedFlow as Doc).crn);
    emu.driveClock({ advanceMs: 10 * 60_000 });
    call('dfworkload', 'suspendDeployment', { environmentCrn: sales, deploymentCrn: deployments[1] });
    call('dfworkload', 'stopFlowInDeployment', { environmentCrn: sales, deploymentCrn: deployments[0], deployedFlowCrn: flowCrn });
    Object.assign(requests, {
      'df listReadyflows': {},
      'df listFlowDefinitions': {},
      'df listCollections': {},
      'df listProjects': {},
      'df listDiagnostics': { dfServiceCrn: dfService },
      'df listDeploymentEvents': { deploymentCrn: deployments[1] },
      'df listFlowEventsInDeployment': { deploymentCrn: deployments[0], deployedFlowCrn: flowCrn },
    });
    requests['lakehouseopt listEnvironments'] = {};
    requests['lakehouseopt listTasks'] = { datahubCrn: hub };
    // audit: every call above is an event; batches of them, a task each (one at a time), for more batches than a page holds.
    const always = { fromTimestamp: '1970-01-01T00:00:00Z', toTimestamp: '2999-01-01T00:00:00Z' };
    for (let i = 0; i < 21; i++) {
      const from = new Date(emu.clock.now()).toISOString();
      call('iam', 'createGroup', { groupName: `batched-${i}` });
      call('audit', 'batchEventsForArchiving', { fromTimestamp: from, toTimestamp: new Date(emu.clock.now() + 1).toISOString() });
      emu.driveClock({ advanceMs: 5 * 60_000 });
    }
    requests['audit listEvents'] = always;
    requests['audit listOutstandingArchiveBatches'] = {};
    // consumption: the hours each environment's FreeIPA has run.
    requests['consumption listComputeUsageRecords'] = always;
    // datahub: a cluster's lifecycle events and two scaling activities; custom configurations.
    const definition = '7.2.18 - Data Engineering for AWS';
    call('datahub', 'createAWSCluster', { clusterName: 'page-hub', environment: 'sales-env', clusterDefinition: definition });
    for (const count of [3, 2]) {
      emu.driveClock({ advanceMs: 30 * 60_000 });
      call('datahub', 'scaleCluster', { clusterName: 'page-hub', instanceGroupName: 'compute', instanceGroupDesiredCount: count });
    }
    for (const n of ['tune-a', 'tune-b', 'tune-c'])
      call('datahub', 'createCustomConfigurations', {
        customConfigurationsName: n,
        configurations: [{ configName: 'dfs_replication', configValue: '2', serviceType: 'HDFS' }],
      });
    requests['datahub listClusterLifecycleEvents'] = { cluster: 'page-hub' };
    requests['datahub listScalingActivities'] = { cluster: 'page-hub', duration: 1440 };
    requests['datahub listCustomConfigurations'] = {};
    // dw: two diagnostic bundles each of a cluster, its default catalog and a warehouse on it.
    const staging = (call('lakehouse', 'listEnvironments', { pageToken: 'ALL' }).environments as Doc[]).find(
      (e) => e.environmentName === 'staging-aws',
    );
    const clusterId = String(call('dw', 'createAwsCluster', { environmentCrn: String(staging?.environmentCrn) }).clusterId);
    emu.driveClock({ advanceMs: 30 * 60_000 });
    const dbcId = String(((call('dw', 'listDbcs', { clusterId }).dbcs as Doc[])[0] as Doc).id);
    const vwId = String(call('dw', 'createVw', { clusterId, dbcId, vwType: 'hive', name: 'paged' }).vwId);
    emu.driveClock({ advanceMs: 30 * 60_000 });
    const owners: Array<[string, Doc]> = [
      ['Cluster', { clusterId }],
      ['Dbc', { clusterId, dbcId }],
      ['Vw', { clusterId, vwId }],
    ];
    for (const [noun, owner] of owners) {
      for (let i = 0; i < 2; i++) call('dw', `create${noun}DiagnosticDataJob`, { ...owner, destination: 'DOWNLOAD', force: true });
      requests[`dw list${noun}DiagnosticDataJobs`] = owner;
    }
    // de: a service on the data lake of sales-env, with two backups; its init log and a backup's log.
    call('datalake', 'createAWSDatalake', {
      datalakeName: 'page-lake',
      environmentName: 'sales-env',
      cloudProviderConfiguration: {
        instanceProfile: 'arn:aws:iam::123456789012:instance-profile/dl',
        storageBucketLocation: 's3a://page/lake',
      },
    });
    emu.driveClock({ advanceMs: 30 * 60_000 });
    const cde = String(
      (
        call('de', 'enableService', {
          name: 'page-de',
          env: 'sales-env',
          instanceType: 'm5.2xlarge',
          minimumInstances: 1,
          maximumInstances: 2,
        }).service as Doc
      ).clusterId,
    );
    emu.driveClock({ advanceMs: 30 * 60_000 });
    const backups = [1, 2].map((i) => call('de', 'createBackup', { serviceId: cde, description: `b${i}` }).backupID);
    emu.driveClock({ advanceMs: 30 * 60_000 });
    requests['de listBackups'] = {};
    requests['de getServiceInitLogs'] = { serviceID: cde };
    requests['de getBackupLogs'] = { backupID: backups[0] };
  }, 60_000);

  afterAll(async () => {
    await emu?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  test('each has data to page through here', () => {
    const served = emu.pagedOperations().map((o) => `${o.service} ${o.operation}`);
    expect(served.filter((id) => !(id in requests))).toEqual([]);
  });

  test('the smallest page gives what one big page gives, in order, under the operation’s own field names', () => {
    // Work in progress (lakehouse tasks) moves on with the clock: hold it still so both walks read the same world.
    emu.driveClock({ pause: true });
    for (const { service, operation, paging } of emu.pagedOperations()) {
      const base = requests[`${service} ${operation}`] ?? {};
      const get = (req: Doc): Doc => emu.call(service, operation, { ...base, ...req });
      const { small, big } = pageSizes(service, operation, paging);
      const whole = walk<unknown>(paging, big, get);
      expect({ op: `${service} ${operation}`, enough: whole.length > small }).toEqual({ op: `${service} ${operation}`, enough: true });
      expect({ op: `${service} ${operation}`, items: walk<unknown>(paging, small, get) }).toEqual({
        op: `${service} ${operation}`,
        items: whole,
      });
    }
  });
});
