/**
 * df beyond services and deployment reads, through the real binary against
 * the emulator: the flow catalog (a flow definition imported from a file the
 * way cdp sends it, through the redirect; a second version; tags; the
 * definition read back; collections), ReadyFlows added to the catalog, a
 * project, and a deployment of a catalog version with --wait, read back
 * through events, KPIs, metrics and the catalog's deployment counts.
 * Failure paths: a `fail-` deployment, diagnostics collection and DataFlow
 * service end in their failure states (and the service is reset). Bad input:
 * what does not exist is NOT_FOUND, and a refused request writes nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { environmentCrns, startEmulator, type RunResult, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;
let ACCOUNT = '';
let SERVICE = '';
const FAST = ['--poll-interval', '0.1', '--wait-timeout', '120'];

interface FlowVersion {
  crn: string;
  version: number;
  comments?: string;
  deploymentCount: number;
  tags?: Array<{ tagName: string; tagColor?: string }>;
}
interface Flow {
  crn: string;
  name: string;
  versionCount: number;
  description?: string;
  collectionCrn?: string;
  collectionName?: string;
  versions: FlowVersion[];
}

const flowCrn = (name: string): string => `crn:cdp:df:us-west-1:${ACCOUNT}:flow:${name}`;
const file = (name: string, body: string): string => {
  const path = join(em.home, name);
  writeFileSync(path, body);
  return path;
};
const definition = (name: string, version: number): string => JSON.stringify({ flowContents: { name, version, processors: [] } });
/** `df diagnostics collect` in the sales-env service. */
const collect = (...flags: string[]): string[] => ['df', 'diagnostics', 'collect', '--df-service-crn', SERVICE, ...flags];
/** `df deployments create` of a version of the catalog's sales-ingest in the sales-env service. */
const deploy = (name: string, version: number, ...flags: string[]): string[] => [
  'df',
  'deployments',
  'create',
  '--service-crn',
  SERVICE,
  '--flow-version-crn',
  `${flowCrn('sales-ingest')}/v.${version}`,
  '--deployment-name',
  name,
  ...flags,
];

/** A command that must fail: its exit code is not 0 and stderr names the error code. */
async function refused(args: readonly string[], code: string): Promise<RunResult> {
  const r = await em.cli(args);
  expect({ exit: r.code === 0 ? 0 : 'failed', stderr: r.stderr }).toEqual({ exit: 'failed', stderr: expect.stringContaining(code) });
  return r;
}

beforeAll(async () => {
  em = await startEmulator();
  const envs = await environmentCrns(em);
  ACCOUNT = (envs['sales-env'] ?? '').split(':')[4] ?? '';
  const services = await em.json<{ services: Array<{ crn: string; name: string }> }>(['df', 'services', 'list']);
  SERVICE = services.services.find((s) => s.name === 'sales-env')?.crn ?? '';
});

afterAll(async () => {
  await em?.stop();
});

describe('the flow catalog', () => {
  test('import a flow definition from a file, add a version, tag it, read it back', async () => {
    const imported = await em.json<Flow>([
      'df',
      'flows',
      'import',
      '--file',
      file('sales-ingest.json', definition('sales-ingest', 1)),
      '--name',
      'sales-ingest',
      '--description',
      'Kafka → S3 (raw)',
      '--comments',
      'first version',
      '--tags',
      '[{"tagName":"prod","tagColor":"#1b75bc"}]',
    ]);
    expect(imported).toMatchObject({
      crn: flowCrn('sales-ingest'),
      name: 'sales-ingest',
      description: 'Kafka → S3 (raw)',
      versionCount: 1,
      versions: [{ version: 1, comments: 'first version', tags: [{ tagName: 'prod', tagColor: '#1b75bc' }] }],
    });

    const v2 = await em.json<FlowVersion>([
      'df',
      'flow-versions',
      'import',
      '--flow-crn',
      imported.crn,
      '--file',
      file('sales-ingest-v2.json', definition('sales-ingest', 2)),
      '--comments',
      'batch size 500',
      '--tags',
      '[{"tagName":"candidate"}]',
    ]);
    expect(v2).toMatchObject({ crn: `${imported.crn}/v.2`, version: 2, tags: [{ tagName: 'candidate' }] });

    const tagged = await em.json<{ flowVersionTag: { tagName: string } }>([
      'df',
      'flow-versions',
      'tag',
      '--flow-version-crn',
      v2.crn,
      '--tag-name',
      'stable',
      '--tag-color',
      '#00ff00',
    ]);
    expect(tagged.flowVersionTag).toEqual({ tagName: 'stable', tagColor: '#00ff00' });
    await refused(['df', 'flow-versions', 'tag', '--flow-version-crn', v2.crn, '--tag-name', 'STABLE'], 'ALREADY_EXISTS');
    const tags = await em.json<{ flowVersionTags: Array<{ tagName: string }> }>([
      'df',
      'flow-versions',
      'tags',
      '--flow-version-crn',
      v2.crn,
    ]);
    expect(tags.flowVersionTags.map((t) => t.tagName)).toEqual(['candidate', 'stable']);
    await em.json(['df', 'flow-versions', 'untag', '--flow-version-crn', v2.crn, '--tag-name', 'candidate']);
    await refused(['df', 'flow-versions', 'untag', '--flow-version-crn', v2.crn, '--tag-name', 'candidate'], 'NOT_FOUND');

    const described = await em.json<{ flowDetail: Flow }>(['df', 'flows', 'describe', '--flow-crn', imported.crn]);
    expect(described.flowDetail.versionCount).toBe(2);
    expect(described.flowDetail.versions.map((v) => [v.version, (v.tags ?? []).map((t) => t.tagName)])).toEqual([
      [1, ['prod']],
      [2, ['stable']],
    ]);
    const byTag = await em.json<{ flowVersions: FlowVersion[] }>([
      'df',
      'flow-versions',
      'list',
      '--flow-crn',
      imported.crn,
      '--search-term',
      'stab',
    ]);
    expect(byTag.flowVersions.map((v) => v.version)).toEqual([2]);
    // The definition comes back as it was uploaded (cdp decodes it).
    const got = await em.json(['df', 'flow-versions', 'get', '--flow-version-crn', v2.crn]);
    expect(got).toEqual(JSON.parse(definition('sales-ingest', 2)));

    const list = await em.cli(['df', 'flows', 'list', '--output', 'table']);
    expect(list.stdout).toMatch(/sales-ingest .*2 .*flow │/);
  });

  test('collections group flow definitions; one that holds flows is not deleted', async () => {
    const made = await em.json<{ catalogCollection: { crn: string } }>([
      'df',
      'collections',
      'create',
      '--name',
      'ingest',
      '--description',
      'Ingest flows',
    ]);
    const collection = made.catalogCollection.crn;
    expect(collection).toMatch(/:catalogCollection:/);
    await refused(['df', 'collections', 'create', '--name', 'INGEST'], 'ALREADY_EXISTS');
    const assigned = await em.json<{ flowSummary: { collectionCrn: string; collectionName: string } }>([
      'df',
      'flows',
      'set-collection',
      '--flow-crn',
      flowCrn('sales-ingest'),
      '--catalog-collection-crn',
      collection,
    ]);
    expect(assigned.flowSummary).toMatchObject({ collectionCrn: collection, collectionName: 'ingest' });
    const described = await em.json<{ catalogCollection: { flowCount: number; flowSummaries: Array<{ name: string }> } }>([
      'df',
      'collections',
      'describe',
      '--catalog-collection-crn',
      collection,
    ]);
    expect(described.catalogCollection).toMatchObject({ flowCount: 1, flowSummaries: [{ name: 'sales-ingest' }] });
    const inIt = await em.json<{ flows: Array<{ name: string }> }>(['df', 'flows', 'list', '--collection-crn', collection]);
    expect(inIt.flows.map((f) => f.name)).toEqual(['sales-ingest']);
    await refused(['df', 'collections', 'delete', '--catalog-collection-crn', collection, '--yes'], 'FAILED_PRECONDITION');
    await em.json(['df', 'collections', 'update', '--catalog-collection-crn', collection, '--name', 'sales']);
    await em.json(['df', 'flows', 'set-collection', '--flow-crn', flowCrn('sales-ingest')]);
    await em.json(['df', 'collections', 'delete', '--catalog-collection-crn', collection, '--yes']);
    const left = await em.json<{ collections?: unknown[] }>(['df', 'collections', 'list']);
    expect(left.collections ?? []).toEqual([]);
  });

  test('a ReadyFlow is added to the catalog with its versions, and removed', async () => {
    const ready = await em.json<{ readyflows: Array<{ readyflowCrn: string; name: string; imported: boolean }> }>([
      'df',
      'readyflows',
      'list',
      '--search-term',
      'kafka to s3',
    ]);
    expect(ready.readyflows).toEqual([expect.objectContaining({ name: 'Kafka to S3', imported: false })]);
    const readyflow = ready.readyflows[0]?.readyflowCrn ?? '';
    const added = await em.json<{ addedReadyflowDetail: { addedReadyflowCrn: string; versions: FlowVersion[] } }>([
      'df',
      'readyflows',
      'add',
      '--readyflow-crn',
      readyflow,
    ]);
    const addedCrn = added.addedReadyflowDetail.addedReadyflowCrn;
    expect(addedCrn).toBe(`crn:cdp:df:us-west-1:${ACCOUNT}:readyFlow:kafka-to-s3`);
    expect(added.addedReadyflowDetail.versions.map((v) => v.version)).toEqual([1, 2, 3]);
    await refused(['df', 'readyflows', 'add', '--readyflow-crn', readyflow], 'ALREADY_EXISTS');
    const listed = await em.json<{ readyflows: Array<{ imported: boolean; importedArtifactCrn?: string }> }>([
      'df',
      'readyflows',
      'list',
      '--search-term',
      'kafka to s3',
    ]);
    expect(listed.readyflows[0]).toMatchObject({ imported: true, importedArtifactCrn: addedCrn });
    const flows = await em.json<{ flows: Array<{ crn: string; artifactType: string }> }>(['df', 'flows', 'list']);
    expect(flows.flows).toContainEqual(expect.objectContaining({ crn: addedCrn, artifactType: 'readyFlow' }));
    const def = await em.json<{ flowContents: { name: string } }>(['df', 'flow-versions', 'get', '--flow-version-crn', `${addedCrn}/v.3`]);
    expect(def.flowContents.name).toBe('Kafka to S3');
    // A ReadyFlow gets its versions from Cloudera only.
    await refused(
      ['df', 'flow-versions', 'import', '--flow-crn', addedCrn, '--file', file('mine.json', definition('mine', 1))],
      'FAILED_PRECONDITION',
    );
    const removed = await em.json<{ readyflowDetail: { imported: boolean } }>([
      'df',
      'readyflows',
      'remove',
      '--added-readyflow-crn',
      addedCrn,
      '--yes',
    ]);
    expect(removed.readyflowDetail.imported).toBe(false);
    await refused(['df', 'readyflows', 'describe-added', '--added-readyflow-crn', addedCrn], 'NOT_FOUND');
  });
});

describe('a project and a deployment of a catalog version', () => {
  let project = '';
  let deployment = '';

  test('a project is created in a service; a change needs the current revision', async () => {
    const made = await em.json<{ project: { crn: string; revision: number; service: { crn: string } } }>([
      'df',
      'projects',
      'create',
      '--name',
      'sales',
      '--service-crn',
      SERVICE,
      '--description',
      'Sales team flows',
    ]);
    project = made.project.crn;
    expect(made.project).toMatchObject({ revision: 1, service: { crn: SERVICE } });
    await refused(['df', 'projects', 'create', '--name', 'sales', '--service-crn', SERVICE], 'ALREADY_EXISTS');
    await refused(
      ['df', 'projects', 'update', '--project-crn', project, '--project-revision', '7', '--project-name', 'x'],
      'FAILED_PRECONDITION',
    );
    const updated = await em.json<{ project: { name: string; revision: number } }>([
      'df',
      'projects',
      'update',
      '--project-crn',
      project,
      '--project-revision',
      '1',
      '--project-name',
      'sales-eu',
    ]);
    expect(updated.project).toMatchObject({ name: 'sales-eu', revision: 2 });
  });

  test('deployments create --wait deploys a catalog version into the project; the catalog counts it', async () => {
    const r = await em.cli(
      deploy(
        'sales-ingest',
        2,
        '--project-crn',
        project,
        '--kpis',
        '[{"metricId":"cpuUtilization","alert":{"thresholdMoreThan":{"unitId":"percentage","value":75}}}]',
        '--wait',
        ...FAST,
        '--output',
        'json',
      ),
    );
    expect(r.code).toBe(0);
    const d = (
      JSON.parse(r.stdout) as {
        deployment: { crn: string; status: { state: string }; flowName: string; flowVersion: number; project: { name: string } };
      }
    ).deployment;
    deployment = d.crn;
    expect(d).toMatchObject({ status: { state: 'GOOD_HEALTH' }, flowName: 'sales-ingest', flowVersion: 2, project: { name: 'sales-eu' } });

    const versions = await em.json<{ flowVersions: FlowVersion[] }>(['df', 'flow-versions', 'list', '--flow-crn', flowCrn('sales-ingest')]);
    expect(versions.flowVersions.map((v) => [v.version, v.deploymentCount])).toEqual([
      [1, 0],
      [2, 1],
    ]);
    await refused(['df', 'flows', 'delete', '--flow-crn', flowCrn('sales-ingest'), '--yes'], 'FAILED_PRECONDITION');

    const events = await em.json<{ eventSummaries: Array<{ crn: string; eventType: string; severity: string }> }>([
      'df',
      'deployments',
      'events',
      '--deployment-crn',
      deployment,
    ]);
    expect(events.eventSummaries[0]).toMatchObject({ eventType: 'DEPLOYMENT_CREATE', severity: 'INFO' });
    const detail = await em.json<{ eventDetail: { event: { referenceType: string; description: string } } }>([
      'df',
      'deployments',
      'event-detail',
      '--deployment-crn',
      deployment,
      '--event-crn',
      events.eventSummaries[0]?.crn ?? '',
    ]);
    expect(detail.eventDetail.event).toMatchObject({ referenceType: 'DEPLOYMENT', description: expect.stringContaining('sales-ingest') });
    const kpis = await em.json<{
      metricCharts: Array<{ name: string; alert: { thresholdMoreThan: number }; metrics: { datas: unknown[] } }>;
    }>(['df', 'deployments', 'kpis', '--deployment-crn', deployment, '--metrics-time-period', 'LAST_ONE_HOUR']);
    expect(kpis.metricCharts).toEqual([
      expect.objectContaining({ name: 'CPU utilization', alert: expect.objectContaining({ thresholdMoreThan: 75 }) }),
    ]);
    expect(kpis.metricCharts[0]?.metrics.datas.length).toBeGreaterThan(0);
    const metrics = await em.json<{ metricCharts: unknown[] }>([
      'df',
      'deployments',
      'metrics',
      '--deployment-crn',
      deployment,
      '--metrics-time-period',
      'LAST_THIRTY_MINUTES',
    ]);
    expect(metrics.metricCharts.length).toBeGreaterThan(0);
    const inProject = await em.json<{ deployments: Array<{ crn: string }> }>([
      'df',
      'deployments',
      'list',
      '--filters',
      `project:${project}`,
    ]);
    expect(inProject.deployments.map((x) => x.crn)).toEqual([deployment]);
    const alerts = await em.json<{ eventSummaries?: unknown[] }>(['df', 'deployments', 'alerts', '--deployment-crn', deployment]);
    expect(alerts.eventSummaries ?? []).toEqual([]);
  });

  test('a project delete --wait ends with it gone; its deployment stays, unassigned', async () => {
    const now = await em.json<{ project: { revision: number } }>(['df', 'projects', 'describe', '--project-crn', project]);
    const r = await em.cli([
      'df',
      'projects',
      'delete',
      '--project-crn',
      project,
      '--project-revision',
      String(now.project.revision),
      '--yes',
      '--wait',
      ...FAST,
    ]);
    expect(r.code).toBe(0);
    await refused(['df', 'projects', 'describe', '--project-crn', project], 'NOT_FOUND');
    const d = await em.json<{ deployment: { project?: unknown } }>(['df', 'deployments', 'describe', '--deployment-crn', deployment]);
    expect(d.deployment.project).toBeUndefined();
  });

  test('a delete under way is cancelled with the revision the delete moved on to', async () => {
    const made = await em.json<{ project: { crn: string; revision: number } }>([
      'df',
      'projects',
      'create',
      '--name',
      'ops',
      '--service-crn',
      SERVICE,
    ]);
    const crn = made.project.crn;
    await em.raw(['emulator', 'clock', '--pause', '--data-dir', em.dataDir]);
    try {
      await em.json(['df', 'projects', 'delete', '--project-crn', crn, '--project-revision', '1', '--yes']);
      const deleting = await em.json<{ project: { deleting: boolean; revision: number } }>([
        'df',
        'projects',
        'describe',
        '--project-crn',
        crn,
      ]);
      expect(deleting.project).toEqual(expect.objectContaining({ deleting: true, revision: 2 }));
      await refused(['df', 'projects', 'cancel-delete', '--project-crn', crn, '--project-revision', '1'], 'FAILED_PRECONDITION');
      await em.json(['df', 'projects', 'cancel-delete', '--project-crn', crn, '--project-revision', '2']);
    } finally {
      await em.raw(['emulator', 'clock', '--resume', '--data-dir', em.dataDir]);
    }
    const kept = await em.json<{ project: { deleting: boolean; revision: number } }>(['df', 'projects', 'describe', '--project-crn', crn]);
    expect(kept.project).toEqual(expect.objectContaining({ deleting: false, revision: 3 }));
  });
});

describe('failure paths', () => {
  test('a fail- deployment ends in BAD_HEALTH under --wait, with an active alert', async () => {
    const r = await em.cli(deploy('fail-orders', 1, '--wait', ...FAST));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/BAD_HEALTH/);
    const list = await em.json<{ deployments: Array<{ crn: string; name: string; activeErrorAlertCount: number }> }>([
      'df',
      'deployments',
      'list',
      '--search-term',
      'fail-orders',
    ]);
    expect(list.deployments[0]).toMatchObject({ name: 'fail-orders', activeErrorAlertCount: 1 });
    const alerts = await em.json<{ eventSummaries: Array<{ severity: string; alertType: string }> }>([
      'df',
      'deployments',
      'alerts',
      '--deployment-crn',
      list.deployments[0]?.crn ?? '',
    ]);
    expect(alerts.eventSummaries).toEqual([expect.objectContaining({ severity: 'ERROR', alertType: 'HEALTH' })]);
  });

  test('a diagnostics collection described fail- ends FAILED; the service collects and is healthy again', async () => {
    const r = await em.cli(collect('--destination', 'SUPPORT', '--description', 'fail-bundle', '--wait', ...FAST));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/FAILED/);
    const ok = await em.json<{ diagnostics: Array<{ status: string; bundleCloudPath?: string }> }>(
      collect('--destination', 'CLOUD_STORAGE', '--description', 'nightly', '--wait', ...FAST),
    );
    expect(ok.diagnostics[0]).toMatchObject({
      status: 'SUCCESS',
      bundleCloudPath: expect.stringMatching(/^s3a:\/\/sales-env-logs\/.*\.zip$/),
    });
    const all = await em.json<{ diagnostics: Array<{ description: string; status: string }> }>([
      'df',
      'diagnostics',
      'list',
      '--df-service-crn',
      SERVICE,
    ]);
    expect(all.diagnostics.map((x) => [x.description, x.status])).toEqual([
      ['fail-bundle', 'FAILED'],
      ['nightly', 'SUCCESS'],
    ]);
    const events = await em.json<{ eventSummaries: Array<{ eventType: string }> }>(['df', 'services', 'events', '--service-crn', SERVICE]);
    expect(events.eventSummaries.map((e) => e.eventType)).toContain('SERVICE_COLLECT_DIAGNOSTICS');
  });

  test('DataFlow in a fail- environment ends in BAD_HEALTH under --wait; the service that never got enabled is reset', async () => {
    const env = await em.json<{ environment: { crn: string } }>([
      'environments',
      'create',
      'aws',
      '--environment-name',
      'fail-stop-flows',
      '--credential-name',
      'sales-env-credential',
      '--region',
      'us-west-2',
      '--security-access',
      'cidr=10.0.0.0/16',
      '--authentication',
      'publicKeyId=flows-key',
      '--log-storage',
      'storageLocationBase=s3a://flows-logs/logs,instanceProfile=arn:aws:iam::123456789012:instance-profile/flows-logs',
      '--vpc-id',
      'vpc-0a1b2c3d4e5f67890',
      '--subnet-ids',
      'subnet-0a1b2c3d4e5f67890',
      '--wait',
      ...FAST,
    ]);
    const enable = await em.cli([
      'df',
      'services',
      'enable',
      '--environment-crn',
      env.environment.crn,
      '--min-k8s-node-count',
      '3',
      '--max-k8s-node-count',
      '5',
      '--use-public-load-balancer',
      '--wait',
      ...FAST,
    ]);
    expect(enable.code).not.toBe(0);
    expect(enable.stderr).toMatch(/BAD_HEALTH/);
    const listed = await em.json<{ services: Array<{ crn: string; status: { state: string }; validActions: string[] }> }>([
      'df',
      'services',
      'list',
      '--search-term',
      'fail-stop-flows',
    ]);
    const failed = listed.services[0];
    expect(failed).toMatchObject({ status: { state: 'BAD_HEALTH' }, validActions: ['RESET', 'DISABLE'] });
    const alerts = await em.json<{ eventSummaries: unknown[] }>(['df', 'services', 'alerts', '--service-crn', failed?.crn ?? '']);
    expect(alerts.eventSummaries).toHaveLength(1);
    // A healthy service is not reset; this one is, and is gone.
    await refused(['df', 'services', 'reset', '--service-crn', SERVICE, '--yes'], 'FAILED_PRECONDITION');
    const reset = await em.cli(['df', 'services', 'reset', '--service-crn', failed?.crn ?? '', '--yes', '--wait', ...FAST]);
    expect(reset.code).toBe(0);
    await refused(['df', 'services', 'describe', '--service-crn', failed?.crn ?? ''], 'NOT_FOUND');
  });
});

describe('bad input', () => {
  test('a flow, ReadyFlow or project that does not exist is NOT_FOUND', async () => {
    await refused(['df', 'flows', 'describe', '--flow-crn', flowCrn('no-such-flow')], 'NOT_FOUND');
    await refused(['df', 'readyflows', 'describe', '--readyflow-crn', `crn:cdp:df:us-west-1:${ACCOUNT}:readyFlow:no-such`], 'NOT_FOUND');
    await refused(['df', 'projects', 'describe', '--project-crn', `crn:cdp:df:us-west-1:${ACCOUNT}:project:x/y`], 'NOT_FOUND');
    await refused(['df', 'flow-versions', 'get', '--flow-version-crn', `${flowCrn('sales-ingest')}/v.9`], 'NOT_FOUND');
    // A catalog flow is deployed at a version it has.
    await refused(
      ['df', 'deployments', 'initiate', '--service-crn', SERVICE, '--flow-version-crn', `${flowCrn('sales-ingest')}/v.9`],
      'NOT_FOUND',
    );
  });

  test('a refused import writes nothing', async () => {
    const before = await em.json<{ flows: unknown[] }>(['df', 'flows', 'list']);
    await refused(['df', 'flows', 'import', '--file', file('not-json.json', 'this is no flow'), '--name', 'broken'], 'INVALID_ARGUMENT');
    await refused(['df', 'flows', 'import', '--file', file('no-contents.json', '{"name":"x"}'), '--name', 'broken'], 'INVALID_ARGUMENT');
    await refused(['df', 'flows', 'import', '--file', file('ok.json', definition('x', 1)), '--name', 'a/b'], 'INVALID_ARGUMENT');
    await refused(['df', 'flows', 'import', '--file', file('dup.json', definition('x', 1)), '--name', 'SALES-INGEST'], 'ALREADY_EXISTS');
    await refused(
      [
        'df',
        'flows',
        'import',
        '--file',
        file('col.json', definition('x', 1)),
        '--name',
        'other',
        '--collection-crn',
        `crn:cdp:df:us-west-1:${ACCOUNT}:catalogCollection:none`,
      ],
      'NOT_FOUND',
    );
    const after = await em.json<{ flows: unknown[] }>(['df', 'flows', 'list']);
    expect(after.flows).toEqual(before.flows);
  });

  test('other bad requests are 4xx and change nothing', async () => {
    const diagnostics = await em.json<{ diagnostics: unknown[] }>(['df', 'diagnostics', 'list', '--df-service-crn', SERVICE]);
    await refused(
      collect(
        '--destination',
        'SUPPORT',
        '--description',
        'x',
        '--start-time',
        '2026-01-06T00:00:00Z',
        '--end-time',
        '2026-01-05T00:00:00Z',
      ),
      'INVALID_ARGUMENT',
    );
    expect(await em.json(['df', 'diagnostics', 'list', '--df-service-crn', SERVICE])).toEqual(diagnostics);
    await refused(['df', 'services', 'metrics', '--service-crn', SERVICE, '--metrics-time-period', 'LAST_WEEK'], 'INVALID_ARGUMENT');
    await refused(['df', 'kubernetes-access', 'grant', '--service-crn', SERVICE, '--cloud-user-id', 'bob'], 'INVALID_ARGUMENT');
    expect(await em.json(['df', 'kubernetes-access', 'list', '--service-crn', SERVICE])).toEqual({ cloudUserIds: [] });
    await refused(['df', 'deployments', 'list', '--filters', 'colour:red'], 'INVALID_ARGUMENT');
    await refused(['df', 'filter-options', 'list', '--filter-type', 'colour'], 'INVALID_ARGUMENT');
    await refused(
      ['df', 'flow-versions', 'tag', '--flow-version-crn', `${flowCrn('sales-ingest')}/v.1`, '--tag-name', 'x', '--tag-color', 'red'],
      'INVALID_ARGUMENT',
    );
  });

  test('Kubernetes access is granted, listed and revoked; the kubeconfig names the cluster', async () => {
    const user = 'arn:aws:iam::123456789012:role/dataflow-admins';
    await em.json(['df', 'kubernetes-access', 'grant', '--service-crn', SERVICE, '--cloud-user-id', user]);
    await refused(['df', 'kubernetes-access', 'grant', '--service-crn', SERVICE, '--cloud-user-id', user], 'ALREADY_EXISTS');
    expect(await em.json(['df', 'kubernetes-access', 'list', '--service-crn', SERVICE])).toEqual({ cloudUserIds: [user] });
    await em.json(['df', 'kubernetes-access', 'revoke', '--service-crn', SERVICE, '--cloud-user-id', user, '--yes']);
    await refused(['df', 'kubernetes-access', 'revoke', '--service-crn', SERVICE, '--cloud-user-id', user, '--yes'], 'NOT_FOUND');
    const kube = await em.json<{ kubeconfig: string }>(['df', 'services', 'kubeconfig', '--service-crn', SERVICE]);
    expect(kube.kubeconfig).toMatch(/^apiVersion: v1\nkind: Config\n/);
    // What kubectl reads of it: one cluster, its context current, and a user with a bearer token.
    const doc = parseYaml(kube.kubeconfig) as {
      clusters: { name: string; cluster: { server: string } }[];
      contexts: { name: string; context: { cluster: string; user: string } }[];
      'current-context': string;
      users: { name: string; user: { token: string } }[];
    };
    expect(doc.clusters).toHaveLength(1);
    const cluster = doc.clusters[0]!.name;
    expect(cluster).toMatch(/^dfx-/);
    expect(doc.clusters[0]!.cluster.server).toMatch(new RegExp(`^https://${cluster}\\.`));
    expect(doc['current-context']).toBe(cluster);
    expect(doc.contexts).toEqual([{ name: cluster, context: { cluster, user: `${cluster}-admin` } }]);
    expect(doc.users).toEqual([{ name: `${cluster}-admin`, user: { token: expect.stringMatching(/^[0-9a-f-]{36}$/) } }]);
    const rotated = await em.cli(['df', 'services', 'rotate-password', '--service-crn', SERVICE, '--wait', ...FAST]);
    expect(rotated.code).toBe(0);
    const after = await em.json<{ kubeconfig: string }>(['df', 'services', 'kubeconfig', '--service-crn', SERVICE]);
    expect(after.kubeconfig).not.toBe(kube.kubeconfig);
  });
});
