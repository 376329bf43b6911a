/**
 * The dataflow workload service of the emulator in-process (no HTTP): states
 * read lazily off the clock, target-state calls that change nothing when
 * repeated, versioned configurations, uploads kept with their owner, and the
 * model's request checks for every handler. Also the CLI's workload token cache.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorkloadTokens } from '../../../../../src/lib/core/workload.js';
import { ApiError } from '../../../../../src/lib/emulator/errors.js';
import { preCreatedEnvironmentCrn } from '../../../../../src/lib/emulator/shared/pre-created.js';
import { Store } from '../../../../../src/lib/emulator/store.js';
import { operations } from '../../../../../src/lib/model/services/dataflow/wire.js';
import type { Caller, Doc, RequestContext } from '../../../../../src/lib/emulator/types.js';
import { clockAt, refusal, serviceCaller } from '../../../../helpers/emulator-unit.js';

const ACCOUNT = 'acct-1';
const ENV = preCreatedEnvironmentCrn(ACCOUNT, 'us-west-1', 'sales-env');
const info = { accountId: ACCOUNT, region: 'us-west-1', baseUrl: 'http://localhost:4242' };
const caller: Caller = { accountId: ACCOUNT, actorCrn: `crn:altus:iam:us-west-1:${ACCOUNT}:user:admin`, kind: 'user' };
const MIN = 60_000;

let store: Store;
let now: number;
const clock = clockAt(() => now);

const dfworkload = await serviceCaller('dfworkload', () => ({ store, clock, caller, info }));

const call = (op: string, req: Doc = {}, upload?: RequestContext['upload']): Doc =>
  dfworkload.call(op, { environmentCrn: ENV, ...req }, upload);

const fails = (op: string, req: Doc): ApiError => refusal(() => call(op, req), op);

let seq = 0;
/** A new deployment (its request's details read first), with any settings given; its answer. */
function deployment(name: string, settings: Doc = {}): Doc {
  const deploymentRequestCrn = `crn:cdp:df:us-west-1:acct-1:deploymentRequest:r${++seq}`;
  call('getDeploymentRequestDetails', { deploymentRequestCrn });
  return call('createDeployment', { name, configurationVersion: 0, deploymentRequestCrn, ...settings }).deployment as Doc;
}
const deploy = (name = 'd1'): string => String(deployment(name).crn);

const state = (crn: string): unknown => ((call('resumeDeployment', { deploymentCrn: crn }).deployment as Doc).status as Doc).state;

beforeEach(() => {
  store = new Store(':memory:', ACCOUNT);
  now = Date.parse('2026-01-01T00:00:00Z');
});

describe('dfworkload emulator backend', () => {
  test('implements every wire operation', () => {
    expect(Object.keys(operations).filter((op) => !dfworkload.serves(op))).toEqual([]);
    expect(Object.keys(operations)).toHaveLength(71);
  });

  test('a deployment deploys on the clock, read lazily; suspend repeated changes nothing', () => {
    const crn = deploy();
    expect(state(crn)).toBe('DEPLOYING');
    now += 10 * MIN;
    expect(state(crn)).toBe('GOOD_HEALTH');
    const s1 = call('suspendDeployment', { deploymentCrn: crn }).deployment as Doc;
    expect((s1.status as Doc).state).toBe('SUSPENDING');
    now += 10_000;
    expect(((call('suspendDeployment', { deploymentCrn: crn }).deployment as Doc).status as Doc).state).toBe('SUSPENDING');
    now += 5 * MIN;
    const s2 = call('suspendDeployment', { deploymentCrn: crn }).deployment as Doc;
    expect((s2.status as Doc).state).toBe('SUSPENDED');
    expect(((s2.deployedFlows as Doc[])[0]?.status as Doc).state).toBe('DEPLOYMENT_SUSPENDED');
    expect(fails('restartDeployment', { deploymentCrn: crn }).code).toBe('FAILED_PRECONDITION');
    expect(state(crn)).toBe('RESUMING');
    now += 5 * MIN;
    expect(state(crn)).toBe('GOOD_HEALTH');
    call('terminateDeployment', { deploymentCrn: crn });
    now += 5 * MIN;
    expect(fails('getDeploymentConfiguration', { deploymentCrn: crn }).status).toBe(404);
  });

  test('a NiFi version change shows the version it moves to, and a cancel the one it ran; a restart repeated changes nothing', () => {
    const crn = deploy();
    const nifi = (d: Doc): unknown => [(d.status as Doc).detailedState, d.cfmNifiVersion];
    const change = (to: string): Doc => call('updateNifiVersion', { deploymentCrn: crn, cfmNifiVersion: to }).deployment as Doc;
    expect(fails('updateNifiVersion', { deploymentCrn: crn, cfmNifiVersion: '2.0.0.4.3.1.0-40' }).code).toBe('FAILED_PRECONDITION');
    now += 10 * MIN;
    expect(fails('updateNifiVersion', { deploymentCrn: crn, cfmNifiVersion: '9.9' }).code).toBe('INVALID_ARGUMENT');
    expect(fails('updateNifiVersion', { deploymentCrn: crn, cfmNifiVersion: '1.28.1.2.3.16.0-5' }).message).toMatch(/already runs NiFi/);
    expect(nifi(change('2.0.0.4.3.1.0-40'))).toEqual(['UPDATING_NIFI_VERSION', '2.0.0.4.3.1.0-40']);
    const cancelled = call('cancelNifiVersionUpdate', { deploymentCrn: crn }).deployment as Doc;
    expect(nifi(cancelled)).toEqual(['CANCELLING_NIFI_VERSION_UPDATE', '1.28.1.2.3.16.0-5']);
    expect(fails('cancelNifiVersionUpdate', { deploymentCrn: crn }).message).toMatch(/is not changing its NiFi version/);
    now += 5 * MIN;
    expect(nifi(call('resumeDeployment', { deploymentCrn: crn }).deployment as Doc)).toEqual(['GOOD_HEALTH', '1.28.1.2.3.16.0-5']);
    change('2.0.0.4.3.1.0-40');
    now += 5 * MIN;
    expect(nifi(call('resumeDeployment', { deploymentCrn: crn }).deployment as Doc)).toEqual(['GOOD_HEALTH', '2.0.0.4.3.1.0-40']);
    const restart = (): Doc => (call('restartDeployment', { deploymentCrn: crn }).deployment as Doc).status as Doc;
    expect(restart().state).toBe('RESTARTING');
    now += MIN;
    expect(restart().state).toBe('RESTARTING');
    // The first restart's two minutes are over: the second changed nothing.
    now += MIN;
    expect(state(crn)).toBe('GOOD_HEALTH');
  });

  test('archives: a deployment exported under its name and the time, listed by a search term, imported into an open request', () => {
    const crn = String(deployment('sales ingest', { staticNodeCount: 2 }).crn);
    now += 10 * MIN;
    const { archiveName } = call('exportDeployment', { deploymentCrn: crn, archiveDescription: 'nightly' }) as { archiveName: string };
    expect(archiveName).toMatch(/^sales-ingest-20260101T001000Z-[0-9a-f]{4}$/);
    const listed = call('listDeploymentArchives', { searchTerm: 'SALES' }).archives as Doc[];
    expect(listed).toEqual([
      expect.objectContaining({ archiveName, archiveDescription: 'nightly', deploymentName: 'sales ingest', modifiedTime: now }),
    ]);
    expect(listed[0]?.deployedFlows).toEqual([expect.objectContaining({ flowDefinitionName: expect.any(String) })]);
    expect(call('listDeploymentArchives', { searchTerm: 'other' }).archives ?? []).toEqual([]);
    const deploymentRequestCrn = 'crn:cdp:df:us-west-1:acct-1:deploymentRequest:from-archive';
    call('getDeploymentRequestDetails', { deploymentRequestCrn });
    const imported = call('importDeployment', { deploymentRequestCrn, archiveName }).rpcImportedDeploymentConfiguration as Doc;
    expect(imported).toMatchObject({ staticNodeCount: 2, autoScalingEnabled: false, cfmNifiVersion: '1.28.1.2.3.16.0-5' });
    expect(fails('importDeployment', { deploymentRequestCrn, archiveName: 'none' }).code).toBe('NOT_FOUND');
    expect(fails('importDeployment', { deploymentRequestCrn, archiveName, flowName: 'no-such-flow' }).message).toMatch(/has no flow/);
  });

  test('configuration versions: stale updates fail with FAILED_PRECONDITION', () => {
    const crn = deploy();
    now += 10 * MIN;
    const up = call('updateDeployment', { deploymentCrn: crn, configurationVersion: 0, staticNodeCount: 2 }) as {
      deploymentConfiguration: Doc;
    };
    expect(up.deploymentConfiguration.configurationVersion).toBe(1);
    const e = fails('updateDeployment', { deploymentCrn: crn, configurationVersion: 0, staticNodeCount: 3 });
    expect([e.status, e.code]).toEqual([409, 'FAILED_PRECONDITION']);
    const nar = call('createCustomNarConfiguration', {
      username: 'u',
      password: 'secret',
      storageLocation: 's3a://bucket/nars',
      configurationVersion: 0,
    });
    expect(nar.password).not.toBe('secret');
    expect(
      fails('updateCustomNarConfiguration', {
        crn: nar.crn,
        username: 'u',
        password: 'p',
        storageLocation: 's3a://b/n',
        configurationVersion: 5,
      }).code,
    ).toBe('FAILED_PRECONDITION');
    expect(
      fails('createCustomNarConfiguration', { username: 'u', password: 'p', storageLocation: 'not a url', configurationVersion: 0 }).code,
    ).toBe('INVALID_ARGUMENT');
  });

  test('custom configurations: CRNs of DataFlow, a version each change moves on, the one a deployment uses, deleted only unused', () => {
    const spec = { username: 'u', password: 'secret', storageLocation: 's3a://bucket/nars', configurationVersion: 0 };
    const nar = call('createCustomNarConfiguration', spec);
    expect(String(nar.crn)).toMatch(/^crn:cdp:df:us-west-1:acct-1:customNarConfiguration:[0-9a-f-]{36}$/);
    expect(nar).toMatchObject({ username: 'u', password: '********', storageLocation: 's3a://bucket/nars', configurationVersion: 0 });
    expect(Object.keys(nar).sort()).toEqual(['configurationVersion', 'crn', 'password', 'storageLocation', 'username']);
    const python = call('createCustomPythonConfiguration', { ...spec, storageLocation: 's3a://bucket/py', configurationVersion: 3 });
    expect(String(python.crn)).toMatch(/:customPythonConfiguration:/);
    expect(call('getCustomPythonConfiguration', { customPythonConfigurationCrn: python.crn })).toMatchObject({ configurationVersion: 3 });
    expect(fails('getCustomPythonConfiguration', { customPythonConfigurationCrn: nar.crn }).code).toBe('NOT_FOUND');
    const up = call('updateCustomNarConfiguration', { ...spec, crn: nar.crn, username: 'v', storageLocation: 's3a://b/n2' });
    expect(up).toMatchObject({ crn: nar.crn, username: 'v', storageLocation: 's3a://b/n2', configurationVersion: 1, password: '********' });
    expect(call('getCustomNarConfiguration', { customNarConfigurationCrn: nar.crn })).toMatchObject({
      username: 'v',
      configurationVersion: 1,
    });
    expect(call('getDefaultCustomNarConfiguration')).toMatchObject({ crn: nar.crn });
    expect(fails('updateCustomNarConfiguration', { ...spec, crn: nar.crn, storageLocation: 'nowhere', configurationVersion: 1 }).code).toBe(
      'INVALID_ARGUMENT',
    );
    expect(fails('deleteCustomNarConfiguration', { customNarConfigurationCrn: nar.crn, configurationVersion: 0 }).code).toBe(
      'FAILED_PRECONDITION',
    );
    const deploymentCrn = String(deployment('uses-nar', { customNarConfigurationCrn: nar.crn }).crn);
    expect(call('getCustomNarConfiguration', { deploymentCrn })).toMatchObject({ crn: nar.crn });
    expect(fails('getCustomPythonConfiguration', { deploymentCrn }).code).toBe('NOT_FOUND');
    const used = fails('deleteCustomNarConfiguration', { customNarConfigurationCrn: nar.crn, configurationVersion: 1 });
    expect([used.code, used.message]).toEqual([
      'FAILED_PRECONDITION',
      'the configuration is used by deployment uses-nar; only unused configurations can be deleted',
    ]);
    expect(call('deleteCustomPythonConfiguration', { customPythonConfigurationCrn: python.crn, configurationVersion: 3 })).toMatchObject({
      crn: python.crn,
    });
    expect(fails('getCustomPythonConfiguration', { customPythonConfigurationCrn: python.crn }).code).toBe('NOT_FOUND');
    expect(call('validateCustomPythonConfiguration', spec)).toEqual({});
    expect(fails('validateCustomPythonConfiguration', { ...spec, username: ' ' }).code).toBe('INVALID_ARGUMENT');
  });

  test('inbound connection endpoints: host names reserved once, assigned to one deployment, certificates renewed', () => {
    type Endpoint = { crn: string; fullyQualifiedDomainName: string; state: string; deploymentCrn?: string; certificateSummaries: Doc[] };
    const endpoint = (crn: string): Endpoint =>
      call('describeInboundConnectionEndpoint', { crn }).inboundConnectionEndpointSummary as Endpoint;
    const made = call('createInboundConnectionEndpoint', { hostname: 'Ingest.Example.COM' }).inboundConnectionEndpointSummary as Endpoint;
    expect(made).toMatchObject({ fullyQualifiedDomainName: 'ingest.example.com', state: 'UNASSIGNED', authorizedIpRanges: [] });
    expect(made.crn).toMatch(/^crn:cdp:df:us-west-1:acct-1:inboundConnectionEndpoint:[0-9a-f-]{36}$/);
    expect(Object.keys(made).sort()).toEqual(['authorizedIpRanges', 'certificateSummaries', 'crn', 'fullyQualifiedDomainName', 'state']);
    expect(made.certificateSummaries.map((c) => [c.certificateType, c.state])).toEqual([
      ['SERVER_ENTITY', 'CURRENT'],
      ['CLIENT_ENTITY', 'CURRENT'],
      ['CLIENT_CA', 'CURRENT'],
    ]);
    expect(fails('createInboundConnectionEndpoint', { hostname: 'ingest.example.com' }).code).toBe('ALREADY_EXISTS');
    expect(fails('createInboundConnectionEndpoint', { hostname: 'not a host' }).code).toBe('INVALID_ARGUMENT');
    const other = call('createInboundConnectionEndpoint', {}).inboundConnectionEndpointSummary as Endpoint;
    expect(other.fullyQualifiedDomainName).toMatch(/^ingest-[0-9a-f]{8}\./);
    const listed = call('listInboundConnectionEndpoints').inboundConnectionEndpoints as Endpoint[];
    expect(listed.map((e) => e.crn).sort()).toEqual([made.crn, other.crn].sort());

    const d = deployment('listens', { inboundHostname: 'ingest.example.com' });
    expect(d.inboundConnectionEndpointId).toBe(made.crn.split(':').pop());
    expect(endpoint(made.crn)).toMatchObject({ state: 'ASSIGNED', deploymentCrn: d.crn });
    expect(fails('deleteInboundConnectionEndpoint', { crn: made.crn }).code).toBe('FAILED_PRECONDITION');

    now += 400 * 24 * 60 * MIN;
    expect(endpoint(made.crn).certificateSummaries.map((c) => c.state)).toEqual(['EXPIRED', 'EXPIRED', 'EXPIRED']);
    expect(call('renewInboundConnectionEndpointCertificates', { crn: made.crn, renewServerCertificate: true })).toEqual({});
    expect(endpoint(made.crn).certificateSummaries.map((c) => c.state)).toEqual(['CURRENT', 'EXPIRED', 'EXPIRED']);
    call('renewInboundConnectionEndpointCertificates', { crn: made.crn, renewClientCertificates: true, revokeClientCertificates: true });
    expect(endpoint(made.crn).certificateSummaries.map((c) => c.state)).toEqual(['CURRENT', 'CURRENT', 'CURRENT']);
    const certs = call('getClientCertificatesEncoded', { crn: made.crn });
    expect(Buffer.from(String(certs.clientCertificate), 'base64').toString()).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    expect(Buffer.from(String(certs.clientPrivateKey), 'base64').toString()).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);

    call('updateDeployment', { deploymentCrn: d.crn, configurationVersion: 0, deactivateInboundConnection: true });
    expect(endpoint(made.crn).state).toBe('UNASSIGNED');
    expect(call('deleteInboundConnectionEndpoint', { crn: made.crn })).toEqual({});
    expect(fails('describeInboundConnectionEndpoint', { crn: made.crn }).code).toBe('NOT_FOUND');
  });

  test('parameter groups: versioned, sensitive values hidden, duplicated without files, in use by a flow they stay', () => {
    const made = call('createParameterGroup', {
      name: 'kafka',
      description: 'brokers',
      parameters: [
        { name: 'brokers', value: 'b1:9092' },
        { name: 'password', value: 'secret', sensitive: true },
      ],
    }).parameterGroup as Doc;
    expect(String(made.crn)).toMatch(/^crn:cdp:df:us-west-1:acct-1:parameterGroup:[0-9a-f-]{36}$/);
    expect(made).toMatchObject({ name: 'kafka', id: String(made.crn).split(':').pop(), source: 'USER', version: 1, usages: [] });
    expect(made.createdBy).toEqual(expect.any(String));
    expect(made).not.toHaveProperty('parameters');
    const crn = String(made.crn);
    const shown = call('describeParameterGroup', { parameterGroupCrn: crn }).parameterGroup as Doc;
    expect(shown.parameters).toEqual([
      { name: 'brokers', value: 'b1:9092', valueSet: true },
      { name: 'password', sensitive: true, valueSet: true },
    ]);
    expect(fails('createParameterGroup', { name: 'kafka' }).code).toBe('ALREADY_EXISTS');
    expect(fails('createParameterGroup', { name: 'twice', parameters: [{ name: 'a' }, { name: 'a' }] }).code).toBe('INVALID_ARGUMENT');
    expect(fails('createParameterGroup', { parameters: [] }).code).toBe('INVALID_ARGUMENT');

    now += MIN;
    const up = call('updateParameterGroup', { parameterGroupCrn: crn, description: 'all brokers' }).parameterGroup as Doc;
    expect(up).toMatchObject({ version: 2, description: 'all brokers', updated: now });
    expect(up.parameters).toHaveLength(2);
    const copy = call('duplicateParameterGroup', { parameterGroupCrn: crn, newParameterGroupName: 'kafka-2' }).parameterGroup as Doc;
    expect(copy).toMatchObject({ name: 'kafka-2', version: 1, description: 'all brokers' });
    expect(copy.crn).not.toBe(crn);
    expect(fails('duplicateParameterGroup', { parameterGroupCrn: crn, newParameterGroupName: 'kafka-2' }).code).toBe('ALREADY_EXISTS');
    const names = (req: Doc = {}): unknown[] => (call('listParameterGroups', req).parameterGroups as Doc[]).map((g) => g.name).sort();
    expect(names()).toEqual(['kafka', 'kafka-2']);
    expect(names({ searchTerm: '-2' })).toEqual(['kafka-2']);
    expect(names({ projectCrns: ['crn:cdp:df:us-west-1:acct-1:project:p'] })).toEqual([]);

    const d = deployment('shares', { useSharedParameterGroupCrn: crn });
    const used = (call('describeParameterGroup', { parameterGroupCrn: crn }).parameterGroup as Doc).usages as Doc[];
    expect(used).toEqual([expect.objectContaining({ resourceType: 'DEPLOYED_FLOW', parentResourceId: String(d.crn).split(':').pop() })]);
    expect(fails('deleteParameterGroup', { parameterGroupCrn: crn }).code).toBe('FAILED_PRECONDITION');
    expect(fails('createDeployment', { name: 'x', configurationVersion: 0, useSharedParameterGroupCrn: String(copy.crn) + 'x' }).code).toBe(
      'NOT_FOUND',
    );
    expect(call('deleteParameterGroup', { parameterGroupCrn: copy.crn })).toEqual({});
    expect(fails('describeParameterGroup', { parameterGroupCrn: copy.crn }).code).toBe('NOT_FOUND');
  });

  test('a file uploaded for a parameter group is a reference of its parameter, and a new version', () => {
    const dir = mkdtempSync(join(tmpdir(), 'df-unit-'));
    try {
      const file = join(dir, 'blob');
      writeFileSync(file, 'abc');
      const crn = String((call('createParameterGroup', { name: 'files' }).parameterGroup as Doc).crn);
      const upload = { path: file, size: 3, headers: {} };
      call('uploadParameterAsset', { parameterGroupCrn: crn, parameterName: 'truststore', filePath: '/home/me/ts.jks' }, upload);
      const g = call('describeParameterGroup', { parameterGroupCrn: crn }).parameterGroup as Doc;
      expect(g.version).toBe(2);
      expect(g.parameters).toEqual([
        {
          name: 'truststore',
          sensitive: false,
          valueSet: false,
          assetReferences: [expect.objectContaining({ name: 'ts.jks', path: '/home/me/ts.jks', environmentProvided: false })],
        },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('reporting tasks: named and typed by their definition, of a deployment or the environment, deleted with their file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'df-unit-'));
    try {
      const file = (name: string, body: string): RequestContext['upload'] => {
        const path = join(dir, name);
        writeFileSync(path, body);
        return { path, size: body.length, headers: {} };
      };
      const deploymentCrn = deploy('reports');
      const prometheus = file('p.json', JSON.stringify({ name: 'prometheus', type: 'org.example.Prometheus' }));
      const made = call('createReportingTask', { deploymentCrn, filePath: '/tmp/p.json' }, prometheus);
      expect(Object.keys(made)).toEqual(['crn']);
      expect(String(made.crn)).toMatch(/^crn:cdp:df:us-west-1:acct-1:reportingTask:[0-9a-f-]{36}$/);
      const plain = call('createReportingTask', { filePath: '/tmp/site-stats.json' }, file('s.json', '{}'));
      expect(fails('createReportingTask', { filePath: 'x.json' }).code).toBe('INVALID_ARGUMENT');
      expect(refusal(() => call('createReportingTask', { filePath: 'x.json' }, file('x.json', 'not json')), 'create').message).toBe(
        'the reporting task definition is not valid JSON',
      );
      expect(call('listReportingTasks', { deploymentCrn }).reportingTasks).toEqual([
        { crn: made.crn, identifier: String(made.crn).split(':').pop(), name: 'prometheus', type: 'org.example.Prometheus' },
      ]);
      const all = call('listReportingTasks').reportingTasks as Doc[];
      expect(all.map((t) => t.name)).toEqual(['prometheus', 'site-stats']);
      expect(all[1]?.type).toBe('org.apache.nifi.reporting.ReportingTask');
      expect(fails('deleteReportingTask', { deploymentCrn, reportingTaskCrn: plain.crn }).code).toBe('NOT_FOUND');
      expect(call('deleteReportingTask', { deploymentCrn, reportingTaskCrn: made.crn })).toEqual({ crn: made.crn });
      expect(call('listReportingTasks', { deploymentCrn }).reportingTasks).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('uploaded assets belong to their request and move to the deployment created from it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'df-unit-'));
    try {
      const file = join(dir, 'blob');
      writeFileSync(file, 'abc');
      const req = 'crn:cdp:df:us-west-1:acct-1:deploymentRequest:assets';
      // Unknown until its details are read: uploads and deployments are refused.
      expect(fails('createDeployment', { name: 'early', configurationVersion: 0, deploymentRequestCrn: req }).code).toBe('NOT_FOUND');
      const first = call('getDeploymentRequestDetails', { deploymentRequestCrn: req }).deploymentConfigurationMetadata as Doc;
      expect(first.flowName).toEqual(expect.any(String));
      call(
        'uploadAsset',
        { deploymentRequestCrn: req, parameterGroup: 'g', parameterName: 'p', filePath: '/home/me/a b.jks' },
        { path: file, size: 3, headers: {} },
      );
      const details = call('getDeploymentRequestDetails', { deploymentRequestCrn: req }).deploymentConfigurationMetadata as Doc;
      expect(JSON.stringify(details.parameterGroups)).toContain('"name":"a b.jks"');
      const crn = String(
        (call('createDeployment', { name: 'with-assets', configurationVersion: 0, deploymentRequestCrn: req }).deployment as Doc).crn,
      );
      const cfg = call('getDeploymentConfiguration', { deploymentCrn: crn }).deploymentConfiguration as Doc;
      expect(JSON.stringify(cfg.parameterGroups)).toContain('"path":"/home/me/a b.jks"');
      // A used request cannot be used again.
      expect(fails('createDeployment', { name: 'again', configurationVersion: 0, deploymentRequestCrn: req }).code).toBe('ALREADY_EXISTS');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('asset update requests: of a deployment, open until used or aborted, their files going to the flow that uses them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'df-unit-'));
    try {
      const path = join(dir, 'blob');
      writeFileSync(path, 'abc');
      const upload = { path, size: 3, headers: {} };
      const d = deployment('assets-later');
      const deploymentCrn = String(d.crn);
      now += 10 * MIN;
      expect(fails('createAssetUpdateRequest', { deploymentCrn: deploymentCrn + 'x' }).code).toBe('NOT_FOUND');
      const made = call('createAssetUpdateRequest', { deploymentCrn });
      expect(Object.keys(made)).toEqual(['assetUpdateRequestCrn']);
      const assetUpdateRequestCrn = String(made.assetUpdateRequestCrn);
      expect(assetUpdateRequestCrn).toMatch(/^crn:cdp:df:us-west-1:acct-1:assetUpdateRequest:[0-9a-f-]{36}$/);
      const file = { assetUpdateRequestCrn, parameterGroup: 'g', parameterName: 'p', filePath: '/home/me/new.jks' };
      call('uploadAsset', file, upload);
      call('updateDeployment', { deploymentCrn, configurationVersion: 0, assetUpdateRequestCrn });
      const cfg = call('getDeploymentConfiguration', { deploymentCrn }).deploymentConfiguration as Doc;
      expect(JSON.stringify(cfg.parameterGroups)).toContain('"path":"/home/me/new.jks"');
      const reused = fails('updateDeployment', { deploymentCrn, configurationVersion: 1, assetUpdateRequestCrn });
      expect([reused.code, reused.message]).toEqual(['FAILED_PRECONDITION', `asset update request ${assetUpdateRequestCrn} is used`]);
      expect(fails('abortAssetUpdateRequest', { deploymentCrn, assetUpdateRequestCrn }).code).toBe('FAILED_PRECONDITION');
      const other = String(call('createAssetUpdateRequest', { deploymentCrn }).assetUpdateRequestCrn);
      expect(call('abortAssetUpdateRequest', { deploymentCrn, assetUpdateRequestCrn: other })).toEqual({});
      expect(refusal(() => call('uploadAsset', { ...file, assetUpdateRequestCrn: other }, upload), 'upload').code).toBe(
        'FAILED_PRECONDITION',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an upload operation called without a body is refused', () => {
    expect(fails('uploadAsset', { deploymentRequestCrn: 'crn:x:y', parameterGroup: 'g', parameterName: 'p', filePath: 'f' }).code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  test('test sessions: each environment starts with two drafts, one with a running session', () => {
    const drafts = call('listFlowDrafts').flowSummaries as Doc[];
    expect(drafts).toHaveLength(2);
    const sessions = call('listTestSessions').runtimeSessions as Doc[];
    expect(sessions).toHaveLength(1);
    const draft = String(sessions[0]?.crn);
    expect(fails('deleteFlowDraft', { flowDraftCrn: draft }).code).toBe('FAILED_PRECONDITION');
    const session = (call('suspendTestSession', { flowDraftCrn: draft }).runtimeSession ?? {}) as Doc;
    expect(session).toMatchObject({ name: 'orders-draft-session', status: { state: 'SUSPENDING', detailedState: 'SUSPENDING' } });
    expect(String(session.crn)).toMatch(/^crn:cdp:df:us-west-1:acct-1:testSession:[0-9a-f-]{36}$/);
    now += MIN;
    expect((call('suspendTestSession', { flowDraftCrn: draft }).runtimeSession as Doc).status).toEqual({
      state: 'SUSPENDED',
      detailedState: 'TEST_SESSION_SUSPENDED',
    });
    const restarted = call('restartTestSession', { flowDraftCrn: draft }).runtimeSession as Doc;
    expect([restarted.crn, (restarted.status as Doc).state]).toEqual([session.crn, 'RESTARTING']);
    now += 2 * MIN;
    call('terminateTestSession', { flowDraftCrn: draft });
    expect(fails('restartTestSession', { flowDraftCrn: draft }).code).toBe('FAILED_PRECONDITION');
    now += MIN;
    expect(fails('suspendTestSession', { flowDraftCrn: draft }).code).toBe('FAILED_PRECONDITION');
    expect(call('listTestSessions').runtimeSessions).toEqual([]);
    expect(call('deleteFlowDraft', { flowDraftCrn: draft }).flowMetadata).toMatchObject({
      crn: draft,
      flowName: 'orders-draft',
      resourceType: 'FLOW_DRAFT',
      nifiMajorVersion: 1,
    });
    const other = String(drafts.find((d) => d.crn !== draft)?.crn);
    expect((call('listFlowDrafts').flowSummaries as Doc[]).map((d) => d.crn)).toEqual([other]);
    const fresh = call('restartTestSession', { flowDraftCrn: other }).runtimeSession as Doc;
    expect(fresh).toMatchObject({ name: 'metrics-draft-session', status: { state: 'RESTARTING' }, createdTimestamp: now });
    expect((call('listTestSessions').runtimeSessions as Doc[]).map((d) => d.crn)).toEqual([other]);
  });
});

describe('workload token cache', () => {
  test('0600 file, per scope and environment, refreshed a minute before expiry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'df-tokens-'));
    try {
      const path = join(dir, 'cache', 'tokens.json');
      const t = new WorkloadTokens({ CDPCTL_TOKEN_CACHE: path });
      t.put('p1', 'envA', { origin: 'http://a', token: 'tok-a', expireAt: Date.now() + 10 * MIN });
      t.put('p1', 'envB', { origin: 'http://b', token: 'tok-b', expireAt: Date.now() + 30_000 });
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const fresh = new WorkloadTokens({ CDPCTL_TOKEN_CACHE: path });
      expect(fresh.get('p1', 'envA')).toEqual({ origin: 'http://a', token: 'tok-a' });
      expect(fresh.get('p2', 'envA')).toBeUndefined();
      expect(fresh.get('p1', 'envB')).toBeUndefined();
      fresh.forget('p1', 'envA');
      expect(new WorkloadTokens({ CDPCTL_TOKEN_CACHE: path }).get('p1', 'envA')).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
