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
import { iso } from '../../values.js';

/** `<prefix>-<unix seconds>-<4 characters>`: the ids of catalogs, warehouses, visualizations and configurations. */
export const entityId = (h: Hook, prefix: string): string => `${prefix}-${Math.floor(h.ctx.clock.now() / 1000)}-${randomToken(4)}`;

/** The caller as an ActorResponse: its CRN, and its names when the account knows it. */
export function actor(h: Hook): Doc {
  const crn = h.ctx.caller.actorCrn;
  const known = h.world.identities.actor(crn);
  const name = known?.workloadUsername;
  const username = h.ctx.caller.kind === 'machineUser' ? 'machineUsername' : 'workloadUsername';
  return { crn, ...(known?.email ? { email: known.email } : {}), ...(name ? { [username]: name } : {}) };
}

/** When a record's current status began (ISO 8601): the start of the phase its activity is in. */
export function statusSince(h: Hook, rec: EngineRecord): string {
  const now = h.ctx.clock.now();
  const { tl } = rec.activity;
  const p = progress(rec.activity, now);
  if (p.cancelled) return iso(p.endsAt);
  return iso(Math.max(tl.startedAt, ...tl.steps.map((s) => tl.startedAt + s.afterMs).filter((at) => at <= now)));
}

/** The records of a resource in a scope (all the account's when none is given), in creation order. */
export const all = (h: Hook, key: R, scope?: string): EngineRecord[] => h.records(key).all(scope);

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
 * are the shapes of answers whose values they list.
 */
const SHAPES = ['productSupport', 'dbcUpgrade', 'vwUpgrade', 'backupDeletion', 'clusterRestore', 'restorePlan'] as const;
type Records = Omit<typeof facts.resources, (typeof SHAPES)[number]>;
const records = Object.fromEntries(Object.entries(facts.resources).filter(([k]) => !(SHAPES as readonly string[]).includes(k))) as Records;
export const recordFacts = { resources: records };
export type R = keyof Records;
