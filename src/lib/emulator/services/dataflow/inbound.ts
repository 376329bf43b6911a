/** Inbound connection endpoints: host names reserved in an environment, assigned to at most one deployment, with certificates. */
import { randomBytes } from 'node:crypto';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { crnId, uuid } from '../../ids.js';
import type { Workload } from './workload.js';
import { KIND, type InboundEndpoint } from './records.js';
import { deploymentRecords } from './deployed.js';

const YEAR = 365 * 24 * 3600_000;

function save(w: Workload, e: InboundEndpoint): void {
  w.store.put(KIND.inbound, crnId(e.crn), e, { crn: e.crn, name: e.fullyQualifiedDomainName });
}

export function get(w: Workload, env: string, crn: string | undefined): InboundEndpoint {
  if (!crn) throw invalid('crn is required');
  const found = w.store.getByCrn<InboundEndpoint>(crn);
  if (!found || found.kind !== KIND.inbound || found.doc.environmentCrn !== env)
    throw notFound(`inbound connection endpoint ${crn} not found`);
  return found.doc;
}

/** Reserves a host name (a made-up one when none is given). */
export function create(w: Workload, env: string, hostname: string | undefined, projectCrn?: string): InboundEndpoint {
  const id = uuid();
  const fqdn = (
    hostname ??
    `ingest-${id.slice(0, 8)}.${crnId(env)
      .toLowerCase()
      .replace(/[^a-z0-9-]/g, '-')}.dfx.example.com`
  ).toLowerCase();
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/.test(fqdn))
    throw invalid(`"${fqdn.slice(0, 100)}" is not a valid host name`);
  if (w.store.getByName(KIND.inbound, fqdn)) throw alreadyExists(`host name ${fqdn} is already reserved`);
  const e: InboundEndpoint = {
    crn: w.crnOf('inboundConnectionEndpoint', id),
    environmentCrn: env,
    fullyQualifiedDomainName: fqdn,
    projectCrn,
    authorizedIpRanges: [],
    serverCertExpiry: w.now + YEAR,
    clientCertExpiry: w.now + YEAR,
    clientKeyId: randomBytes(8).toString('hex'),
  };
  save(w, e);
  return e;
}

/** Assigns a host name (reserved now when new) to a deployment; returns the endpoint's CRN. */
export function assign(w: Workload, env: string, hostname: string, deploymentCrn: string): string {
  const e = w.store.getByName<InboundEndpoint>(KIND.inbound, hostname.toLowerCase()) ?? create(w, env, hostname);
  if (e.environmentCrn !== env) throw alreadyExists(`host name ${hostname} is reserved in another environment`);
  if (e.deploymentCrn && e.deploymentCrn !== deploymentCrn)
    throw failedPrecondition(`host name ${hostname} is already used by another deployment`);
  e.deploymentCrn = deploymentCrn;
  save(w, e);
  return e.crn;
}

export function remove(w: Workload, env: string, crn: string | undefined): void {
  const e = get(w, env, crn);
  if (e.deploymentCrn) {
    const d = deploymentRecords(w).find(e.deploymentCrn);
    if (d)
      throw failedPrecondition(
        `the endpoint is used by deployment ${d.name}; detach it first (deployments update --deactivate-inbound-connection)`,
      );
  }
  w.store.delete(KIND.inbound, crnId(e.crn));
}

export function list(w: Workload, env: string): InboundEndpoint[] {
  return w.store
    .list<InboundEndpoint>(KIND.inbound)
    .map((x) => x.doc)
    .filter((e) => e.environmentCrn === env);
}

/** New certificates for another year; revoking the client certificates gives a new client key. */
export function renew(
  w: Workload,
  env: string,
  crn: string | undefined,
  what: { server: boolean; client: boolean; revokeClient: boolean },
): void {
  const e = get(w, env, crn);
  if (what.server) e.serverCertExpiry = w.now + YEAR;
  if (what.client) {
    e.clientCertExpiry = w.now + YEAR;
    if (what.revokeClient) e.clientKeyId = randomBytes(8).toString('hex');
  }
  save(w, e);
}
