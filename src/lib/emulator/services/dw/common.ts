/**
 * What the Data Warehouse's resources share: their ids as the service
 * writes them (`env-sq7hfv`, `warehouse-1696571829-pps2`), who made them
 * (an ActorResponse), when their status last changed, and the cluster a
 * catalog, warehouse or visualization lives in.
 */
import { resources as facts } from '../../../model/services/dw/resources.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { progress } from '../../engine/timeline.js';
import { randomToken } from '../../ids.js';
import type { Doc } from '../../types.js';

/** `<prefix>-<unix seconds>-<4 characters>`: the ids of catalogs, warehouses, visualizations and configurations. */
export const entityId = (h: Hook, prefix: string): string => `${prefix}-${Math.floor(h.ctx.clock.now() / 1000)}-${randomToken(4)}`;

/** The caller as an ActorResponse: its CRN, and its names when the account knows it. */
export function actor(h: Hook): Doc {
  const crn = h.ctx.caller.actorCrn;
  const known = h.world.identities.actor(crn);
  const name = known?.workloadUsername;
  return {
    crn,
    ...(known?.email ? { email: known.email } : {}),
    ...(name ? (h.ctx.caller.kind === 'machineUser' ? { machineUsername: name } : { workloadUsername: name }) : {}),
  };
}

/** When a record's current status began (ISO 8601): the start of the phase its activity is in. */
export function statusSince(h: Hook, rec: EngineRecord): string {
  const now = h.ctx.clock.now();
  const act = rec.activity;
  const p = progress(act, now);
  if (p.cancelled) return new Date(p.endsAt).toISOString();
  let since = act.tl.startedAt;
  for (const step of act.tl.steps) if (act.tl.startedAt + step.afterMs <= now) since = act.tl.startedAt + step.afterMs;
  return new Date(since).toISOString();
}

/** The cluster a record of the cluster lives in (its scope). */
export function clusterOf(h: Hook, rec: EngineRecord): EngineRecord {
  const cluster = h.records('cluster').byId(rec.scope);
  if (!cluster) throw new Error(`dw record ${rec.id} has no cluster ${rec.scope}`);
  return cluster;
}

/** FAILED_PRECONDITION unless the cluster is Running: what catalogs, warehouses and visualizations need of it. */
export function requireRunningCluster(h: Hook, cluster: EngineRecord, what: string): void {
  h.records('cluster').require(cluster, ['Running'], what);
}

/** The cloud a cluster runs on; undefined for a private cloud cluster. */
export const cloudOf = (cluster: EngineRecord): 'AWS' | 'AZURE' | undefined => {
  const p = cluster.doc.cloudPlatform;
  return p === 'AWS' || p === 'AZURE' ? p : undefined;
};

/**
 * The facts of the resources dw keeps records of. Its facts' other entries
 * (productSupport, dbcUpgrade, vwUpgrade, backupDeletion, clusterRestore,
 * restorePlan) are the shapes of answers whose values they list.
 */
const {
  productSupport: _productSupport,
  dbcUpgrade: _dbcUpgrade,
  vwUpgrade: _vwUpgrade,
  backupDeletion: _backupDeletion,
  clusterRestore: _clusterRestore,
  restorePlan: _restorePlan,
  ...records
} = facts.resources;
export const recordFacts = { resources: records };
export type R = keyof typeof records;
