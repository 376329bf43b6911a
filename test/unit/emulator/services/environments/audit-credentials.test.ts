/**
 * Audit credentials are credentials: their CRNs carry the resource type
 * `credential` (CDP's CRN parser takes a type of word characters only, and
 * has no audit credential type; the model's own deleteAuditCredential
 * example names one by a `:credential:` CRN), the same CRN when the
 * credential of a cloud is set again. Driven through the library's client
 * against an emulator in this process.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { Store } from '../../../../../src/lib/emulator/store.js';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import { clockAt, serviceCaller, UNIT_ACCOUNT, UNIT_ADMIN, UNIT_INFO } from '../../../../helpers/emulator-unit.js';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
});

afterAll(async () => {
  await emu?.stop();
});

const account = (): string => emu.accountId;

test("an audit credential's CRN is an environments credential's, kept when it is set again", async () => {
  const roleArn = 'arn:aws:iam::123456789012:role/audit-archiver';
  const made = await emu.client.environments.setAWSAuditCredential({ roleArn });
  expect(made.credential.crn).toMatch(
    new RegExp(`^crn:cdp:environments:${emu.region}:${account()}:credential:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`),
  );
  const again = await emu.client.environments.setAWSAuditCredential({ roleArn: `${roleArn}-v2` });
  expect(again.credential.crn).toBe(made.credential.crn);
  const listed = await emu.client.environments.listAuditCredentials({});
  expect(listed.credentials.map((c) => c.crn)).toEqual([made.credential.crn]);
  await emu.client.environments.deleteAuditCredential({ credentialName: made.credential.crn });
  expect((await emu.client.environments.listAuditCredentials({})).credentials).toEqual([]);
});

test("an audit credential's record keeps no secret: neither an Azure app's secret nor a GCP key; a set again keeps its creation", async () => {
  let now = Date.parse('2026-01-01T00:00:00Z');
  const store = new Store(':memory:', UNIT_ACCOUNT);
  const env = await serviceCaller('environments', () => ({ store, clock: clockAt(() => now), caller: UNIT_ADMIN, info: UNIT_INFO }));
  const azure = { subscriptionId: 's', tenantId: 't', appBased: { applicationId: 'app-1', secretKey: 'app-secret-1' } };
  const made = env.call('setAzureAuditCredential', azure).credential as Record<string, unknown>;
  now += 60_000;
  env.call('setAzureAuditCredential', { ...azure, appBased: { applicationId: 'app-2', secretKey: 'app-secret-2' } });
  env.call('setGCPAuditCredential', { credentialKey: '{"type":"service_account","private_key":"gcp-secret"}' });
  const kept = JSON.stringify(store.list('environments.auditCredential'));
  expect(kept).toContain('app-2');
  for (const secret of ['app-secret-1', 'app-secret-2', 'gcp-secret']) expect(kept).not.toContain(secret);
  const listed = env.call('listAuditCredentials').credentials as Array<Record<string, unknown>>;
  expect(listed.find((c) => c.cloudPlatform === 'AZURE')).toMatchObject({ crn: made.crn, created: made.created });
});
