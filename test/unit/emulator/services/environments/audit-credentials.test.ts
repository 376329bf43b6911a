/**
 * Audit credentials are credentials: their CRNs carry the resource type
 * `credential` (CDP's CRN parser takes a type of word characters only, and
 * has no audit credential type; the model's own deleteAuditCredential
 * example names one by a `:credential:` CRN), the same CRN when the
 * credential of a cloud is set again. Driven through the library's client
 * against an emulator in this process.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';

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
