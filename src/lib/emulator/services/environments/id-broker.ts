/**
 * An environment's ID Broker mappings: one record per environment (the
 * table's `idBrokerMappings`, a part of the environment that goes with it),
 * empty at version 0 until a set replaces them and bumps the version; a sync
 * brings the environment's clusters to the version set (kept beside the
 * record, `data.syncedVersion`).
 */
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { invalid } from '../../errors.js';
import { uuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { docs, num, str, text } from '../../values.js';
import type { R } from './backend.js';

/**
 * The request names the environment's mappings. An environment has them
 * from the start, empty: they are made the first time a request names them
 * (before the verb finds them), so an environment that never had them set
 * answers version 0 as the control plane does.
 */
export function idBrokerOf(h: Hook<R>, sent: Doc): Doc {
  const env = h.world.environments.require(text(sent.environmentName));
  const all = h.records('idBrokerMappings');
  if (all.all(env.crn).length === 0)
    all.create({
      id: uuid(),
      scope: env.crn,
      env: env.crn,
      doc: { mappingsVersion: 0, dataAccessRole: '', rangerAuditRole: '', mappings: [] },
      data: { syncedVersion: 0 },
    });
  return sent;
}

const versionOf = (rec: Readonly<EngineRecord>): number => num(rec.doc.mappingsVersion) ?? 0;

/** A set replaces the mappings (each user or group mapped once) and bumps their version; the audit role defaults to the data access role. */
export function idBrokerChange(h: Hook<R>, sent: Doc): Doc {
  const current = h.locate('idBrokerMappings', idBrokerOf(h, sent));
  const mappings = docs(sent.mappings).map((m) => ({ accessorCrn: text(m.accessorCrn), role: text(m.role) }));
  const twice = mappings.map((m) => m.accessorCrn).find((a, i, all) => all.indexOf(a) !== i);
  if (twice !== undefined) throw invalid(`accessor ${twice} is mapped twice; give each user or group one role`);
  return {
    environmentName: sent.environmentName,
    mappingsVersion: versionOf(current) + 1,
    dataAccessRole: text(sent.dataAccessRole),
    rangerAuditRole: str(sent.rangerAuditRole) ?? text(sent.dataAccessRole),
    rangerCloudAccessAuthorizerRole: sent.rangerCloudAccessAuthorizerRole,
    baselineRole: sent.baselineRole,
    mappings,
  };
}

const syncedVersion = (rec: Readonly<EngineRecord>): number => num(rec.data?.syncedVersion) ?? 0;

/** Whether the environment's clusters have the version set. */
export const idBrokerSyncStatus = (_h: Hook<R>, rec: Readonly<EngineRecord>): Doc => ({
  syncNeeded: syncedVersion(rec) !== versionOf(rec),
  globalStatus: versionOf(rec) === 0 ? 'NEVER_RUN' : 'COMPLETED',
  statuses: {},
});

/** Brings the environment's clusters to the version set (at once). Code: what it changes is kept beside the record, which no verb sets. */
export function syncIdBrokerMappings(h: Hook<R>, req: Doc): Doc {
  const rec = h.locate('idBrokerMappings', idBrokerOf(h, req));
  rec.data = { ...rec.data, syncedVersion: versionOf(rec) };
  h.records('idBrokerMappings').save(rec);
  return {};
}
