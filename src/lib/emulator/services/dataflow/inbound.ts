/** Inbound connection endpoints: host names reserved in an environment, assigned to at most one deployment, with certificates. */
import { randomBytes } from 'node:crypto';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { crnId, uuid } from '../../ids.js';
import type { Workload } from './workload.js';
import { KIND, type Deployment, type InboundEndpoint } from './records.js';

const YEAR = 365 * 24 * 3600_000;

export class InboundEndpoints {
  constructor(private readonly b: Workload) {}

  private save(e: InboundEndpoint): void {
    this.b.store.put(KIND.inbound, crnId(e.crn), e, { crn: e.crn, name: e.fullyQualifiedDomainName });
  }

  get(env: string, crn: string | undefined): InboundEndpoint {
    if (!crn) throw invalid('crn is required');
    const found = this.b.store.getByCrn<InboundEndpoint>(crn);
    if (!found || found.kind !== KIND.inbound || found.doc.environmentCrn !== env)
      throw notFound(`inbound connection endpoint ${crn} not found`);
    return found.doc;
  }

  /** Reserves a host name (a made-up one when none is given). */
  create(env: string, hostname: string | undefined, projectCrn?: string): InboundEndpoint {
    const id = uuid();
    const fqdn = (
      hostname ??
      `ingest-${id.slice(0, 8)}.${crnId(env)
        .toLowerCase()
        .replace(/[^a-z0-9-]/g, '-')}.dfx.example.com`
    ).toLowerCase();
    if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/.test(fqdn))
      throw invalid(`"${fqdn.slice(0, 100)}" is not a valid host name`);
    if (this.b.store.getByName(KIND.inbound, fqdn)) throw alreadyExists(`host name ${fqdn} is already reserved`);
    const e: InboundEndpoint = {
      crn: this.b.crnOf('inboundConnectionEndpoint', id),
      environmentCrn: env,
      fullyQualifiedDomainName: fqdn,
      projectCrn,
      authorizedIpRanges: [],
      serverCertExpiry: this.b.now + YEAR,
      clientCertExpiry: this.b.now + YEAR,
      clientKeyId: randomBytes(8).toString('hex'),
    };
    this.save(e);
    return e;
  }

  /** Assigns a host name (reserved now when new) to a deployment; returns the endpoint's CRN. */
  assign(env: string, hostname: string, deploymentCrn: string): string {
    const e = this.b.store.getByName<InboundEndpoint>(KIND.inbound, hostname.toLowerCase()) ?? this.create(env, hostname);
    if (e.environmentCrn !== env) throw alreadyExists(`host name ${hostname} is reserved in another environment`);
    if (e.deploymentCrn && e.deploymentCrn !== deploymentCrn)
      throw failedPrecondition(`host name ${hostname} is already used by another deployment`);
    e.deploymentCrn = deploymentCrn;
    this.save(e);
    return e.crn;
  }

  /** Frees a deployment's endpoint. */
  release(d: Deployment): void {
    if (!d.inboundEndpointCrn) return;
    const found = this.b.store.getByCrn<InboundEndpoint>(d.inboundEndpointCrn);
    if (found && found.doc.deploymentCrn === d.crn) {
      delete found.doc.deploymentCrn;
      this.save(found.doc);
    }
    delete d.inboundEndpointCrn;
  }

  delete(env: string, crn: string | undefined): void {
    const e = this.get(env, crn);
    if (e.deploymentCrn) {
      const d = this.b.deployments.store.find(e.deploymentCrn);
      if (d)
        throw failedPrecondition(
          `the endpoint is used by deployment ${d.name}; detach it first (deployments update --deactivate-inbound-connection)`,
        );
    }
    this.b.store.delete(KIND.inbound, crnId(e.crn));
  }

  list(env: string): InboundEndpoint[] {
    return this.b.store
      .list<InboundEndpoint>(KIND.inbound)
      .map((x) => x.doc)
      .filter((e) => e.environmentCrn === env);
  }

  /** New certificates for another year; revoking the client certificates gives a new client key. */
  renew(env: string, crn: string | undefined, what: { server: boolean; client: boolean; revokeClient: boolean }): void {
    const e = this.get(env, crn);
    if (what.server) e.serverCertExpiry = this.b.now + YEAR;
    if (what.client) {
      e.clientCertExpiry = this.b.now + YEAR;
      if (what.revokeClient) e.clientKeyId = randomBytes(8).toString('hex');
    }
    this.save(e);
  }
}
