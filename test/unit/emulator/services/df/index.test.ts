/**
 * Every df operation a request can reach in this process (the two imports
 * take a file: see test/e2e/emulator-df-more.test.ts) succeeds on a world
 * that has what it needs (a deployment of an added ReadyFlow with a flow and
 * KPIs, a collection, a project, a diagnostics collection, Kubernetes
 * access), and each answer validates against the operation's response
 * shape: what the every-operation harness cannot reach (it makes no
 * deployment, and gets its flows late) is checked here.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateRequest } from '../../../../../src/lib/core/validate.js';
import { bootstrap } from '../../../../../src/lib/emulator/bootstrap.js';
import { Emulator } from '../../../../../src/lib/emulator/server.js';
import type { Doc } from '../../../../../src/lib/emulator/types.js';
import { loadService } from '../../../../../src/lib/model/index.js';

const df = await loadService('df');
const dir = mkdtempSync(join(tmpdir(), 'cdpctl-df-ops-'));
let em: Emulator;
const served = new Set<string>();
const MINUTE = 60_000;

/** Calls a df operation; its answer must validate against the operation's response shape. */
function call(operation: string, request: Doc): Doc {
  const answer = em.call('df', operation, request);
  const op = df.operation(operation);
  expect({ operation, issues: validateRequest(df.shapes, op.output, answer).map((i) => i.message) }).toEqual({ operation, issues: [] });
  served.add(operation);
  return answer;
}
const workload = (operation: string, request: Doc): Doc => em.call('dfworkload', operation, request);
const advance = (minutes: number): void => void em.driveClock({ advanceMs: minutes * MINUTE });
const first = (list: unknown): Doc => ((list as Doc[])[0] ?? {}) as Doc;

let env = '';
let service = '';
let deployment = '';
let flow = '';
let addedFlow = '';

beforeAll(async () => {
  em = new Emulator({ dataDir: dir, timeScale: 1, requestLog: false });
  await em.start();
  await bootstrap(em, { HOME: dir });
  const services = call('listServices', { searchTerm: 'sales-env' }).services as Doc[];
  service = String(first(services).crn);
  env = String(first(services).environmentCrn);
  // A ReadyFlow in the catalog, deployed with a KPI; a second flow in the deployment.
  const readyflows = call('listReadyflows', {}).readyflows as Doc[];
  call('describeReadyflow', { readyflowCrn: first(readyflows).readyflowCrn });
  const added = call('addReadyflow', { readyflowCrn: first(readyflows).readyflowCrn }).addedReadyflowDetail as Doc;
  addedFlow = String(added.addedReadyflowCrn);
  const request = String(call('initiateDeployment', { serviceCrn: service, flowVersionCrn: `${addedFlow}/v.1` }).deploymentRequestCrn);
  workload('getDeploymentRequestDetails', { environmentCrn: env, deploymentRequestCrn: request });
  const kpis = [{ metricId: 'cpuUtilization', alert: { thresholdMoreThan: { unitId: 'percentage', value: 75 } } }];
  deployment = String(
    (
      workload('createDeployment', { environmentCrn: env, name: 'orders', configurationVersion: 0, deploymentRequestCrn: request, kpis })
        .deployment as Doc
    ).crn,
  );
  advance(30);
  const flowRequest = String(
    call('initiateFlowInDeployment', { serviceCrn: service, flowVersionCrn: `${addedFlow}/v.2`, deploymentCrn: deployment })
      .deployedFlowRequestCrn,
  );
  workload('getFlowRequestDetailsInDeployment', { environmentCrn: env, deployedFlowRequestCrn: flowRequest });
  workload('addFlowToDeployment', {
    environmentCrn: env,
    deploymentCrn: deployment,
    name: 'second',
    configurationVersion: 0,
    deployedFlowRequestCrn: flowRequest,
    kpis,
  });
  advance(30);
  flow = String(first(call('listFlowsInDeployment', { deploymentCrn: deployment }).deployedFlows).crn);
}, 60_000);

afterAll(async () => {
  await em?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('every df operation on a world that has what it needs', () => {
  test('services, their cluster and what they do', () => {
    call('describeService', { serviceCrn: service });
    call('listDeployableServicesForNewDeployments', {});
    call('updateService', { serviceCrn: service, minK8sNodeCount: 3, maxK8sNodeCount: 12 });
    advance(10);
    call('upgradeService', { serviceCrn: service });
    advance(10);
    call('renewCertificates', { serviceCrn: service });
    advance(10);
    call('rotatePassword', { serviceCrn: service });
    advance(10);
    call('updateNodeImages', { serviceCrn: service });
    advance(20);
    const user = 'arn:aws:iam::123456789012:role/dataflow-admins';
    call('grantUserKubernetesAccess', { serviceCrn: service, cloudUserId: user });
    expect(call('listUserKubernetesAccess', { serviceCrn: service }).cloudUserIds).toEqual([user]);
    call('revokeUserKubernetesAccess', { serviceCrn: service, cloudUserId: user });
    expect(String(call('getKubeconfig', { serviceCrn: service }).kubeconfig)).toContain('kind: Config');
    const events = call('listServiceEvents', { serviceCrn: service }).eventSummaries as Doc[];
    expect(events.map((e) => e.eventType)).toEqual(
      expect.arrayContaining([
        'SERVICE_UPDATE',
        'SERVICE_UPGRADE',
        'SERVICE_RENEW_CERTIFICATES',
        'SERVICE_ROTATE_PASSWORD',
        'SERVICE_UPDATE_NODE_IMAGES',
      ]),
    );
    call('describeServiceEventDetail', { serviceCrn: service, eventCrn: first(events).crn });
    call('listServiceActiveAlerts', { serviceCrn: service });
    call('listServiceSystemMetrics', { serviceCrn: service, metricsTimePeriod: 'LAST_ONE_DAY' });
  });

  test('deployments and their flows', () => {
    call('describeDeployment', { deploymentCrn: deployment });
    call('listDeployments', { filters: [`service:${service}`], sorts: ['name:desc'] });
    const events = call('listDeploymentEvents', { deploymentCrn: deployment }).eventSummaries as Doc[];
    call('describeDeploymentEventDetail', { deploymentCrn: deployment, eventCrn: first(events).crn });
    call('listDeploymentActiveAlerts', { deploymentCrn: deployment });
    const kpis = call('listDeploymentKPIs', { deploymentCrn: deployment, metricsTimePeriod: 'LAST_TWELVE_HOURS' }).metricCharts as Doc[];
    expect(kpis).toHaveLength(1);
    call('listDeploymentSystemMetrics', { deploymentCrn: deployment, metricsTimePeriod: 'LAST_THIRTY_MINUTES' });
    call('describeFlowInDeployment', { deploymentCrn: deployment, deployedFlowCrn: flow });
    const flowEvents = call('listFlowEventsInDeployment', { deploymentCrn: deployment, deployedFlowCrn: flow }).eventSummaries as Doc[];
    call('describeFlowEventDetailInDeployment', { deploymentCrn: deployment, deployedFlowCrn: flow, eventCrn: first(flowEvents).crn });
    call('listFlowActiveAlertsInDeployment', { deploymentCrn: deployment, deployedFlowCrn: flow });
    call('listFlowKpisInDeployment', { deploymentCrn: deployment, deployedFlowCrn: flow, metricsTimePeriod: 'LAST_ONE_HOUR' });
    call('listNotifications', { timestampAfter: 0 });
    call('listFilterOptions', { filterType: 'state' });
  });

  test('the catalog, collections and ReadyFlows', () => {
    const collection = String((call('createCollection', { name: 'ingest', description: 'Ingest flows' }).catalogCollection as Doc).crn);
    call('updateCollection', { catalogCollectionCrn: collection, description: 'All ingest flows' });
    call('assignToCollection', { flowCrn: addedFlow, catalogCollectionCrn: collection });
    expect((call('describeCollection', { catalogCollectionCrn: collection }).catalogCollection as Doc).flowCount).toBe(1);
    call('listCollections', { searchTerm: 'ing' });
    call('listFlowDefinitions', { collectionCrn: collection });
    call('describeFlow', { flowCrn: addedFlow });
    const versions = call('listFlowDefinitionVersions', { flowCrn: addedFlow }).flowVersions as Doc[];
    expect(versions.map((v) => v.deploymentCount)).toEqual(expect.arrayContaining([1]));
    const version = String(first(versions).crn);
    call('createFlowVersionTag', { flowVersionCrn: version, tagName: 'prod', tagColor: '#1b75bc' });
    call('listFlowVersionTags', { flowVersionCrn: version });
    call('deleteFlowVersionTag', { flowVersionCrn: version, tagName: 'prod' });
    expect(Buffer.from(String(call('getFlowVersion', { flowVersionCrn: version }).flowDefinition), 'base64').toString()).toContain(
      'flowContents',
    );
    call('describeAddedReadyflow', { addedReadyflowCrn: addedFlow });
    call('assignToCollection', { flowCrn: addedFlow });
    call('deleteCollection', { catalogCollectionCrn: collection });
    const other = first(call('listReadyflows', { searchTerm: 'snowflake' }).readyflows).readyflowCrn;
    const second = String((call('addReadyflow', { readyflowCrn: other }).addedReadyflowDetail as Doc).addedReadyflowCrn);
    call('deleteAddedReadyflow', { addedReadyflowCrn: second });
    const third = first(call('listReadyflows', { searchTerm: 's3 to s3' }).readyflows).readyflowCrn;
    call('deleteFlow', { flowCrn: String((call('addReadyflow', { readyflowCrn: third }).addedReadyflowDetail as Doc).addedReadyflowCrn) });
  });

  test('projects and diagnostics', () => {
    const made = call('createProject', { name: 'sales', serviceCrn: service, description: 'Sales flows' }).project as Doc;
    const project = String(made.crn);
    call('describeProject', { projectCrn: project });
    call('updateProject', { projectCrn: project, projectRevision: 1, projectDescription: 'EU sales flows' });
    call('listProjects', { filters: [`service:${service}`] });
    call('listProjectFilterOptions', { filterType: 'service' });
    em.driveClock({ pause: true });
    call('deleteProject', { projectCrn: project, projectRevision: 2 });
    call('cancelDeleteProject', { projectCrn: project, projectRevision: 3 });
    em.driveClock({ resume: true });
    const uuid = String(
      call('startGetDiagnosticsCollection', { dfServiceCrn: service, destination: 'SUPPORT', description: 'restarts' }).uuid,
    );
    advance(10);
    expect(first(call('listDiagnostics', { dfServiceCrn: service, uuids: [uuid] }).diagnostics).status).toBe('SUCCESS');
  });

  test('a service is disabled with its deployments and projects (kept with persist), and one whose enable failed is reset', () => {
    call('disableService', { serviceCrn: service, terminateDeployments: true });
    expect(call('listProjects', { filters: [`service:${service}`] }).projects ?? []).toEqual([]);
    const idle = first(call('listServices', { searchTerm: 'analytics-azure' }).services);
    call('createProject', { name: 'kept', serviceCrn: idle.crn });
    call('disableService', { serviceCrn: idle.crn, persist: true });
    advance(10);
    call('enableService', { environmentCrn: idle.environmentCrn, minK8sNodeCount: 3, maxK8sNodeCount: 5, usePublicLoadBalancer: true });
    advance(20);
    expect((call('listProjects', { filters: [`service:${String(idle.crn)}`] }).projects as Doc[]).map((p) => p.name)).toEqual(['kept']);
    // An environment named fail-stop- is created (only its stop fails); DataFlow's enable in it fails.
    const made = em.call('environments', 'createAWSEnvironment', {
      environmentName: 'fail-stop-flows',
      credentialName: 'sales-env-credential',
      region: 'us-west-2',
      securityAccess: { cidr: '10.0.0.0/16' },
      authentication: { publicKeyId: 'flows-key' },
      logStorage: { storageLocationBase: 's3a://flows-logs/logs', instanceProfile: 'arn:aws:iam::123456789012:instance-profile/flows' },
      vpcId: 'vpc-0a1b2c3d4e5f67890',
      subnetIds: ['subnet-0a1b2c3d4e5f67890'],
    });
    advance(30);
    const failing = String((made.environment as Doc).crn);
    const enabled = call('enableService', { environmentCrn: failing, minK8sNodeCount: 3, maxK8sNodeCount: 5, usePublicLoadBalancer: true });
    advance(20);
    const crn = String((enabled.service as Doc).crn);
    expect(((call('describeService', { serviceCrn: crn }).service as Doc).status as Doc).state).toBe('BAD_HEALTH');
    call('resetService', { serviceCrn: crn });
    expect(() => em.call('df', 'describeService', { serviceCrn: crn })).toThrow(/not found/);
  });

  test('every operation that takes no file was served', () => {
    const reachable = df.operations().filter((op) => !op.composed && !em.takesFile('df', op.name));
    expect(reachable.map((op) => op.name).filter((name) => !served.has(name))).toEqual([]);
  });
});
