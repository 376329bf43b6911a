/**
 * The resource facts of lakehouseopt, datacatalog and cloudprivatelinks
 * (src/lib/model/services/<topic>/resources.ts) are true of what the
 * emulator answers, through the library's client on a paused clock: every
 * fixed value a field answers is one its facts list, every CRN minted
 * carries the type the facts name (a Data Hub's, for the optimizer's hub and
 * the catalog's profilers), each lifecycle's states come in the facts' order,
 * and each delete ends as the facts say (gone).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../src/lib/sdk/emulator.js';
import { resources as lakehouse } from '../../../../src/lib/model/services/lakehouse/resources.js';
import { resources as datacatalog } from '../../../../src/lib/model/services/datacatalog/resources.js';
import { resources as privatelink } from '../../../../src/lib/model/services/privatelink/resources.js';
import { refused } from '../../../helpers/refused.js';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
});

afterAll(async () => {
  await emu?.stop();
});

/** The resource type of a CRN of a service: crn:cdp:<service>:<region>:<account>:<type>:<id>. */
const crnType = (crn: string | undefined, service: string): string | undefined =>
  new RegExp(`^crn:cdp:${service}:[^:]+:[^:]+:(\\w+):[^:]+$`).exec(crn ?? '')?.[1];

/** What a lifecycle action shows a polling client: its states, then its success. */
const walk = (a: { through: readonly string[]; success?: string }): string[] => [...a.through, ...(a.success ? [a.success] : [])];

describe('lakehouseopt', () => {
  test('environments, the hub, policies, tables and tasks answer the values and CRN types of the facts', async () => {
    const l = emu.client.lakehouseopt;
    const f = lakehouse.resources;
    const envs = (await l.listEnvironments({ pageToken: 'ALL' })).environments ?? [];
    expect(envs.length).toBeGreaterThan(0);
    for (const e of envs) expect(f.environment.values.cloudPlatform).toContain(e.cloudPlatform);
    const on = envs.find((e) => e.isCloEnabled);
    const hub = await l.getCloDatahub({ environmentCrn: String(on?.environmentCrn) });
    expect(f.hub.values.cloudPlatform).toContain(hub.cloudPlatform);
    expect(crnType(hub.datahubCrn, 'datahub')).toBe(f.hub.crnType);
    const datahubCrn = String(hub.datahubCrn);
    const at = { datahubCrn, namespace: 'finance', tableName: 'ledger' };
    await l.createPolicy({ datahubCrn, policyName: 'facts', resources: { script: 'compaction', arguments: '{"schedule":"0 2 30 2 *"}' } });
    await l.createTablePoliciesAssociations({ ...at, policies: ['facts'] });
    const run = await l.executePolicy({ ...at, policyName: 'facts', dryRun: false });
    const seen: string[] = [];
    for (let i = 0; i < 12; i++) {
      const task = (await l.listTasks({ datahubCrn })).tasks?.find((t) => t.taskId === run.executionResult?.taskId);
      if (seen[seen.length - 1] !== task?.status) seen.push(String(task?.status));
      emu.clock.advance('15s');
    }
    expect(seen).toEqual(walk(f.task.lifecycle.run));
    for (const s of seen) expect(f.task.values.status).toContain(s);
    const policies = (await l.listPolicies({ datahubCrn })).policies ?? [];
    for (const p of policies) expect(f.policy.values.status).toContain(p.status);
    const detail = await l.getPolicy({ datahubCrn, policyName: 'facts' });
    // The detail's scope is a field of getPolicy's answer, not of the policy's shape, so the facts do not list it.
    expect(['Catalog', 'Namespace']).toContain(detail.policyDetail?.scope);
    for (const a of detail.policyDetail?.associations ?? []) expect(f.policy.values.status).toContain(a.status);
    const tables = (await l.listTables({ datahubCrn, namespace: 'finance' })).tables ?? [];
    expect(tables.map((t) => t.status)).toContain('SUCCESS');
    await l.pauseTable({ datahubCrn, namespace: 'finance', tableName: 'invoices' });
    const paused = (await l.listTables({ datahubCrn, namespace: 'finance' })).tables ?? [];
    for (const t of paused) expect(f.table.values.status).toContain(t.status);
  });

  test('a deleted policy is gone', async () => {
    const l = emu.client.lakehouseopt;
    const envs = (await l.listEnvironments({ pageToken: 'ALL' })).environments ?? [];
    const datahubCrn = String(envs.find((e) => e.isCloEnabled)?.datahubCrn);
    expect(lakehouse.resources.policy.deleted.ends).toBe('gone');
    await l.deletePolicy({ datahubCrn, policyName: 'facts', resourceScope: 'spark_catalog.*' });
    expect((await refused(l.getPolicy({ datahubCrn, policyName: 'facts' }))).code).toBe('NOT_FOUND');
    expect((await l.listPolicies({ datahubCrn })).policies?.map((p) => p.policyName)).not.toContain('facts');
  });
});

describe('datacatalog', () => {
  test("the profilers' cluster is a Data Hub cluster CRN; reviewed tags answer the facts' statuses; a deleted share is gone", async () => {
    const d = emu.client.datacatalog;
    const f = datacatalog.resources;
    const env = await emu.client.environments.describeEnvironment({ environmentName: 'sales-env' });
    const datalakeCrn = `crn:cdp:datalake:us-west-1:${emu.accountId}:datalake:3f2a9c1e-0b7d-4e8a-9c6f-5d4b3a2e1f00`;
    const profilers = await d.launchProfilers({ datalake: datalakeCrn });
    expect(crnType(profilers.datahubCluster?.crn, 'datahub')).toBe(f.profilers.crnType);
    const suggested = (await d.getSuggestedTags({ datalakeCrn })).suggestedTags ?? [];
    const [first, second] = suggested;
    const reviewed = [
      ...((
        await d.reviewSuggestedTags({
          datalakeCrn,
          action: 'ACCEPT',
          assets: [{ qualifiedName: String(first?.qualifiedName), tags: first?.tags ?? [] }],
        })
      ).reviewedTags ?? []),
      ...((
        await d.reviewSuggestedTags({
          datalakeCrn,
          action: 'REJECT',
          assets: [{ qualifiedName: String(second?.qualifiedName), tags: second?.tags ?? [] }],
        })
      ).reviewedTags ?? []),
      ...((await d.reviewSuggestedTags({ datalakeCrn, action: 'ACCEPT', assets: [{ qualifiedName: 'no.such.column', tags: ['PII'] }] }))
        .reviewedTags ?? []),
    ];
    expect(reviewed.map((r) => r.status)).toEqual(['ACCEPTED', 'REJECTED', 'FAILED']);
    for (const r of reviewed) expect(f.tagReview.values.status).toContain(r.status);
    const where = { datalakeCrn, environmentCrn: env.environment.crn };
    const share = await d.createDataShare({
      ...where,
      dataShareName: 'facts-share',
      assets: [{ databaseName: 'sales', tableName: 'orders' }],
    });
    expect(f.dataShare.deleted.ends).toBe('gone');
    await d.deleteDataShare({ ...where, dataShareId: String(share.dataShareId) });
    expect((await refused(d.getDataShare({ ...where, dataShareId: String(share.dataShareId) }))).code).toBe('NOT_FOUND');
  });
});

describe('cloudprivatelinks', () => {
  const CRED = 'crn:cdp:environments:us-west-1:acct:credential:c';
  test("endpoint work walks the facts' states by its tracking id; a delete's ends SUCCESS and the endpoints are gone; a revoked access is gone", async () => {
    const p = emu.client.cloudprivatelinks;
    const f = privatelink.resources;
    const statuses = async (trackingId: string): Promise<string[]> => {
      const seen: string[] = [];
      for (let i = 0; i < 16; i++) {
        const all = (await p.listPrivateLinkEndpointStatuses({ trackingId })).privatelinkEndpoints ?? [];
        const states = [...new Set(all.map((e) => String(e.status)))];
        expect(states).toHaveLength(1);
        for (const s of states) expect(f.endpoint.values.status).toContain(s);
        if (seen[seen.length - 1] !== states[0]) seen.push(String(states[0]));
        emu.clock.advance('15s');
      }
      return seen;
    };
    const made = await p.createPrivateLinkEndpoint({
      cloudServiceProvider: 'AWS',
      serviceGroup: 'CDP-CONTROL-PLANE',
      awsAccountDetails: { credentialCrn: CRED, vpcId: 'vpc-facts', region: 'us-west-2', subnetIds: ['subnet-1'] },
    });
    expect(await statuses(String(made.trackingId))).toEqual(walk(f.endpoint.lifecycle.create));
    expect((await p.getPrivateLinkStatus({ cloudServiceProvider: 'AWS', vpcId: 'vpc-facts' })).status).toBe('ENABLED');
    const gone = await p.deletePrivateLinkEndpoint({
      cloudServiceProvider: 'AWS',
      awsAccountInfo: { credentialCrn: CRED, region: 'us-west-2', vpcId: 'vpc-facts' },
    });
    expect(await statuses(String(gone.trackingId))).toEqual(walk(f.endpoint.lifecycle.delete));
    expect((await p.getPrivateLinkStatus({ cloudServiceProvider: 'AWS', vpcId: 'vpc-facts' })).status).toBe('DISABLED');
    const access = {
      serviceGroup: 'CDP-CONTROL-PLANE',
      cloudServiceProvider: 'AWS' as const,
      cloudAccountId: '123456789012',
      region: 'us-west-2',
    };
    await p.authorizePrivateLinkServiceAccess(access);
    await p.revokePrivateLinkServiceAccess(access);
    expect(f.access.deleted.ends).toBe('gone');
    expect((await refused(p.revokePrivateLinkServiceAccess(access))).code).toBe('NOT_FOUND');
  });
});
