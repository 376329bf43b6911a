/**
 * The DataFlow service (df) through bin/run.js against a recording server
 * that plays the control plane and the workload endpoint (the emulator does
 * not implement df yet): the client-side steps `cdp df` runs around
 * deployments, flow version changes and flow imports, their clean-ups on
 * failure, and --wait of workload deployment commands reading the state from
 * df instead of sending the change again.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueKey } from '../../src/lib/emulator/keys.js';
import { runCli, tempHome } from '../helpers/cli.js';
import { SIGNED, startScriptedServer, type Recorded, type Reply, type ScriptedServer } from '../helpers/recording-server.js';

const ACCT = '9d74eee4-1cad-45d7-b645-7ccf9edbb73d';
const ENV = `crn:cdp:environments:us-west-1:${ACCT}:environment:env-1`;
const SVC = `crn:cdp:df:us-west-1:${ACCT}:service:svc-1`;
const DEP = `crn:cdp:df:us-west-1:${ACCT}:deployment:svc-1/dep-1`;
const FLOW_IN_DEP = `crn:cdp:df:us-west-1:${ACCT}:deployedFlow:svc-1/flow-1`;
const FLOW_V1 = `crn:cdp:df:us-west-1:${ACCT}:flow:sales-ingest/v.1`;
const REQ = `crn:cdp:df:us-west-1:${ACCT}:deploymentRequest:req-1`;
const ASSET_REQ = `crn:cdp:df:us-west-1:${ACCT}:assetUpdateRequest:asset-1`;
const TOKEN = 'test-workload-token';

let server: ScriptedServer;
const key = issueKey('V2');
const home = tempHome();
const env = { CDP_ACCESS_KEY_ID: 'test-key-id', CDP_PRIVATE_KEY: key.privateKey };
/** Runs a command line against the server; with --wait, polls come back to back. */
const cli = (args: readonly string[]) =>
  runCli([...args, '--endpoint-url', server.localUrl, ...(args.includes('--wait') ? ['--poll-interval', '0'] : [])], {
    home,
    cwd: home,
    env,
  });

/** The control plane and the workload endpoint as each test needs them, on top of the common answers. */
function play(extra: Record<string, Reply[]> = {}): void {
  server.play({
    initiateDeployment: [{ body: { deploymentRequestCrn: REQ, dfxLocalUrl: server.localUrl } }],
    listDeployableServicesForNewDeployments: [{ body: { services: [{ crn: SVC, environmentCrn: ENV }] } }],
    generateWorkloadAuthToken: [{ body: { token: TOKEN, endpointUrl: `${server.localUrl}dfx/` } }],
    ...extra,
  });
}

/** The requests sent, as `path` (query left out) in order. */
/** `df deployments create` of one flow version into one service, as every create below starts. */
const CREATE = ['df', 'deployments', 'create', '--service-crn', SVC, '--flow-version-crn', FLOW_V1, '--deployment-name', 'sales-ingest'];
const paths = (): string[] => server.requests.map((r) => r.path.split('?')[0] ?? '');
const last = (path: string): Recorded | undefined => server.requests.filter((r) => r.path.startsWith(path)).at(-1);
const mutatingTwice = (): string[] => {
  const seen = new Map<string, number>();
  for (const p of paths()) seen.set(p, (seen.get(p) ?? 0) + 1);
  return [...seen].filter(([p, n]) => n > 1 && !/describe|list|get/i.test(p)).map(([p]) => p);
};

beforeAll(async () => {
  server = await startScriptedServer();
  mkdirSync(join(home, 'assets'), { recursive: true });
  writeFileSync(join(home, 'assets', 'truststore.jks'), 'truststore bytes');
  writeFileSync(join(home, 'flow.json'), '{"flowContents": {"name": "sales-ingest"}}');
});
beforeEach(() => play());
afterAll(async () => server.close());

describe('df deployments create (steps cdp runs on the client)', () => {
  const ASSETS = `[{"name":"kafka","parameters":[{"name":"brokers","value":"b1:9093"},{"name":"truststore","assetReferences":["assets/truststore.jks"]}]}]`;

  it('initiates, registers, uploads the asset, creates, and --wait reads the state from df', async () => {
    play({
      'create-deployment': [{ body: { deployment: { crn: DEP } } }],
      describeDeployment: [
        { body: { deployment: { crn: DEP, status: { state: 'DEPLOYING' } } } },
        { body: { deployment: { crn: DEP, name: 'sales-ingest', status: { state: 'GOOD_HEALTH' } } } },
      ],
    });
    const r = await cli([...CREATE, '--flow-name', 'orders', '--parameter-groups', ASSETS, '--wait']);
    expect(r.stderr).toContain('GOOD_HEALTH');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ deployment: { crn: DEP, status: { state: 'GOOD_HEALTH' } } });
    expect(paths()).toEqual([
      '/api/v1/df/initiateDeployment',
      '/api/v1/df/listDeployableServicesForNewDeployments',
      '/iam/generateWorkloadAuthToken',
      '/dfx/api/rpc-v1/deployments/get-deployment-request-details',
      '/dfx/api/rpc-v1/deployments/upload-asset-content',
      '/dfx/api/rpc-v1/deployments/create-deployment',
      '/api/v1/df/describeDeployment',
      '/api/v1/df/describeDeployment',
    ]);
    const upload = last('/dfx/api/rpc-v1/deployments/upload-asset-content');
    expect(upload?.body).toBe('truststore bytes');
    expect(upload?.headers).toMatchObject({
      'content-type': 'application/octet-stream',
      'deployment-request-crn': REQ,
      'deployment-name': 'sales-ingest',
      'deployed-flow-name': 'orders',
      'parameter-group': 'kafka',
      'parameter-name': 'truststore',
      'file-path': 'assets/truststore.jks',
      authorization: `Bearer ${TOKEN}`,
    });
    expect(last('/dfx/api/rpc-v1/deployments/create-deployment')?.json).toEqual({
      name: 'sales-ingest',
      deploymentRequestCrn: REQ,
      configurationVersion: 0,
      staticNodeCount: 1,
      deployedFlowName: 'orders',
      clusterSize: { name: 'EXTRA_SMALL' },
      parameterGroups: [
        {
          name: 'kafka',
          parameters: [
            { name: 'brokers', value: 'b1:9093' },
            { name: 'truststore', assetReferences: [{ name: 'truststore.jks', path: 'assets', version: '0' }] },
          ],
        },
      ],
      environmentCrn: ENV,
    });
    // df is signed; the workload calls carry the token.
    expect(last('/api/v1/df/describeDeployment')?.headers['x-altus-auth']).toMatch(SIGNED);
    expect(last('/api/v1/df/describeDeployment')?.json).toEqual({ deploymentCrn: DEP });
  });

  it('a refused create aborts the deployment request and deletes the custom configurations it made', async () => {
    play({
      'create-custom-nar-configuration': [{ body: { crn: 'crn:nar', configurationVersion: 0 } }],
      'create-custom-python-configuration': [{ body: { crn: 'crn:python', configurationVersion: 3 } }],
      'create-deployment': [{ status: 400, body: { code: 'INVALID_ARGUMENT', message: 'no capacity' } }],
    });
    const r = await cli([
      'df',
      'create-deployment',
      '--service-crn',
      SVC,
      '--flow-version-crn',
      FLOW_V1,
      '--deployment-name',
      'sales-ingest',
      '--custom-nar-configuration',
      'username=u,password=p,storageLocation=s3a://b/nars,configurationVersion=0',
      '--custom-python-configuration',
      'username=u,password=p,storageLocation=s3a://b/py,configurationVersion=3',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no capacity');
    expect(paths().slice(-3)).toEqual([
      '/dfx/api/rpc-v1/deployments/abort-deployment-request',
      '/dfx/api/rpc-v1/custom-nar-configurations/delete-custom-nar-configuration',
      '/dfx/api/rpc-v1/custom-python-configurations/delete-custom-python-configuration',
    ]);
    expect(last('/dfx/api/rpc-v1/deployments/abort-deployment-request')?.json).toEqual({ deploymentRequestCrn: REQ, environmentCrn: ENV });
    expect(last('/dfx/api/rpc-v1/custom-python-configurations/delete')?.json).toEqual({
      customPythonConfigurationCrn: 'crn:python',
      configurationVersion: 3,
      environmentCrn: ENV,
    });
  });

  it('a custom NAR configuration that exists (409) is the default one, updated', async () => {
    play({
      'create-custom-nar-configuration': [{ status: 409, body: { code: 'ALREADY_EXISTS', message: 'exists' } }],
      'get-default-custom-nar-configuration': [{ body: { crn: 'crn:nar-default', configurationVersion: 7 } }],
      'update-custom-nar-configuration': [{ body: { crn: 'crn:nar-default', configurationVersion: 8 } }],
      'create-deployment': [{ body: { deployment: { crn: DEP } } }],
    });
    const r = await cli([
      ...CREATE,
      '--custom-nar-configuration',
      'username=u,password=p,storageLocation=s3a://b/nars,configurationVersion=0',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ deploymentCrn: DEP });
    expect(last('/dfx/api/rpc-v1/custom-nar-configurations/update')?.json).toEqual({
      username: 'u',
      password: 'p',
      storageLocation: 's3a://b/nars',
      configurationVersion: 7,
      environmentCrn: ENV,
      crn: 'crn:nar-default',
    });
    expect(last('/dfx/api/rpc-v1/deployments/create-deployment')?.json).toMatchObject({ customNarConfigurationCrn: 'crn:nar-default' });
  });

  it('a missing asset file or both archive flags are refused before anything is sent (exit 2)', async () => {
    const missing = await cli([
      ...CREATE,
      '--parameter-groups',
      '[{"name":"g","parameters":[{"name":"p","assetReferences":["assets/nope.jks"]}]}]',
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('assets/nope.jks');
    const both = await cli([...CREATE, '--from-archive', 'a', '--import-parameters-from', 'b']);
    expect(both.code).toBe(2);
    expect(server.requests).toHaveLength(0);
  });
});

describe('df deployed-flows change-version', () => {
  it('uploads new files under an asset update request named by the deployment and flow names', async () => {
    play({
      initiateFlowInDeployment: [{ body: { deployedFlowRequestCrn: 'crn:flow-req', dfxLocalUrl: server.localUrl } }],
      'create-asset-update-request': [{ body: { assetUpdateRequestCrn: ASSET_REQ } }],
      describeDeployment: [{ body: { deployment: { crn: DEP, name: 'sales-ingest' } } }],
      describeFlowInDeployment: [{ body: { deployedFlow: { crn: FLOW_IN_DEP, name: 'orders' } } }],
      'change-flow-version-in-deployment': [{ body: { deployedFlowConfiguration: { deployedFlowCrn: FLOW_IN_DEP } } }],
    });
    const groups = '[{"name":"kafka","parameters":[{"name":"truststore","assetReferences":[{"path":"assets/truststore.jks"}]}]}]';
    const r = await cli([
      'df',
      'deployed-flows',
      'change-version',
      '--service-crn',
      SVC,
      '--flow-version-crn',
      FLOW_V1,
      '--deployment-crn',
      DEP,
      '--deployed-flow-crn',
      FLOW_IN_DEP,
      '--parameter-groups',
      groups,
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ crn: FLOW_IN_DEP });
    expect(last('/dfx/api/rpc-v1/deployments/upload-asset-content')?.headers).toMatchObject({
      'asset-update-request-crn': ASSET_REQ,
      'deployment-name': 'sales-ingest',
      'deployed-flow-name': 'orders',
      'file-path': 'assets/truststore.jks',
    });
    expect(last('/dfx/api/rpc-v1/deployed-flows/change-flow-version-in-deployment')?.json).toEqual({
      environmentCrn: ENV,
      deploymentRequestCrn: 'crn:flow-req',
      deploymentCrn: DEP,
      deployedFlowCrn: FLOW_IN_DEP,
      assetUpdateRequestCrn: ASSET_REQ,
      parameterGroups: [
        { name: 'kafka', parameters: [{ name: 'truststore', assetReferences: [{ path: 'assets', name: 'truststore.jks' }] }] },
      ],
    });
  });

  it('a failed upload aborts the asset update request (exit 1)', async () => {
    play({
      initiateDeployment: [{ body: { deploymentRequestCrn: REQ, dfxLocalUrl: server.localUrl } }],
      'create-asset-update-request': [{ body: { assetUpdateRequestCrn: ASSET_REQ } }],
      'upload-asset-content': [{ status: 400, body: { code: 'INVALID_ARGUMENT', message: 'asset too large' } }],
    });
    const r = await cli([
      'df',
      'deployments',
      'change-flow-version',
      '--service-crn',
      SVC,
      '--flow-version-crn',
      FLOW_V1,
      '--deployment-crn',
      DEP,
      '--parameter-groups',
      '[{"name":"kafka","parameters":[{"name":"truststore","assetReferences":[{"path":"assets/truststore.jks"}]}]}]',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('asset too large');
    expect(last('/dfx/api/rpc-v1/deployments/abort-asset-update-request')?.json).toEqual({
      deploymentCrn: DEP,
      environmentCrn: ENV,
      assetUpdateRequestCrn: ASSET_REQ,
    });
    expect(paths()).not.toContain('/dfx/api/rpc-v1/deployments/change-flow-version');
  });
});

describe('the flow catalog', () => {
  it('flows import follows the redirect and streams the file, signed, with URI-encoded headers', async () => {
    play({
      importFlowDefinition: [{ status: 307, headers: { location: `${server.localUrl}upload/flows?session=9` }, body: {} }],
      flows: [{ body: { crn: 'crn:flow', name: 'sales ingest' } }],
    });
    const r = await cli([
      'df',
      'flows',
      'import',
      '--file',
      'flow.json',
      '--name',
      'sales ingest',
      '--description',
      'Kafka → S3 (raw)',
      '--comments',
      'first, v1',
      '--tags',
      '[{"tagName":"prod","tagColor":"#1b75bc"}]',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ crn: 'crn:flow', name: 'sales ingest' });
    expect(paths()).toEqual(['/api/v1/df/importFlowDefinition', '/upload/flows']);
    const upload = server.requests[1];
    expect(upload?.path).toBe('/upload/flows?session=9');
    expect(upload?.body).toBe('{"flowContents": {"name": "sales-ingest"}}');
    // As Python's urllib.parse.quote writes them (with cdp's `{ "tags": ...}` wrapper for tags).
    expect(upload?.headers).toMatchObject({
      'content-type': 'application/json',
      'flow-definition-name': 'sales%20ingest',
      'flow-definition-description': 'Kafka%20%E2%86%92%20S3%20%28raw%29',
      'flow-definition-comments': 'first%2C%20v1',
      'flow-definition-tags': '%7B%20%22tags%22%3A%20%5B%7B%22tagName%22%3A%20%22prod%22%2C%20%22tagColor%22%3A%20%22%231b75bc%22%7D%5D%7D',
    });
    expect(upload?.headers['flow-definition-collection-identifier']).toBeUndefined();
    expect(upload?.headers['x-altus-auth']).toMatch(SIGNED);
  });

  it('an import the control plane does not redirect fails clearly (exit 1)', async () => {
    play({ importFlowDefinitionVersion: [{ body: {} }] });
    const r = await cli(['df', 'flow-versions', 'import', '--flow-crn', 'crn:flow', '--file', 'flow.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/NO_REDIRECT: df importFlowDefinitionVersion: the answer has no \(absolute\) redirect/);
    expect(server.requests).toHaveLength(1);
  });

  it('flow-versions get prints the decoded flow definition', async () => {
    const definition = { flowContents: { name: 'sales-ingest', processors: [{ name: 'ConsumeKafka' }] } };
    play({ getFlowVersion: [{ body: { flowDefinition: Buffer.from(JSON.stringify(definition)).toString('base64') } }] });
    const r = await cli(['df', 'flow-versions', 'get', '--flow-version-crn', FLOW_V1]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(definition);
  });
});

describe('dataflow --wait reads the state from df and never sends the change again', () => {
  const WL = ['--environment-crn', ENV];

  it('deployments suspend --wait polls df describeDeployment until SUSPENDED', async () => {
    play({
      'suspend-deployment': [{ body: { deployment: { crn: DEP, status: { state: 'SUSPENDING' } } } }],
      describeDeployment: [
        { body: { deployment: { crn: DEP, status: { state: 'SUSPENDING' } } } },
        { body: { deployment: { crn: DEP, status: { state: 'SUSPENDING' } } } },
        { body: { deployment: { crn: DEP, status: { state: 'SUSPENDED' } } } },
      ],
    });
    const r = await cli(['dataflow', 'deployments', 'suspend', ...WL, '--deployment-crn', DEP, '--wait']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ deployment: { status: { state: 'SUSPENDED' } } });
    expect(server.sent('suspend-deployment')).toHaveLength(1);
    expect(server.sent('describeDeployment')).toEqual([{ deploymentCrn: DEP }, { deploymentCrn: DEP }, { deploymentCrn: DEP }]);
    expect(mutatingTwice()).toEqual([]);
  });

  it('flows stop --wait polls df describeFlowInDeployment; a flow in BAD_HEALTH ends it with exit 5', async () => {
    play({
      'stop-flow-in-deployment': [{ body: { deployedFlow: { crn: FLOW_IN_DEP, status: { state: 'STOPPING_FLOW' } } } }],
      describeFlowInDeployment: [
        { body: { deployedFlow: { status: { state: 'STOPPING_FLOW' } } } },
        { body: { deployedFlow: { status: { state: 'BAD_HEALTH', message: 'processor stuck' } } } },
      ],
    });
    const r = await cli(['dataflow', 'flows', 'stop', ...WL, '--deployment-crn', DEP, '--deployed-flow-crn', FLOW_IN_DEP, '--wait']);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('processor stuck');
    expect(server.sent('stop-flow-in-deployment')).toHaveLength(1);
    expect(server.sent('describeFlowInDeployment')[0]).toEqual({ deploymentCrn: DEP, deployedFlowCrn: FLOW_IN_DEP });
    expect(mutatingTwice()).toEqual([]);
  });

  it('deployments terminate --wait ends when df no longer knows the deployment', async () => {
    play({
      'terminate-deployment': [{ body: {} }],
      describeDeployment: [
        { body: { deployment: { crn: DEP, status: { state: 'TERMINATING' } } } },
        { status: 404, body: { code: 'NOT_FOUND', message: 'no deployment' } },
      ],
    });
    const r = await cli(['dataflow', 'deployments', 'terminate', ...WL, '--deployment-crn', DEP, '--yes', '--wait']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('TERMINATED');
    expect(server.sent('terminate-deployment')).toHaveLength(1);
    expect(mutatingTwice()).toEqual([]);
  });
});
