/**
 * Cloud accounts authorized for the private-link services of a region: an
 * `access` record each (named `<provider>:<account>:<region>`, whose names
 * replace: authorizing again changes nothing); revoking one that is not
 * there is NOT_FOUND.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { notFound } from '../../errors.js';
import { str } from '../../values.js';
import type { R } from './endpoints.js';
import { checkRegion, checkServiceGroup, serviceResults, type Provider } from './regions.js';

/** The account and region a request names, as the access verbs read it (the region checked). */
export function accessRequest(_h: Hook<R>, req: Doc): Doc {
  checkServiceGroup(str(req.serviceGroup));
  const provider: Provider = (str(req.cloudServiceProvider) as Provider | undefined) ?? (str(req.cloudAccountId) ? 'AWS' : 'AZURE');
  const account = str(provider === 'AWS' ? req.cloudAccountId : req.subscriptionId) ?? '';
  const region = checkRegion(provider, str(req.region));
  return { ...req, provider, account, region, accessName: `${provider}:${account}:${region}` };
}

/** authorizePrivateLinkServiceAccess's answer: each service of the region, authorized (as the first time, when it is again). */
export function authorized(_h: Hook<R>, _rec: unknown, req: Doc): Doc {
  return {
    status: 'SUCCESS',
    authorizePrivateLinkServiceAccessResults: serviceResults(req.provider as Provider, String(req.region)).map((r) => ({
      ...r,
      authorizationStatus: 'AUTHORIZED',
    })),
  };
}

/** A revoke's request: the account must be authorized there. */
export function revokeRequest(h: Hook<R>, sent: Doc): Doc {
  const req = accessRequest(h, sent);
  if (!h.records('access').find(String(req.accessName)))
    throw notFound(`${String(req.provider)} account "${String(req.account)}" is not authorized for private links in ${String(req.region)}`);
  return req;
}

/** revokePrivateLinkServiceAccess's answer: each service of the region, revoked. */
export function revoked(_h: Hook<R>, _rec: unknown, req: Doc): Doc {
  return {
    status: 'SUCCESS',
    revokePrivateLinkServiceAccessResults: serviceResults(req.provider as Provider, String(req.region)).map((r) => ({
      privateLinkService: r.privateLinkService,
      serviceComponent: r.serviceComponent,
      revocationStatus: 'REVOKED',
    })),
  };
}
