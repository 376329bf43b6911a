/** Identity providers of the account (SAML and LDAP), the default one, and the SCIM access tokens of a SAML provider. */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { paged } from '../../paging.js';
import { strings, text } from '../../values.js';
import { backendOf, type R } from './backend.js';

export function createSamlProvider(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { samlProvider: b.samlProviderOut(b.createSamlProvider(req)) };
}

export function updateSamlProvider(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { samlProvider: b.samlProviderOut(b.updateSamlProvider(req)) };
}

export function describeSamlProvider(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { samlProvider: b.samlProviderOut(b.samlProvider(text(req.samlProviderName))) };
}

export function deleteSamlProvider(h: Hook<R>, req: Doc): Doc {
  backendOf(h).deleteSamlProvider(text(req.samlProviderName));
  return {};
}

export function listSamlProviders(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return paged(h.ctx, req, b.listSamlProviders(strings(req.samlProviderNames)), (x) => b.samlProviderOut(x));
}

export const setSamlAuthnRequestSigningKey = (h: Hook<R>, req: Doc): Doc => backendOf(h).setAuthnRequestSigningKey(req);

export const setSamlResponseDecryptionKey = (h: Hook<R>, req: Doc): Doc => backendOf(h).setResponseDecryptionKey(req);

export function createLdapProvider(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { ldapProvider: b.ldapProviderOut(b.createLdapProvider(req)) };
}

export function updateLdapProvider(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { ldapProvider: b.ldapProviderOut(b.updateLdapProvider(req)) };
}

export const getDefaultIdentityProvider = (h: Hook<R>): Doc => ({ crn: backendOf(h).defaultIdentityProviderCrn() });

export function setDefaultIdentityProvider(h: Hook<R>, req: Doc): Doc {
  backendOf(h).setDefaultIdentityProvider(text(req.nameOrCrn));
  return {};
}

export const createScimAccessToken = (h: Hook<R>, req: Doc): Doc =>
  backendOf(h).createScimToken(text(req.identityProviderNameOrCrn), Number(req.accessTokenLifetimeDays));

export function listScimAccessTokens(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return paged(h.ctx, req, b.scimTokens(text(req.identityProviderNameOrCrn)), (t) => b.scimTokenOut(t));
}

export function deleteScimAccessToken(h: Hook<R>, req: Doc): Doc {
  backendOf(h).deleteScimToken(text(req.accessTokenIdOrCrn));
  return {};
}
