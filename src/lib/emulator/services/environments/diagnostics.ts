/**
 * FreeIPA diagnostics collections: a part of their
 * environment (they go with it), one running at a time, RUNNING then
 * FINISHED (FAILED in an environment named `fail-...`, or
 * `fail-diagnostics-...` once), or CANCELLED. A collection's operation is
 * recorded under its environment (`operations describe` follows it, and
 * `--wait` with it); its progress and flow state are read off the clock.
 */
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { failedPrecondition, invalid } from '../../errors.js';
import { crnId, uuid } from '../../ids.js';
import { Operations } from '../../engine/operations.js';
import { failsOnPurpose } from '../../engine/timeline.js';
import type { Doc } from '../../types.js';
import { iso, str, strings, text } from '../../values.js';
import { environmentOf, OPERATION_KIND, requireState, type R } from './backend.js';
import { FREEIPA_LOGS } from './catalogue.js';
import { ipaRequired } from './freeipa.js';
import { ENVIRONMENT_WORK } from './lifecycles.js';
import type { EnvRecord } from './records.js';

const FLOW_STATES: ReadonlyArray<readonly [upTo: number, state: string]> = [
  [25, 'FREEIPA_DIAGNOSTICS_INIT_STATE'],
  [60, 'FREEIPA_DIAGNOSTICS_COLLECTION_STATE'],
  [100, 'FREEIPA_DIAGNOSTICS_UPLOAD_STATE'],
];

/** An environment's collections, each with how far it has got. */
export function collectionsOf(h: Hook<R>, req: Doc): EngineRecord[] {
  const e = environmentOf(h, text(req.environmentName));
  return h
    .records('freeipaDiagnostics')
    .all(e.crn)
    .map((r) => ({ ...r, doc: { ...r.doc, ...progressOf(h, r) } }));
}

/** How far a collection has got: its percentage and flow state now. */
function progressOf(h: Hook<R>, rec: EngineRecord): Doc {
  const p = h.records('freeipaDiagnostics').progress(rec);
  const started = rec.activity.tl.startedAt;
  const pct = p.done ? 100 : Math.min(99, Math.floor((100 * (h.ctx.clock.now() - started)) / Math.max(1, p.endsAt - started)));
  const flowState = p.done
    ? `FREEIPA_DIAGNOSTICS_${p.state}_STATE`
    : (FLOW_STATES.find(([upTo]) => pct < upTo)?.[1] ?? 'FREEIPA_DIAGNOSTICS_UPLOAD_STATE');
  return { progressPercentage: p.cancelled || p.failed ? Math.min(pct, 99) : pct, flowState };
}

/** Where a collection goes, in words. */
function outputOf(e: EnvRecord, destination: string, id: string, caseNumber?: string): string {
  const name = `freeipa-diagnostics-${e.environmentName}-${id.slice(0, 8)}.tar.gz`;
  const { awsDetails, azureDetails, gcpDetails } = e.logStorage;
  const base = [awsDetails, azureDetails, gcpDetails].map((d) => d?.storageLocationBase).find((b) => b !== undefined);
  if (destination === 'CLOUD_STORAGE') return `${(base ?? `s3a://${e.environmentName}-logs/`).replace(/\/$/, '')}/diagnostics/${name}`;
  if (destination === 'SUPPORT') return `Cloudera support${caseNumber ? ` case ${caseNumber}` : ''}: ${name}`;
  if (destination === 'ENG') return `Cloudera engineering: ${name}`;
  return `/var/lib/filecollector/${name} on each FreeIPA server`;
}

/** Starts a collection of FreeIPA's logs, when none runs in the environment. */
export function collectFreeipaDiagnostics(h: Hook<R>, req: Doc): Doc {
  const e = environmentOf(h, text(req.environmentName));
  const f = ipaRequired(e);
  requireState(h, e, ['AVAILABLE'], 'a FreeIPA diagnostics collection');
  const all = h.records('freeipaDiagnostics');
  if (all.all(e.crn).some((r) => all.busy(r)))
    throw failedPrecondition(
      `a diagnostics collection of FreeIPA of environment ${e.environmentName} is running; wait for it or cancel it`,
    );
  const labels = FREEIPA_LOGS.map((l) => l.label);
  const unknown = strings(req.labels).filter((l) => !labels.includes(l));
  if (unknown.length > 0) throw invalid(`unknown log label ${unknown.join(', ')}; labels: ${labels.join(', ')}`);
  const hosts = f.instances.map((n) => n.fqdn);
  const strangers = [...strings(req.hosts), ...strings(req.excludeHosts)].filter((x) => !hosts.includes(x));
  if (strangers.length > 0)
    throw invalid(`${strangers.join(', ')} is not a FreeIPA server of environment ${e.environmentName}; servers: ${hosts.join(', ')}`);
  const groups = strings(req.hostGroups).filter((g) => g !== 'master');
  if (groups.length > 0) throw invalid(`FreeIPA has one host group, master; not ${groups.join(', ')}`);
  const destination = text(req.destination);
  const id = uuid();
  const rec = all.create(
    {
      id,
      scope: e.crn,
      env: e.crn,
      doc: {
        flowId: id,
        created: iso(h.ctx.clock.now()),
        collectionDetails: {
          ...(str(req.caseNumber) ? { case: str(req.caseNumber) } : {}),
          output: outputOf(e, destination, id, str(req.caseNumber)),
          destination,
          description: text(req.description),
          accountId: h.ctx.info.accountId,
          resourceCrn: e.crn.replace(':environments:', ':freeipa:').replace(':environment:', ':freeipa:'),
          clusterVersion: '4.9.13',
        },
      },
      data: { request: { ...req } },
    },
    'create',
    { fail: failsOnPurpose(e.environmentName, 'diagnostics', ENVIRONMENT_WORK) },
  );
  // Its operation is the environment's: `operations describe --environment-name` (and --wait) follow it.
  rec.activity.operationId = id;
  all.save(rec);
  new Operations(h.ctx, OPERATION_KIND).recordActivity(crnId(e.crn), 'DIAGNOSTICS_COLLECTION', rec.activity);
  return { operationId: id };
}

/** Cancels the collections running in an environment. */
export function cancelFreeipaDiagnostics(h: Hook<R>, req: Doc): Doc {
  const e = environmentOf(h, text(req.environmentName));
  const all = h.records('freeipaDiagnostics');
  const ops = new Operations(h.ctx, OPERATION_KIND);
  for (const r of all.all(e.crn).filter((x) => all.busy(x))) {
    r.activity.cancelledAt = h.ctx.clock.now();
    all.save(r);
    ops.cancel(r.id);
  }
  return {};
}
