/**
 * Inbound connection endpoints, records of the engine (index.ts's
 * `inboundConnectionEndpoint`): host names reserved once across the
 * account, each of an environment, assigned to at most one of its
 * deployments, with a server and client certificates that expire in a year
 * and are renewed on request.
 */
import { randomBytes } from 'node:crypto';
import type { Doc } from '../../engine/context.js';
import type { Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid } from '../../errors.js';
import { crnId } from '../../ids.js';
import { docs, num, str, text } from '../../values.js';
import { Workload, inEnvironment, type R } from './workload.js';

const YEAR = 365 * 24 * 3600_000;
const CERTIFICATES = ['SERVER_ENTITY', 'CLIENT_ENTITY', 'CLIENT_CA'] as const;

/** A create reserves the host name asked for (any case), or one made up in the environment's domain. */
export function hostnameOf(_h: Hook<R>, sent: Doc): Doc {
  const env = crnId(text(sent.environmentCrn))
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-');
  const fqdn = (str(sent.hostname) ?? `ingest-${randomBytes(4).toString('hex')}.${env}.dfx.example.com`).toLowerCase();
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/.test(fqdn))
    throw invalid(`"${fqdn.slice(0, 100)}" is not a valid host name`);
  return { ...sent, fullyQualifiedDomainName: fqdn };
}

/** A renewal's certificates: the ones asked for expire a year from now (revoking the client ones only with them). */
export function renewed(h: Hook<R>, sent: Doc): Doc {
  const rec = h.locate('inboundConnectionEndpoint', sent);
  const renews = (type: string): boolean =>
    (type === 'SERVER_ENTITY' ? sent.renewServerCertificate : sent.renewClientCertificates) === true;
  const at = h.ctx.clock.now() + YEAR;
  return {
    ...sent,
    certificateSummaries: docs(rec.doc.certificateSummaries).map((c) => (renews(text(c.certificateType)) ? { ...c, expiration: at } : c)),
  };
}

/** The client certificate and key of an endpoint (base64 of PEM). */
export function clientCertificates(_h: Hook<R>, rec: Readonly<EngineRecord>): Doc {
  const pem = (label: string): string => {
    const body = Buffer.from(`${label}:${String(rec.name)}:${randomBytes(48).toString('hex')}`).toString('base64');
    return `-----BEGIN ${label}-----\n${(body.match(/.{1,64}/g) ?? []).join('\n')}\n-----END ${label}-----\n`;
  };
  return {
    clientCertificate: Buffer.from(pem('CERTIFICATE')).toString('base64'),
    clientPrivateKey: Buffer.from(pem('PRIVATE KEY')).toString('base64'),
  };
}

/** The declaration of inbound connection endpoints. */
export const endpoint: Resource<R> = {
  ...inEnvironment('inbound connection endpoint', ['crn']),
  hooks: {
    check: {
      // A host name is reserved once in the account, not only in its environment.
      create: (h, rec) => {
        if (h.records('inboundConnectionEndpoint').find(String(rec.name)))
          throw alreadyExists(`host name ${String(rec.name)} is already reserved`);
      },
      delete: (h, rec) => {
        const d = str(rec.doc.deploymentCrn) ? new Workload(h).deployments.find(String(rec.doc.deploymentCrn)) : undefined;
        if (d)
          throw failedPrecondition(
            `the endpoint is used by deployment ${d.name}; detach it first (deployments update --deactivate-inbound-connection)`,
          );
      },
    },
    // Unassigned at first, in the project asked for or none (the shape's made-up values would name a deployment and a project).
    fill: (h, _rec, req) => ({
      deploymentCrn: undefined,
      projectCrn: str(req.projectCrn),
      authorizedIpRanges: [],
      certificateSummaries: CERTIFICATES.map((certificateType) => ({ certificateType, expiration: h.ctx.clock.now() + YEAR })),
    }),
    show: (h, rec) => ({
      state: str(rec.doc.deploymentCrn) ? 'ASSIGNED' : 'UNASSIGNED',
      certificateSummaries: docs(rec.doc.certificateSummaries).map((c) => ({
        ...c,
        state: (num(c.expiration) ?? 0) > h.ctx.clock.now() ? 'CURRENT' : 'EXPIRED',
      })),
    }),
  },
};

/** Assigns a host name (reserved now when new) to a deployment; returns the endpoint's CRN. */
export function assign(w: Workload, env: string, hostname: string, deploymentCrn: string): string {
  const records = w.h.records('inboundConnectionEndpoint');
  const fqdn = hostname.toLowerCase();
  if (!records.find(fqdn)) w.h.perform('createInboundConnectionEndpoint', { environmentCrn: env, hostname: fqdn });
  const e = records.get(fqdn);
  if (e.scope !== env) throw alreadyExists(`host name ${hostname} is reserved in another environment`);
  if (str(e.doc.deploymentCrn) && e.doc.deploymentCrn !== deploymentCrn)
    throw failedPrecondition(`host name ${hostname} is already used by another deployment`);
  e.doc.deploymentCrn = deploymentCrn;
  records.save(e);
  return String(e.crn);
}
