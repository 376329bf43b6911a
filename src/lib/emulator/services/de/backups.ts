/**
 * Backups of Data Engineering services, and services restored from them. A
 * backup keeps what restoring needs: the service's settings and, unless
 * left out, its virtual clusters; so a service can be restored after it was
 * disabled, into the environment it was backed up from.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { failedPrecondition, invalid } from '../../errors.js';
import { randomToken } from '../../ids.js';
import { paged } from '../../engine/paging.js';
import { num, obj, str, strings, text } from '../../values.js';
import { callerOf, firstActionLog, liveVcs, located, USABLE, type R, type Rec } from './common.js';
import { checkService, serviceFieldsOf, settingsOf } from './service.js';

/** What a backup keeps to restore from. */
interface Kept {
  readonly settings: Doc;
  readonly vcs: ReadonlyArray<{ readonly name: string; readonly doc: Doc }>;
}

/** The service a backup request names, which has to be up. */
function serviceToBackUp(h: Hook<R>, req: Doc): EngineRecord {
  const svc = located(h, 'cluster', { clusterId: req.serviceId });
  h.records('cluster').require(svc, USABLE, 'a backup');
  return svc;
}

/** A new backup: of a service that is up, to a folder relative to its backup location, with a timeout above 0. */
export function checkBackup(h: Hook<R>, _rec: Rec, req: Doc): void {
  serviceToBackUp(h, req);
  const path = str(req.backupPath);
  if (path && (path.startsWith('/') || path.split('/').includes('..') || /\.(zip|tar|tgz|gz)$/i.test(path)))
    throw invalid(`backupPath ${path} must be a folder relative to the service backup location, without a file name`);
  const timeout = num(req.timeout);
  if (timeout !== undefined && timeout <= 0) throw invalid('timeout must be a number of seconds above 0');
}

/** What a new backup shows: its service, who took it, where its archive goes. */
export function fillBackup(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const svc = serviceToBackUp(h, req);
  const path = str(req.backupPath);
  const caller = callerOf(h);
  const base = String(svc.doc.backupLocation);
  return {
    serviceID: svc.id,
    serviceName: svc.name,
    serviceVersion: svc.doc.version,
    environmentName: svc.doc.environmentName,
    environmentCrn: svc.doc.environmentCrn,
    creator: caller.name,
    creatorCrn: caller.crn,
    cloudPlatform: svc.doc.cloudPlatform,
    archiveBasePath: base,
    archiveLocation: `${path ? `${path.replace(/\/$/, '')}/` : ''}archive-${svc.id}-${rec.id}.zip`,
  };
}

/** A backup keeps what restoring needs: the service's settings and, unless left out, its live virtual clusters as they are now. */
export function keepRestorable(h: Hook<R>, _rec: Rec, req: Doc): Doc {
  const svc = serviceToBackUp(h, req);
  const vcs = req.includeVc === false ? [] : liveVcs(h, svc);
  const kept: Kept = { settings: settingsOf(svc), vcs: vcs.map((vc) => ({ name: nameOf(vc), doc: vc.doc })) };
  return { kept };
}

/** A backup is deleted once it has ended (a pending one is cancelled first). */
export function checkBackupDelete(h: Hook<R>, rec: Rec): void {
  const backups = h.records('backup');
  if (backups.busy(rec))
    throw failedPrecondition(`backup ${rec.id} is ${backups.state(rec)}; cancel it (while pending) or wait until it ends, then delete it`);
}

/** The backup's log, as far as the clock has got. */
export function backupLogs(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const vcs = (rec.data?.kept as Kept | undefined)?.vcs ?? [];
  const words = {
    begin: `backup ${rec.id} of service ${String(rec.doc.serviceName)} (${String(rec.doc.serviceID)}), ${vcs.length} virtual cluster(s): ${vcs.map((v) => v.name).join(', ') || 'none'}`,
    success: `archive written to ${String(rec.doc.archiveBasePath)}/${String(rec.doc.archiveLocation)}`,
    failure: `backup failed: ${String(rec.doc.errorMessage ?? rec.activity.reason ?? 'see the backup status')}`,
  };
  const lines = firstActionLog(h, 'backup', rec, () => words, true);
  if (rec.activity.action === 'cancel') lines.push(`${new Date(rec.activity.tl.startedAt).toISOString()} INFO backup cancelled`);
  return paged(h.ctx, req, lines);
}

/** Fields a backup listing filters and orders by, as the service names them, and where a backup shows them. */
const BY: Readonly<Record<string, string>> = {
  id: 'id',
  clusterID: 'serviceID',
  cdeVersion: 'serviceVersion',
  environment: 'environmentName',
  environmentCrn: 'environmentCrn',
  created: 'created',
  status: 'status',
};

const FILTER = /^(\w+)\((eq|noteq|lte|lt|gte|gt|in|notin|like|rlike|is|isnot)\)(.*)$/s;

/** Compares two values of a backup field: ids as numbers, the rest as text. */
const compare = (a: unknown, b: string): number =>
  typeof a === 'number' ? a - Number(b) : text(a).localeCompare(b, undefined, { numeric: true, sensitivity: 'base' });

/** The filter operators that compare a field with their argument: whether the comparison passes. */
const COMPARING: Readonly<Record<string, (c: number) => boolean>> = {
  eq: (c) => c === 0,
  noteq: (c) => c !== 0,
  lt: (c) => c < 0,
  lte: (c) => c <= 0,
  gt: (c) => c > 0,
  gte: (c) => c >= 0,
};

/** The pattern of a like (SQL's `%` and `_`, in any case) or rlike (a regular expression) condition. */
function patternOf(filter: string, op: 'like' | 'rlike', arg: string): RegExp {
  const escaped = arg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  try {
    return op === 'like' ? new RegExp(`^${escaped.replace(/%/g, '.*').replace(/_/g, '.')}$`, 'i') : new RegExp(arg);
  } catch {
    throw invalid(`filter ${filter}: ${arg} is not a regular expression`);
  }
}

/** One `field(operator)argument` condition as a test of a backup's view. */
function condition(filter: string): (view: Doc) => boolean {
  const m = FILTER.exec(filter);
  const field = m ? BY[m[1] ?? ''] : undefined;
  if (!m || !field)
    throw invalid(
      `filter ${filter} is not field(operator)argument with a field of ${Object.keys(BY).join(', ')} and an operator such as eq`,
    );
  const op = m[2] ?? 'eq';
  const arg = m[3] ?? '';
  const list = arg.split(',').map((s) => s.trim());
  const pattern = op === 'like' || op === 'rlike' ? patternOf(filter, op, arg) : undefined;
  const isNull = arg.toLowerCase() === 'null';
  return (view) => {
    const v = view[field];
    const passes = COMPARING[op];
    if (passes) return passes(compare(v, arg));
    if (op === 'in' || op === 'notin') return list.some((x) => compare(v, x) === 0) === (op === 'in');
    if (pattern) return pattern.test(text(v));
    // is and isnot: whether it is null (has no value), or equals the argument.
    return (isNull ? v === undefined : compare(v, arg) === 0) === (op === 'is');
  };
}

/** The backups a listing shows: filtered, in the order asked for (newest first by default). */
export function selectBackups(h: Hook<R>, req: Doc): EngineRecord[] {
  const backups = h.records('backup');
  const tests = strings(req.filter).map(condition);
  const orderBy = str(req.orderBy) ?? 'id';
  const field = BY[orderBy];
  if (!field) throw invalid(`orderBy ${orderBy} is not one of ${Object.keys(BY).join(', ')}`);
  const desc = str(req.order) !== 'ASC';
  const views = backups.all('').map((rec) => ({ rec, view: backups.view(rec) }));
  return views
    .filter(({ view }) => tests.every((t) => t(view)))
    .sort((a, b) => (desc ? -1 : 1) * compare(a.view[field], text(b.view[field])))
    .map(({ rec }) => rec);
}

/**
 * restoreService: a service made from a completed backup, in the
 * environment it was backed up from, under the backup's name (or the one
 * asked for) and id (a new one, or the one asked for); its virtual clusters
 * come back with it. Code: the new service's id, name and settings come
 * from the backup and the request, which no create verb takes.
 */
export function restoreService(h: Hook<R>, req: Doc): Doc {
  const backups = h.records('backup');
  const backup = backups.get(String(req.backupID));
  backups.require(backup, ['completed'], 'a restore');
  const env = h.world.environments.require(text(req.environmentCrn));
  if (backup.doc.environmentCrn !== env.crn)
    throw invalid(
      `backup ${backup.id} was taken in environment ${String(backup.doc.environmentName)}; a service can be restored only into the environment it was backed up from`,
    );
  const kept = backup.data?.kept as Kept | undefined;
  const services = h.records('cluster');
  const name = str(req.serviceName) ?? String(backup.doc.serviceName);
  // A disabled service kept as ClusterDeletionCompleted has freed its name.
  const named = services.find(name, env.crn);
  if (named && !services.isDeleted(named))
    throw failedPrecondition(
      `environment ${String(backup.doc.environmentName)} already has a service named ${name}; give another --service-name`,
    );
  const asked = str(req.serviceId);
  if (asked && services.byId(asked)) throw failedPrecondition(`a service with id ${asked} already exists; give another --service-id`);
  const id = asked ?? `cluster-${randomToken(8)}`;
  const settings = { ...(kept?.settings ?? {}), ...overrides(obj(req.servicePropertyOverride)), name };
  const placed = { id, name, scope: env.crn, env: env.crn, doc: {}, data: { settings } };
  checkService(h, placed, settings, 'a restore');
  const doc = h.conform(
    'ServiceDescription',
    { clusterId: id, environmentName: env.environmentName, environmentCrn: env.crn, ...serviceFieldsOf(h, placed, settings, 'a restore') },
    id,
  );
  const rec = services.create({ ...placed, doc }, 'restore');
  const vcs = h.records('vc');
  const was = String(backup.doc.serviceID);
  const suffix = (s: string): string => s.replace(/^cluster-/, '');
  const moved = (text: string, from: string, to: string): string => text.split(from).join(to);
  for (const vc of kept?.vcs ?? []) {
    const before = String(vc.doc.vcId);
    // A virtual cluster keeps its id unless the service it was backed up from still has it.
    const vcId = vcs.byId(before) ? `dex-app-${randomToken(8)}` : before;
    const json = moved(moved(moved(JSON.stringify(vc.doc), was, rec.id), suffix(was), suffix(rec.id)), before, vcId);
    vcs.create({ id: vcId, name: vc.name, scope: rec.id, env: env.crn, doc: JSON.parse(json) as Doc }, 'restore');
  }
  return { serviceID: rec.id };
}

/** Service property overrides (strings) as the settings they change, typed as the enable request types them. */
function overrides(given: Doc): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(given)) {
    const s = text(v);
    if (/^(minimum|maximum|initial|rootVolume|allPurpose\w*(Instances|Size))/.test(k)) {
      if (!/^\d+$/.test(s)) throw invalid(`service property ${k} takes a whole number, not ${s}`);
      out[k] = Number(s);
    } else if (/^(enable|deploy|use|skip|disable)/.test(k)) {
      if (!/^(true|false)$/.test(s)) throw invalid(`service property ${k} takes true or false, not ${s}`);
      out[k] = s === 'true';
    } else if (/^(instanceType|allPurposeInstanceType|networkOutboundType)$/.test(k)) out[k] = s;
    else
      throw invalid(`service property ${k} cannot be overridden; properties are the settings of enable-service, such as minimumInstances`);
  }
  return out;
}
