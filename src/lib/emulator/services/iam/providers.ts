/**
 * Identity providers: the built-in one (Cloudera SSO), the account's SAML
 * and LDAP providers, which of them is the default, and the SCIM access
 * tokens of a SAML provider.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { paged, storeListing } from '../../engine/paging.js';
import { strings, text, uniq } from '../../values.js';
import { iamOf, type Iam, type R } from './iam.js';
import { KIND, type LdapProviderRecord, type SamlProviderRecord, type ScimTokenRecord } from './records.js';

/**
 * The built-in identity provider, Cloudera SSO, by the CRN the API gives it
 * (audit.yaml's interactive login events; getDefaultIdentityProvider
 * answers it while no provider of the account is the default).
 */
export const CLOUDERA_SSO_CRN = 'crn:altus:iam:us-west-1:altus:samlProvider:cloudera-sso';
/**
 * What a user of the built-in provider shows as its `identityProviderCrn`:
 * not a CRN but the name the API documents ("Cloudera-Default",
 * "Cloudera-Administration" for Cloudera's own staff, or a customer IdP's
 * CRN). A request may name the built-in provider by it as well.
 */
export const BUILTIN_USERS_IDP = 'Cloudera-Default';

const PROVIDER_NAME = /^[A-Za-z0-9_-]{1,128}$/;
const DAY_MS = 86_400_000;

const LDAP_DETAIL_FIELDS = [
  'url',
  'userSearchBase',
  'userSearchFilter',
  'groupSearchBase',
  'groupSearchFilter',
  'bindDn',
  'userBindProperty',
  'groupDnProperty',
  'usernameMappingAttribute',
  'emailMappingAttribute',
  'firstNameMappingAttribute',
  'lastNameMappingAttribute',
  'groupNameMappingAttribute',
  'tlsCaCertificates',
  'startTls',
] as const;

export const samlProvider = (iam: Iam, ref: string): SamlProviderRecord =>
  iam.need<SamlProviderRecord>(KIND.samlProvider, ref, 'SAML provider');

/** A SAML or LDAP provider, or the built-in one, by name or CRN: its CRN. */
export function identityProviderCrn(iam: Iam, ref: string): string {
  if (ref === CLOUDERA_SSO_CRN || ref === BUILTIN_USERS_IDP) return CLOUDERA_SSO_CRN;
  const found = iam.find<SamlProviderRecord>(KIND.samlProvider, ref) ?? iam.find<LdapProviderRecord>(KIND.ldapProvider, ref);
  if (found) return found.crn;
  throw notFound(`identity provider ${ref} not found`);
}

export const defaultIdentityProviderCrn = (iam: Iam): string => iam.account().defaultIdentityProviderCrn ?? CLOUDERA_SSO_CRN;

export const getDefaultIdentityProvider = (h: Hook<R>): Doc => ({ crn: defaultIdentityProviderCrn(iamOf(h)) });

export function setDefaultIdentityProvider(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const c = identityProviderCrn(iam, text(req.nameOrCrn));
  const a = iam.account();
  a.defaultIdentityProviderCrn = c;
  iam.putAccount(a);
  return {};
}

function checkProviderName(name: string, kind: 'SAML' | 'LDAP'): void {
  if (!PROVIDER_NAME.test(name)) throw invalid(`${kind} provider names use letters, digits, "-" and "_" and are at most 128 characters`);
}

/** A new provider's name must be free among SAML and LDAP providers alike. */
function checkProviderNameFree(iam: Iam, name: string): void {
  if (iam.store.getByName(KIND.samlProvider, name) || iam.store.getByName(KIND.ldapProvider, name)) {
    throw alreadyExists(`an identity provider named ${name} already exists`);
  }
}

// ---------------------------------------------------------------- SAML

function checkMetadata(doc: unknown): void {
  if (typeof doc === 'string' && Buffer.byteLength(doc, 'utf8') > 200_000) {
    throw invalid('the SAML metadata document is larger than 200,000 bytes');
  }
}

const putSaml = (iam: Iam, rec: SamlProviderRecord): void =>
  void iam.store.put(KIND.samlProvider, rec.samlProviderId, rec, { crn: rec.crn, name: rec.samlProviderName });

/** A SAML provider as the API shows it: with the service provider metadata CDP gives its identity provider, and its SCIM endpoint. */
function samlProviderOut(iam: Iam, p: SamlProviderRecord): Doc {
  const { accountId, baseUrl } = iam.info;
  const entity = `${baseUrl}/saml/${accountId}/${p.samlProviderId}`;
  const { samlMetadataDocument, ...rest } = p;
  return {
    ...rest,
    ...(p.enableScim ? { scimUrl: `${baseUrl}/scim/v2/${accountId}/${p.samlProviderId}` } : {}),
    ...(samlMetadataDocument !== undefined ? { samlMetadataDocument } : {}),
    cdpSpMetadata:
      `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entity}">` +
      `<md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
      `<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${entity}/acs" index="0"/>` +
      `</md:SPSSODescriptor></md:EntityDescriptor>`,
  };
}

export function createSamlProvider(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const name = String(req.samlProviderName);
  checkProviderName(name, 'SAML');
  checkMetadata(req.samlMetadataDocument);
  checkProviderNameFree(iam, name);
  const id = uuid();
  const rec: SamlProviderRecord = {
    samlProviderId: id,
    samlProviderName: name,
    crn: iam.crn('samlProvider', `${name}/${id}`),
    creationDate: iam.now(),
    syncGroupsOnLogin: typeof req.syncGroupsOnLogin === 'boolean' ? req.syncGroupsOnLogin : true,
    generateWorkloadUsernameByEmail: req.generateWorkloadUsernameByEmail === true,
    enableScim: req.enableScim === true,
    ...(typeof req.samlMetadataDocument === 'string' ? { samlMetadataDocument: req.samlMetadataDocument } : {}),
    authnRequestSigningKeyDefined: false,
    currentAuthnRequestVerificationCertificateDefined: false,
    nextAuthnRequestVerificationCertificateDefined: false,
    samlResponseEncryptionCertificateDefined: false,
    currentSamlResponseDecryptionKeyDefined: false,
    nextSamlResponseDecryptionKeyDefined: false,
  };
  putSaml(iam, rec);
  return { samlProvider: samlProviderOut(iam, rec) };
}

export function updateSamlProvider(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const p = samlProvider(iam, text(req.samlProviderName));
  checkMetadata(req.samlMetadataDocument);
  if (typeof req.samlMetadataDocument === 'string') p.samlMetadataDocument = req.samlMetadataDocument;
  for (const f of ['syncGroupsOnLogin', 'generateWorkloadUsernameByEmail', 'enableScim'] as const) {
    const v = req[f];
    if (typeof v === 'boolean') p[f] = v;
  }
  putSaml(iam, p);
  return { samlProvider: samlProviderOut(iam, p) };
}

export function describeSamlProvider(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  return { samlProvider: samlProviderOut(iam, samlProvider(iam, text(req.samlProviderName))) };
}

export function deleteSamlProvider(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const p = samlProvider(iam, text(req.samlProviderName));
  if (iam.account().defaultIdentityProviderCrn === p.crn) {
    throw failedPrecondition(`SAML provider ${p.samlProviderName} is the default identity provider; choose another default first`);
  }
  for (const t of iam.store.children(KIND.scimToken, p.crn)) iam.store.delete(KIND.scimToken, t.id);
  iam.store.delete(KIND.samlProvider, p.samlProviderId);
  return {};
}

export function listSamlProviders(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const names = uniq(strings(req.samlProviderNames));
  const all = names.length > 0 ? names.map((n) => samlProvider(iam, n)) : storeListing<SamlProviderRecord>(iam.store, KIND.samlProvider);
  return paged(h.ctx, req, all, (p) => samlProviderOut(iam, p));
}

/**
 * Replaces keys and certificates of a SAML provider, each `fields` key the
 * record's `<flag>` set when the request gives its request field: what is
 * left out is cleared; only whether each is set is kept, with when.
 */
function setSamlKeys(h: Hook<R>, req: Doc, updated: keyof SamlProviderRecord, fields: Readonly<Record<string, string>>): Doc {
  const iam = iamOf(h);
  const p = samlProvider(iam, text(req.samlProvider));
  const given = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';
  const answer: Doc = { [updated]: iam.now() };
  for (const [flag, field] of Object.entries(fields)) answer[flag] = given(req[field]);
  Object.assign(p, answer);
  putSaml(iam, p);
  return answer;
}

export const setSamlAuthnRequestSigningKey = (h: Hook<R>, req: Doc): Doc =>
  setSamlKeys(h, req, 'authnRequestConfigurationLastUpdated', {
    authnRequestSigningKeyDefined: 'authnRequestSigningKey',
    currentAuthnRequestVerificationCertificateDefined: 'currentAuthnRequestVerificationCertificate',
    nextAuthnRequestVerificationCertificateDefined: 'nextAuthnRequestVerificationCertificate',
  });

export const setSamlResponseDecryptionKey = (h: Hook<R>, req: Doc): Doc =>
  setSamlKeys(h, req, 'samlResponseEncryptionDecryptionConfigurationLastUpdated', {
    samlResponseEncryptionCertificateDefined: 'samlResponseEncryptionCertificate',
    currentSamlResponseDecryptionKeyDefined: 'currentSamlResponseDecryptionKey',
    nextSamlResponseDecryptionKeyDefined: 'nextSamlResponseDecryptionKey',
  });

// ---------------------------------------------------------------- LDAP

function ldapDetails(req: Doc, previous?: LdapProviderRecord): { ldapDetails: Doc; bindPasswordSet: boolean } {
  const url = String(req.url);
  if (!/^ldaps?:\/\/[^\s/:]+(:\d{1,5})?\/?$/i.test(url)) {
    throw invalid('the LDAP url must start with ldap:// or ldaps:// followed by a host and an optional port');
  }
  const bindPasswordSet = typeof req.bindPassword === 'string' ? req.bindPassword !== '' : (previous?.bindPasswordSet ?? false);
  if (bindPasswordSet && (typeof req.bindDn !== 'string' || !req.bindDn)) throw invalid('bindDn is required unless the bind is anonymous');
  const details: Doc = {};
  for (const f of LDAP_DETAIL_FIELDS) if (req[f] !== undefined) details[f] = req[f];
  return { ldapDetails: details, bindPasswordSet };
}

const putLdap = (iam: Iam, rec: LdapProviderRecord): void =>
  void iam.store.put(KIND.ldapProvider, rec.identityProviderConnectorId, rec, { crn: rec.crn, name: rec.ldapProviderName });

const ldapProviderOut = (p: LdapProviderRecord): Doc => ({
  identityProviderConnectorId: p.identityProviderConnectorId,
  ldapProviderName: p.ldapProviderName,
  crn: p.crn,
  skipGroupSyncOnLogin: p.skipGroupSyncOnLogin,
  creationDate: p.creationDate,
  ldapDetails: { ...p.ldapDetails },
});

export function createLdapProvider(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const name = String(req.ldapProviderName);
  checkProviderName(name, 'LDAP');
  checkProviderNameFree(iam, name);
  const id = uuid();
  const rec: LdapProviderRecord = {
    identityProviderConnectorId: id,
    ldapProviderName: name,
    crn: iam.crn('ldapProvider', `${name}/${id}`),
    creationDate: iam.clock.now(),
    skipGroupSyncOnLogin: req.skipGroupSyncOnLogin === true,
    ...ldapDetails(req),
  };
  putLdap(iam, rec);
  return { ldapProvider: ldapProviderOut(rec) };
}

export function updateLdapProvider(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const p = iam.need<LdapProviderRecord>(KIND.ldapProvider, text(req.ldapProviderName), 'LDAP provider');
  Object.assign(p, ldapDetails(req, p));
  if (typeof req.skipGroupSyncOnLogin === 'boolean') p.skipGroupSyncOnLogin = req.skipGroupSyncOnLogin;
  putLdap(iam, p);
  return { ldapProvider: ldapProviderOut(p) };
}

// ---------------------------------------------------------------- SCIM access tokens

const scimTokenOut = (t: ScimTokenRecord): Doc => ({
  accessTokenId: t.accessTokenId,
  crn: t.crn,
  creationDate: t.creationDate,
  expirationDate: t.expirationDate,
});

export function createScimAccessToken(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const p = samlProvider(iam, text(req.identityProviderNameOrCrn));
  const days = Number(req.accessTokenLifetimeDays);
  if (!p.enableScim) throw failedPrecondition(`SCIM is not enabled for SAML provider ${p.samlProviderName}`);
  if (!Number.isInteger(days) || days < 1 || days > 3650) throw invalid('accessTokenLifetimeDays must be between 1 and 3650');
  const id = uuid();
  const secret = randomBytes(32).toString('base64url');
  const now = iam.clock.now();
  const rec: ScimTokenRecord = {
    accessTokenId: id,
    crn: iam.crn('scimAccessToken', id),
    creationDate: iam.clock.iso(now),
    expirationDate: iam.clock.iso(now + days * DAY_MS),
    providerCrn: p.crn,
    secretHash: createHash('sha256').update(secret).digest('hex'),
  };
  iam.store.put(KIND.scimToken, id, rec, { crn: rec.crn, parent: p.crn });
  return { accessToken: scimTokenOut(rec), accessTokenSecret: secret };
}

export function listScimAccessTokens(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const p = samlProvider(iam, text(req.identityProviderNameOrCrn));
  const tokens = iam.store.children<ScimTokenRecord>(KIND.scimToken, p.crn).map((r) => r.doc);
  return paged(h.ctx, req, tokens, scimTokenOut);
}

export function deleteScimAccessToken(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const t = iam.need<ScimTokenRecord>(KIND.scimToken, text(req.accessTokenIdOrCrn), 'SCIM access token', 'id');
  iam.store.delete(KIND.scimToken, t.accessTokenId);
  return {};
}
