/**
 * df as the automation that teams run reads it (issue 28), through the
 * library's client (signed HTTP) against an emulator in this process on a
 * paused clock: what cdpy and the cloudera.cloud collection compare with.
 * - An added ReadyFlow is named `readyFlow` in its CRN, its versions' and
 *   its listFlowDefinitions entry's (cdpy validates the CRN of
 *   describe/delete_added_readyflow against `:df:` and `readyFlow`), and a
 *   version of it deploys, the deployed flow naming that version.
 * - listFlowDefinitions answers `artifactType` as `flow` or `readyFlow`, the
 *   exact case cdpy's get_version_crn_from_flow_definition compares with.
 * - A disabled service stays, NOT_ENABLED, until resetService or
 *   enableService: a describe loop sees DISABLING, then NOT_ENABLED (never
 *   NOT_FOUND), listServices shows it, and resetService ("Only not-enabled
 *   services can be reset") then forgets it.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import { refused } from '../../../../helpers/refused.js';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
});

afterAll(async () => {
  await emu?.stop();
});

/** cdpy's check of a ReadyFlow CRN (CRN_STRINGS readyflow: every substring present). */
const cdpyReadyflowCrn = (crn: string): boolean => [':df:', 'readyFlow'].every((s) => crn.includes(s));

async function serviceCrnOf(name: string): Promise<string> {
  const listed = await emu.client.df.listServices({});
  const s = (listed.services ?? []).find((x) => x.name === name);
  if (!s?.crn) throw new Error(`no DataFlow service ${name}`);
  return s.crn;
}

describe('an added ReadyFlow', () => {
  test('is named readyFlow in its CRN, its versions and its catalog entry, and its version deploys', async () => {
    const { readyflows } = await emu.client.df.listReadyflows({ searchTerm: 'kafka to adls' });
    const readyflowCrn = readyflows?.[0]?.readyflowCrn ?? '';
    const added = await emu.client.df.addReadyflow({ readyflowCrn });
    const addedCrn = added.addedReadyflowDetail?.addedReadyflowCrn ?? '';
    expect(addedCrn).toMatch(new RegExp(`^crn:cdp:df:us-west-1:${emu.accountId}:readyFlow:kafka-to-adls$`));
    expect(cdpyReadyflowCrn(addedCrn)).toBe(true);
    expect((added.addedReadyflowDetail?.versions ?? []).map((v) => v.crn)).toEqual([`${addedCrn}/v.1`, `${addedCrn}/v.2`]);
    const described = await emu.client.df.describeAddedReadyflow({ addedReadyflowCrn: addedCrn });
    expect(described.addedReadyflowDetail?.addedReadyflowCrn).toBe(addedCrn);
    const listed = await emu.client.df.listReadyflows({ searchTerm: 'kafka to adls' });
    expect(listed.readyflows?.[0]).toMatchObject({ imported: true, importedArtifactCrn: addedCrn });
    const { flows } = await emu.client.df.listFlowDefinitions({});
    expect((flows ?? []).find((f) => f.name === 'Kafka to ADLS')?.crn).toBe(addedCrn);

    // A version of it deploys (ops-env is on Azure, as ADLS is), and the deployed flow names that version.
    const serviceCrn = await serviceCrnOf('ops-env');
    const req = await emu.client.df.initiateDeployment({ serviceCrn, flowVersionCrn: `${addedCrn}/v.2` });
    const environmentCrn = (await emu.client.environments.describeEnvironment({ environmentName: 'ops-env' })).environment.crn;
    const details = await emu.client.dfworkload.getDeploymentRequestDetails({
      environmentCrn,
      deploymentRequestCrn: req.deploymentRequestCrn ?? '',
    });
    expect(details.deploymentConfigurationMetadata).toMatchObject({
      flowCrn: addedCrn,
      flowVersionCrn: `${addedCrn}/v.2`,
      artifactTypeName: 'readyFlow',
    });
    const made = await emu.client.dfworkload.createDeployment({
      environmentCrn,
      deploymentRequestCrn: req.deploymentRequestCrn ?? '',
      name: 'adls-landing',
      configurationVersion: 0,
    });
    const deploymentCrn = made.deployment?.crn ?? '';
    emu.clock.advance('10m');
    const inDeployment = await emu.client.df.listFlowsInDeployment({ deploymentCrn });
    const deployedFlowCrn = inDeployment.deployedFlows?.[0]?.crn ?? '';
    const flow = await emu.client.df.describeFlowInDeployment({ deploymentCrn, deployedFlowCrn });
    expect(flow.deployedFlow).toMatchObject({ flowCrn: addedCrn, flowVersionCrn: `${addedCrn}/v.2` });
    // Deployed, it is not removed from the catalog.
    const busy = await refused(emu.client.df.deleteAddedReadyflow({ addedReadyflowCrn: addedCrn }));
    expect(busy.code).toBe('FAILED_PRECONDITION');
  });
});

describe('flow definitions', () => {
  test('answer artifactType as flow or readyFlow, the case cdpy compares with', async () => {
    const { readyflows } = await emu.client.df.listReadyflows({ searchTerm: 's3 to s3' });
    const added = await emu.client.df.addReadyflow({ readyflowCrn: readyflows?.[0]?.readyflowCrn ?? '' });
    const addedCrn = added.addedReadyflowDetail?.addedReadyflowCrn ?? '';
    // One of the account's own, imported from a file exported from NiFi.
    const file = join(mkdtempSync(join(tmpdir(), 'df-flow-')), 'orders.json');
    writeFileSync(file, JSON.stringify({ flowContents: { name: 'orders', processors: [] } }));
    const own = await emu.client.df.importFlowDefinition({ file, name: 'orders' });
    const { flows } = await emu.client.df.listFlowDefinitions({});
    const types = new Map((flows ?? []).map((f) => [f.crn, f.artifactType]));
    expect(types.get(addedCrn)).toBe('readyFlow');
    expect(own.crn).toBe(`crn:cdp:df:us-west-1:${emu.accountId}:flow:orders`);
    expect(types.get(own.crn)).toBe('flow');
    expect(new Set(types.values())).toEqual(new Set(['flow', 'readyFlow']));
  });
});

describe('a disabled DataFlow service', () => {
  test('stays NOT_ENABLED, described and listed, until resetService forgets it or enableService enables it again', async () => {
    const serviceCrn = await serviceCrnOf('analytics-azure');
    const environmentCrn = (await emu.client.environments.describeEnvironment({ environmentName: 'analytics-azure' })).environment.crn;
    const disabled = await emu.client.df.disableService({ serviceCrn });
    expect(disabled.status?.state).toBe('DISABLING');
    emu.clock.advance('5m');
    const described = await emu.client.df.describeService({ serviceCrn });
    expect(described.service?.status?.state).toBe('NOT_ENABLED');
    expect(described.service?.validActions).toEqual(['ENABLE', 'RESET']);
    const listed = await emu.client.df.listServices({});
    expect((listed.services ?? []).find((s) => s.crn === serviceCrn)?.status?.state).toBe('NOT_ENABLED');
    const deployable = await emu.client.df.listDeployableServicesForNewDeployments({});
    expect((deployable.services ?? []).map((s) => s.crn)).not.toContain(serviceCrn);
    // Nothing runs on it: what needs a cluster is refused, and it is not disabled twice.
    expect((await refused(emu.client.df.updateService({ serviceCrn, minK8sNodeCount: 3, maxK8sNodeCount: 4 }))).code).toBe(
      'FAILED_PRECONDITION',
    );
    expect((await refused(emu.client.df.disableService({ serviceCrn }))).code).toBe('FAILED_PRECONDITION');

    // enableService enables it again, under the same CRN.
    const again = await emu.client.df.enableService({
      environmentCrn,
      minK8sNodeCount: 3,
      maxK8sNodeCount: 5,
      usePublicLoadBalancer: true,
    });
    expect(again.service).toMatchObject({ crn: serviceCrn, status: { state: 'ENABLING' } });
    emu.clock.advance('10m');
    expect((await emu.client.df.describeService({ serviceCrn })).service?.status?.state).toBe('GOOD_HEALTH');

    // Disabled again, resetService ("Only not-enabled services can be reset") forgets it.
    await emu.client.df.disableService({ serviceCrn });
    expect((await refused(emu.client.df.resetService({ serviceCrn }))).code).toBe('FAILED_PRECONDITION');
    emu.clock.advance('5m');
    await emu.client.df.resetService({ serviceCrn });
    expect((await refused(emu.client.df.describeService({ serviceCrn }))).code).toBe('NOT_FOUND');
    expect((await emu.client.df.listServices({})).services?.map((s) => s.crn)).not.toContain(serviceCrn);
  });
  test('holds nothing in its environment: the environment is deleted without cascading, and the service goes with it', async () => {
    await emu.client.environments.createAWSEnvironment({
      environmentName: 'flows-scratch',
      credentialName: 'sales-env-credential',
      region: 'us-west-2',
      securityAccess: { cidr: '10.0.0.0/16' },
      authentication: { publicKeyId: 'flows-key' },
      logStorage: { storageLocationBase: 's3a://flows-logs/logs', instanceProfile: 'arn:aws:iam::123456789012:instance-profile/flows' },
      vpcId: 'vpc-0a1b2c3d4e5f67890',
      subnetIds: ['subnet-0a1b2c3d4e5f67890'],
    });
    emu.clock.advance('30m');
    const environmentCrn = (await emu.client.environments.describeEnvironment({ environmentName: 'flows-scratch' })).environment.crn;
    const enabled = await emu.client.df.enableService({
      environmentCrn,
      minK8sNodeCount: 3,
      maxK8sNodeCount: 5,
      usePublicLoadBalancer: true,
    });
    const serviceCrn = enabled.service?.crn ?? '';
    emu.clock.advance('10m');
    // Enabled, DataFlow holds its environment.
    expect((await refused(emu.client.environments.deleteEnvironment({ environmentName: 'flows-scratch' }))).code).toBe(
      'FAILED_PRECONDITION',
    );
    await emu.client.df.disableService({ serviceCrn });
    emu.clock.advance('5m');
    await emu.client.environments.deleteEnvironment({ environmentName: 'flows-scratch' });
    emu.clock.advance('2h');
    expect((await refused(emu.client.environments.describeEnvironment({ environmentName: 'flows-scratch' }))).code).toBe('NOT_FOUND');
    expect((await refused(emu.client.df.describeService({ serviceCrn }))).code).toBe('NOT_FOUND');
    expect((await emu.client.df.listServices({})).services?.map((s) => s.crn)).not.toContain(serviceCrn);
  });
});

describe('polling as automation does it', () => {
  test('a describe loop over disableService sees DISABLING, then NOT_ENABLED, and NOT_ENABLED hours later', async () => {
    const serviceCrn = await serviceCrnOf('lakehouse-aws');
    await emu.client.df.disableService({ serviceCrn });
    /** Each state the loop reads, once as it changes; NOT_FOUND when describe answers it. */
    const seen: string[] = [];
    const read = async (): Promise<void> => {
      const state = await emu.client.df.describeService({ serviceCrn }).then(
        (r) => r.service?.status?.state ?? '?',
        (e: unknown) => ((e as { code?: string }).code === 'NOT_FOUND' ? 'NOT_FOUND' : Promise.reject(e)),
      );
      if (seen.at(-1) !== state) seen.push(state);
    };
    // Every 15 s of emulator time for 20 minutes, as a playbook's wait loop polls.
    for (let i = 0; i <= 80; i++) {
      await read();
      emu.clock.advance('15s');
    }
    emu.clock.advance('3h');
    await read();
    expect(seen).toEqual(['DISABLING', 'NOT_ENABLED']);
  });
});
