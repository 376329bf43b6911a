/**
 * Users of the built-in identity provider, as the API shows them: their
 * `identityProviderCrn` is "Cloudera-Default" (iam.yaml, User), while the
 * provider itself, where a CRN is asked for, is Cloudera SSO's
 * (crn:altus:iam:us-west-1:altus:samlProvider:cloudera-sso, audit.yaml).
 * A user of a SAML provider of the account carries that provider's CRN.
 * Driven through the library's client against an emulator in this process.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';

const CLOUDERA_SSO = 'crn:altus:iam:us-west-1:altus:samlProvider:cloudera-sso';
const METADATA =
  '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com"><IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example.com/sso"/></IDPSSODescriptor></EntityDescriptor>';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
});

afterAll(async () => {
  await emu?.stop();
});

test('the account admin and a new user of the built-in provider show "Cloudera-Default"', async () => {
  const me = await emu.client.iam.getUser({});
  expect(me.user.identityProviderCrn).toBe('Cloudera-Default');
  const made = await emu.client.iam.createUser({ email: 'ann@example.com', identityProviderUserId: 'ann' });
  expect(made.user.identityProviderCrn).toBe('Cloudera-Default');
  const listed = await emu.client.iam.listUsers({});
  expect(new Set(listed.users.map((u) => u.identityProviderCrn))).toEqual(new Set(['Cloudera-Default']));
});

test("the default provider is named by Cloudera SSO's CRN, and a request may name it either way", async () => {
  expect((await emu.client.iam.getDefaultIdentityProvider({})).crn).toBe(CLOUDERA_SSO);
  const okta = await emu.client.iam.createSamlProvider({ samlProviderName: 'okta-idp', samlMetadataDocument: METADATA });
  await emu.client.iam.setDefaultIdentityProvider({ nameOrCrn: 'okta-idp' });
  const viaOkta = await emu.client.iam.createUser({ email: 'bob@example.com', identityProviderUserId: 'bob' });
  expect(viaOkta.user.identityProviderCrn).toBe(okta.samlProvider.crn);
  await emu.client.iam.setDefaultIdentityProvider({ nameOrCrn: 'Cloudera-Default' });
  expect((await emu.client.iam.getDefaultIdentityProvider({})).crn).toBe(CLOUDERA_SSO);
  const moved = await emu.client.iam.migrateUsersToIdentityProvider({ originalProviderName: 'okta-idp', newProviderName: CLOUDERA_SSO });
  expect(moved.numberOfUpdatedUsers).toBe(1);
  expect((await emu.client.iam.getUser({ userId: viaOkta.user.userId })).user.identityProviderCrn).toBe('Cloudera-Default');
});
