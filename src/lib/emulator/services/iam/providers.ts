/**
 * Identity providers: the built-in one (Cloudera SSO), the account's SAML
 * and LDAP providers, which of them is the default, and the SCIM access
 * tokens of a SAML provider.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Doc } from '../../engine/context.js';
import type { Hook, ResourceHooks } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { text } from '../../values.js';
import { accountOf, type R } from './iam.js';

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

/** An LDAP provider's details: the request fields of these names. */
const LDAP_DETAIL_FIELDS = `url userSearchBase userSearchFilter groupSearchBase groupSearchFilter bindDn userBindProperty groupDnProperty
  usernameMappingAttribute emailMappingAttribute firstNameMappingAttribute lastNameMappingAttribute groupNameMappingAttribute
  tlsCaCertificates startTls`.split(/\s+/);

/** A SAML or LDAP provider, or the built-in one, by name or CRN: its CRN. */
export function identityProviderCrn(h: Hook<R>, ref: string): string {
  if (ref === CLOUDERA_SSO_CRN || ref === BUILTIN_USERS_IDP) return CLOUDERA_SSO_CRN;
  const found = h.records('samlProvider').find(ref)?.crn ?? h.records('ldapProvider').find(ref)?.crn;
  if (found) return found;
  throw notFound(`identity provider ${ref} not found`);
}

/** getDefaultIdentityProvider: the account's default provider, the built-in one until another is chosen. */
export const defaultProviderShown = (h: Hook<R>): Doc => ({ crn: accountOf(h).defaultIdentityProviderCrn ?? CLOUDERA_SSO_CRN });

/** setDefaultIdentityProvider: the provider named, by its CRN (kept beside the account's settings). */
export const defaultProviderSet = (h: Hook<R>, req: Doc): Doc => ({
  defaultIdentityProviderCrn: identityProviderCrn(h, text(req.nameOrCrn)),
});

/** A new provider's name: letters, digits, "-" and "_", and free among SAML and LDAP providers alike. */
function checkProviderName(h: Hook<R>, name: string, kind: 'SAML' | 'LDAP'): void {
  if (!PROVIDER_NAME.test(name)) throw invalid(`${kind} provider names use letters, digits, "-" and "_" and are at most 128 characters`);
  if (h.records('samlProvider').find(name) || h.records('ldapProvider').find(name))
    throw alreadyExists(`an identity provider named ${name} already exists`);
}

function checkMetadata(doc: unknown): void {
  if (typeof doc === 'string' && Buffer.byteLength(doc, 'utf8') > 200_000)
    throw invalid('the SAML metadata document is larger than 200,000 bytes');
}

/** The flags a change of a SAML provider's keys and certificates sets, by the request field each says is given. */
const AUTHN_KEYS = {
  authnRequestSigningKeyDefined: 'authnRequestSigningKey',
  currentAuthnRequestVerificationCertificateDefined: 'currentAuthnRequestVerificationCertificate',
  nextAuthnRequestVerificationCertificateDefined: 'nextAuthnRequestVerificationCertificate',
};
const DECRYPTION_KEYS = {
  samlResponseEncryptionCertificateDefined: 'samlResponseEncryptionCertificate',
  currentSamlResponseDecryptionKeyDefined: 'currentSamlResponseDecryptionKey',
  nextSamlResponseDecryptionKeyDefined: 'nextSamlResponseDecryptionKey',
};

/** What a new SAML provider is unless the request says otherwise: it syncs groups, and has no keys or certificates yet. */
const SAML_DEFAULTS: Readonly<Doc> = {
  syncGroupsOnLogin: true,
  generateWorkloadUsernameByEmail: false,
  enableScim: false,
  ...Object.fromEntries(Object.keys({ ...AUTHN_KEYS, ...DECRYPTION_KEYS }).map((flag) => [flag, false])),
};

/** A SAML provider shows the service provider metadata CDP gives its identity provider, and its SCIM endpoint when SCIM is on. */
function samlShown(h: Hook<R>, rec: Readonly<EngineRecord>, view: Doc): Doc {
  const { accountId, baseUrl } = h.ctx.info;
  const entity = `${baseUrl}/saml/${accountId}/${rec.id}`;
  return {
    scimUrl: view.enableScim === true ? `${baseUrl}/scim/v2/${accountId}/${rec.id}` : undefined,
    cdpSpMetadata:
      `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entity}">` +
      `<md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
      `<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${entity}/acs" index="0"/>` +
      `</md:SPSSODescriptor></md:EntityDescriptor>`,
  };
}

export const samlProviderHooks: ResourceHooks<R> = {
  check: {
    create: (h, rec, req) => {
      checkProviderName(h, rec.name ?? '', 'SAML');
      checkMetadata(req.samlMetadataDocument);
    },
    update: (_h, _rec, req) => checkMetadata(req.samlMetadataDocument),
    delete: (h, rec) => {
      if (accountOf(h).defaultIdentityProviderCrn === rec.crn)
        throw failedPrecondition(`SAML provider ${nameOf(rec)} is the default identity provider; choose another default first`);
    },
  },
  fill: (_h, _rec, req) => Object.fromEntries(Object.entries(SAML_DEFAULTS).filter(([k]) => typeof req[k] !== 'boolean')),
  show: samlShown,
};

/**
 * The request of a change of a SAML provider's keys and certificates, as
 * the fields it sets: each `fields` key the flag set when the request gives
 * its request field (what is left out is cleared), and when (`updated`);
 * only whether each is set is kept.
 */
const samlKeys =
  (updated: string, fields: Readonly<Record<string, string>>) =>
  (h: Hook<R>, sent: Doc): Doc => {
    const given = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';
    const out: Doc = { samlProvider: sent.samlProvider, [updated]: h.ctx.clock.iso() };
    for (const [flag, field] of Object.entries(fields)) out[flag] = given(sent[field]);
    return out;
  };

export const authnRequestSigningKeySet = samlKeys('authnRequestConfigurationLastUpdated', AUTHN_KEYS);
export const responseDecryptionKeySet = samlKeys('samlResponseEncryptionDecryptionConfigurationLastUpdated', DECRYPTION_KEYS);

/**
 * An LDAP provider's details from a request (its URL checked; a bind DN
 * needed unless the bind is anonymous), and whether it binds with a
 * password (`previous`: whether it did before, when the request gives none).
 * The password itself is not kept.
 */
function ldapDetails(req: Doc, previous = false): { ldapDetails: Doc; bindPasswordSet: boolean } {
  const url = String(req.url);
  if (!/^ldaps?:\/\/[^\s/:]+(:\d{1,5})?\/?$/i.test(url))
    throw invalid('the LDAP url must start with ldap:// or ldaps:// followed by a host and an optional port');
  const bindPasswordSet = typeof req.bindPassword === 'string' ? req.bindPassword !== '' : previous;
  if (bindPasswordSet && (typeof req.bindDn !== 'string' || !req.bindDn)) throw invalid('bindDn is required unless the bind is anonymous');
  return {
    ldapDetails: Object.fromEntries(LDAP_DETAIL_FIELDS.filter((f) => req[f] !== undefined).map((f) => [f, req[f]])),
    bindPasswordSet,
  };
}

/** createLdapProvider: the request as the provider's fields (its name rule and details checked); whether it binds with a password is kept with it. */
export function ldapProviderAsked(h: Hook<R>, sent: Doc): Doc {
  const name = String(sent.ldapProviderName);
  checkProviderName(h, name, 'LDAP');
  return { ldapProviderName: name, skipGroupSyncOnLogin: sent.skipGroupSyncOnLogin === true, ...ldapDetails(sent) };
}

/** Whether an LDAP provider binds with a password (kept beside it: by its create's request, then by its updates). */
const bindsWithPassword = (rec: Readonly<EngineRecord>): boolean =>
  (rec.data?.bindPasswordSet ?? (rec.data?.request as Doc | undefined)?.bindPasswordSet) === true;

/** updateLdapProvider: its details replaced (checked), its group sync switched when the request says. */
export function ldapProviderChanged(h: Hook<R>, sent: Doc): Doc {
  const p = h.records('ldapProvider').get(text(sent.ldapProviderName));
  return {
    ldapProviderName: sent.ldapProviderName,
    ...(typeof sent.skipGroupSyncOnLogin === 'boolean' ? { skipGroupSyncOnLogin: sent.skipGroupSyncOnLogin } : {}),
    ...ldapDetails(sent, bindsWithPassword(p)),
  };
}

export const ldapProviderHooks: ResourceHooks<R> = {
  // Whether it binds with a password, as its update found (its rewrite): the password itself is not kept.
  keep: { update: (_h, _rec, req) => ({ bindPasswordSet: req.bindPasswordSet === true }) },
};

export const scimAccessTokenHooks: ResourceHooks<R> = {
  check: {
    create: (h, rec, req) => {
      const p = h.records('samlProvider').byId(rec.scope);
      if (p && p.doc.enableScim !== true) throw failedPrecondition(`SCIM is not enabled for SAML provider ${nameOf(p)}`);
      const days = Number(req.accessTokenLifetimeDays);
      if (!Number.isInteger(days) || days < 1 || days > 3650) throw invalid('accessTokenLifetimeDays must be between 1 and 3650');
    },
  },
  fill: (h, _rec, req) => ({ expirationDate: h.ctx.clock.iso(h.ctx.clock.now() + Number(req.accessTokenLifetimeDays) * DAY_MS) }),
};

/** A new token's answer: its secret, made now and shown once; only its hash is kept. */
export function scimTokenIssued(h: Hook<R>, rec: Readonly<EngineRecord>): Doc {
  const secret = randomBytes(32).toString('base64url');
  h.records('scimAccessToken').save({ ...rec, data: { ...rec.data, secretHash: createHash('sha256').update(secret).digest('hex') } });
  return { accessToken: rec.doc, accessTokenSecret: secret };
}
