/**
 * Replication policies. An HDFS or Hive policy runs a job every
 * `frequencyInSec` from its start time (to its end time, if it has one) on
 * the cluster it was created on: its destination, or, when it copies to
 * cloud storage, its source. An HBase policy sets up replication between
 * two clusters with HBase (copying a first snapshot when asked) and then
 * replicates continuously. Jobs are read off the clock, never stored; a
 * suspended policy starts none. A policy's status follows its jobs:
 * SUBMITTED before the first, RUNNING while one runs (and while an HBase
 * policy replicates), then how the last ended (SUCCEEDED or FAILED), or
 * SUSPENDED. A policy named `fail-...` fails each of its jobs as it starts.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { failedPrecondition, invalid } from '../../errors.js';
import { failsOnPurpose } from '../../engine/timeline.js';
import { docs, hex, iso, num, obj, str, strings } from '../../values.js';
import type { WorldCluster } from './provides.js';
import { clusterByCrn, clusterBySite, hbaseSuspend, known, reachable, runs, siteName, type R } from './sites.js';

/** Minutes a job of each kind takes. */
const JOB_MINUTES: Record<string, number> = { HDFS_REPLICATION: 4, HIVE_REPLICATION: 6, HBASE_SETUP: 2, HBASE_INITIAL_SNAPSHOT: 8 };

/** How far back a policy shows its jobs. */
const JOBS_SHOWN = 10;

type Rec = Readonly<EngineRecord>;

/** A policy's definition, as it was created. */
const definitionOf = (rec: Rec): Doc => obj(obj(rec.data?.request).policyDefinition);

/**
 * What a policy's jobs are read off the clock by, from what it shows and the definition it was created with: its
 * kind, start and end, seconds between runs (0 for an HBase policy, which replicates continuously after its first
 * job), its jobs' type, its clusters and the cloud credential it writes with.
 */
export function scheduleOf(rec: Rec) {
  const def = definitionOf(rec);
  const type: 'FS' | 'HIVE' | 'HBASE' = rec.doc.type === 'HBASE' ? 'HBASE' : rec.doc.type === 'HIVE' ? 'HIVE' : 'FS';
  const end = type === 'HBASE' ? undefined : str(def.endTime);
  const credential = type === 'HBASE' ? str(obj(def.hbasePolicyArguments).cloudCredential) : str(def.cloudCredential);
  const target = str(rec.doc.targetClusterCrn);
  return {
    type,
    start: Date.parse(String(rec.doc.startTime)),
    ...(end ? { end: Date.parse(end) } : {}),
    every: num(rec.doc.frequency) ?? 0,
    job:
      type !== 'HBASE'
        ? `${type === 'FS' ? 'HDFS' : 'HIVE'}_REPLICATION`
        : def.initialSnapshot === true
          ? 'HBASE_INITIAL_SNAPSHOT'
          : 'HBASE_SETUP',
    source: String(rec.doc.sourceClusterCrn),
    ...(target ? { target } : {}),
    ...(credential ? { credential } : {}),
  };
}

const CLOUD = /^(s3a|abfss?|gs|wasbs?|adl):\/\//i;
/** The credential provider each cloud storage scheme takes. */
const PROVIDER_OF: Readonly<Record<string, string>> = { s3a: 'AWS', abfs: 'ADLS', abfss: 'ADLS' };

const timeOf = (v: unknown, field: string): number | undefined => {
  const s = str(v);
  if (s === undefined) return undefined;
  const t = Date.parse(s);
  if (Number.isNaN(t)) throw invalid(`${field} ${s} is not a time`);
  return t;
};

/** The custom properties a definition gives of these, as text. */
const customOf = (def: Doc, fields: readonly string[]): Doc =>
  Object.fromEntries(fields.filter((f) => def[f] !== undefined).map((f) => [f, String(def[f])]));

/** The policy an HBase operation or a plain one is asked of must be of its kind. */
export function requireKind(h: Hook<R>, rec: Rec): void {
  const hbaseOp = /Hbase/.test(h.ctx.op.name);
  const hbase = scheduleOf(rec).type === 'HBASE';
  if (hbaseOp !== hbase)
    throw invalid(
      `policy ${nameOf(rec)} is ${hbase ? 'an HBase' : `a ${scheduleOf(rec).type}`} policy; use the ${hbase ? 'hbase-policies' : 'policies'} commands for it`,
    );
}

/** The cluster a policy was created on, which has to be running to take a change. */
const onCluster = (h: Hook<R>, rec: Rec, what: string): WorldCluster => reachable(clusterByCrn(h, rec.scope), what);

/** What a new HDFS or Hive policy shows: its definition checked against the clusters and credentials it names. */
function hdfsOrHivePolicy(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const on = onCluster(h, rec, 'a new policy');
  const def = obj(req.policyDefinition);
  const name = rec.name ?? '';
  if (str(def.name) !== name) throw invalid(`policyName ${name} and the name in policyDefinition (${String(def.name)}) differ`);
  const type = String(def.type);
  if (type === 'HBASE') throw invalid('HBase policies are created with createHbasePolicy (hbase-policies create)');
  const every = num(def.frequencyInSec) ?? 0;
  if (every <= 0) throw invalid('frequencyInSec must be a number of seconds above 0');
  const start = timeOf(def.startTime, 'startTime') ?? h.ctx.clock.now();
  const end = timeOf(def.endTime, 'endTime');
  if (end !== undefined && end <= start) throw invalid('endTime must come after startTime');
  const path = str(obj(obj(def.sourceDataset).hdfsArguments).path);
  const databases = docs(obj(obj(def.sourceDataset).hiveArguments).databasesAndTables);
  if (type === 'FS' && !path?.startsWith('/')) throw invalid('an FS policy needs sourceDataset.hdfsArguments.path, an absolute HDFS path');
  if (type === 'HIVE' && databases.length === 0) throw invalid('a HIVE policy needs sourceDataset.hiveArguments.databasesAndTables');
  for (const d of databases)
    for (const field of ['tablesIncludeRegex', 'tablesExcludeRegex'])
      try {
        new RegExp(str(d[field]) ?? '');
      } catch {
        throw invalid(`${field} ${String(d[field])} of database ${String(d.database)} is not a regular expression`);
      }
  const targetPath = str(def.targetDataset);
  const cloud = targetPath !== undefined && CLOUD.test(targetPath);
  let from: WorldCluster;
  let to: WorldCluster | undefined;
  if (cloud) {
    if (type !== 'FS') throw invalid('a HIVE policy replicates to a cluster with Hive (targetCluster), not to a cloud path');
    from = def.sourceCluster !== undefined ? clusterBySite(h, String(def.sourceCluster), 'sourceCluster') : on;
    if (from.crn !== on.crn)
      throw invalid(
        `a policy that copies to cloud storage runs on its source cluster: create it with clusterCrn ${from.crn} (${from.name})`,
      );
    const credential = str(def.cloudCredential);
    if (!credential) throw invalid(`copying to ${targetPath} needs a cloudCredential of cluster ${on.name}`);
    const cred = h.records('credential').find(credential, on.crn);
    if (!cred) throw failedPrecondition(`cluster ${on.name} has no credential ${credential}; create it first (credentials create)`);
    const scheme = (/^(\w+):/.exec(targetPath)?.[1] ?? '').toLowerCase();
    const wanted = PROVIDER_OF[scheme];
    if (!wanted) throw invalid(`${scheme}:// targets are not supported; copy to s3a:// or abfs(s)://`);
    if (cred.doc.provider !== wanted)
      throw invalid(`credential ${credential} is a ${String(cred.doc.provider)} credential; ${scheme}:// needs a ${wanted} one`);
  } else {
    if (def.sourceCluster === undefined) throw invalid('give sourceCluster (dataCenter$cluster), or a cloud storage targetDataset');
    from = reachable(clusterBySite(h, String(def.sourceCluster), 'sourceCluster'), 'replicating from it');
    to = def.targetCluster !== undefined ? clusterBySite(h, String(def.targetCluster), 'targetCluster') : on;
    if (to.crn !== on.crn)
      throw invalid(`a policy that copies between clusters runs on its destination: create it with clusterCrn ${to.crn} (${to.name})`);
    if (from.crn === to.crn) throw invalid(`the source and destination of a policy are the same cluster, ${from.name}`);
  }
  const needs = type === 'FS' ? 'HDFS' : 'HIVE';
  for (const c of [from, ...(to ? [to] : [])])
    if (!runs(c, needs))
      throw failedPrecondition(
        `cluster ${c.name} runs no ${needs} service; a ${type} policy needs it on ${c === from ? 'its source' : 'its destination'}`,
      );
  const sourceDataset = type === 'FS' ? [path ?? ''] : databases.map((d) => `${String(d.database)}.${str(d.tablesIncludeRegex) ?? '*'}`);
  const custom = customOf(def, [
    'queueName',
    'distcpMaxMaps',
    'distcpMapBandwidth',
    'cloudCredential',
    'tdeSameKey',
    'enableSnapshotBasedReplication',
  ]);
  return {
    // A policy to cloud storage has no target cluster.
    targetClusterCrn: undefined,
    type,
    frequency: every,
    description: str(def.description),
    executionType: 'SCHEDULED',
    sourceDataset,
    targetDataset: targetPath ? [targetPath] : sourceDataset,
    startTime: iso(start),
    sourceCluster: siteName(from),
    sourceClusterCrn: from.crn,
    ...(to ? { targetCluster: siteName(to), targetClusterCrn: to.crn } : {}),
    customProperties: custom,
    plugins: strings(def.plugins),
    target: { environmentCrn: (to ?? from).environmentCrn },
  };
}

const TABLE = /^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$/;

function checkTables(tables: readonly string[]): void {
  const bad = tables.filter((t) => !TABLE.test(t));
  if (bad.length > 0) throw invalid(`table ${bad.join(', ')} is not namespace:table`);
}

/** What a new HBase policy shows: created on its destination, between two running clusters with HBase. */
function hbasePolicy(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const on = onCluster(h, rec, 'a new HBase policy');
  const def = obj(req.policyDefinition);
  const args = obj(def.hbasePolicyArguments);
  const from = reachable(clusterBySite(h, String(def.sourceCluster), 'sourceCluster'), 'replicating from it');
  const to = clusterBySite(h, String(def.targetCluster), 'targetCluster');
  if (to.crn !== on.crn) throw invalid(`an HBase policy is created on its destination: create it with clusterCrn ${to.crn} (${to.name})`);
  if (from.crn === to.crn) throw invalid(`the source and destination of a policy are the same cluster, ${from.name}`);
  for (const c of [from, to])
    if (!runs(c, 'HBASE')) throw failedPrecondition(`cluster ${c.name} runs no HBase service; an HBase policy needs it on both clusters`);
  const tables = strings(args.tables);
  checkTables(tables);
  const custom = customOf(def, ['queueName', 'distcpMaxMaps', 'sourceRestartType', 'targetRestartType']);
  custom.sourceRestartType ||= 'ROLLING_RESTART';
  custom.targetRestartType ||= 'ROLLING_RESTART';
  const strategy = str(obj(args.databaseArguments).replicationStrategy) ?? 'ALL_TABLES';
  return {
    type: 'HBASE',
    frequency: 0,
    description: str(def.description),
    executionType: 'CONTINUOUS',
    sourceDataset: tables.length > 0 ? tables : [`* (${strategy})`],
    targetDataset: tables.length > 0 ? tables : [`* (${strategy})`],
    startTime: iso(h.ctx.clock.now()),
    sourceCluster: siteName(from),
    sourceClusterCrn: from.crn,
    targetCluster: siteName(to),
    targetClusterCrn: to.crn,
    customProperties: custom,
    target: { environmentCrn: to.environmentCrn },
  };
}

/** What a new policy shows (createPolicy, createHbasePolicy), its definition checked first. */
export const policyFields = (h: Hook<R>, rec: Rec, req: Doc): Doc =>
  (h.ctx.op.name === 'createHbasePolicy' ? hbasePolicy : hdfsOrHivePolicy)(h, rec, req);

/** An HBase policy's create request as its record keeps it: without the machine user's password, a secret no record keeps. */
export function withoutPassword(_h: Hook<R>, sent: Doc): Doc {
  const def = obj(sent.policyDefinition);
  const user = obj(def.machineUser);
  if (user.password === undefined) return sent;
  const { password: _password, ...kept } = user;
  return { ...sent, policyDefinition: { ...def, machineUser: kept } };
}

/** updateHbasePolicy, as the policy's update reads it: a new name, description or tables, out of their nested definition. */
export function hbaseUpdate(_h: Hook<R>, sent: Doc): Doc {
  const def = obj(sent.updateHbasePolicyDefinition);
  const tables = Array.isArray(def.tables) ? strings(def.tables) : undefined;
  return {
    clusterCrn: sent.clusterCrn,
    policyId: sent.policyId,
    ...(str(def.name) ? { name: str(def.name) } : {}),
    ...(def.description !== undefined ? { description: str(def.description) } : {}),
    ...(tables ? { sourceDataset: tables, targetDataset: tables } : {}),
  };
}

/** An update: of an HBase policy on a running cluster, its tables namespace:table. */
export function checkUpdate(h: Hook<R>, rec: Rec, req: Doc): void {
  requireKind(h, rec);
  onCluster(h, rec, 'an update');
  if (Array.isArray(req.sourceDataset)) checkTables(strings(req.sourceDataset));
}

/** suspend and activate: of HBase policies, as the destination's Cloudera Manager does them. */
export function checkAction(h: Hook<R>, rec: Rec, action: string): void {
  requireKind(h, rec);
  const on = onCluster(h, rec, `a ${action === 'activate' ? 'resume' : action}`);
  if (scheduleOf(rec).type === 'HBASE' && hbaseSuspend(on) === 'NOT_SUPPORTED')
    throw failedPrecondition(`cluster ${on.name} (Cloudera Manager API ${on.runtime}) cannot suspend or resume HBase policies`);
}

/**
 * What a suspend or activate of an HBase policy does beside it: above
 * Cloudera Manager API version 50 the pair is suspended or resumed, every
 * HBase policy between the same two clusters.
 */
export function pairFollows(h: Hook<R>, rec: Rec, action: string): Doc {
  const s = scheduleOf(rec);
  if (s.type !== 'HBASE' || hbaseSuspend(onCluster(h, rec, action)) !== 'ALL') return {};
  const policies = h.records('policy');
  const from = action === 'suspend' ? 'RUNNING' : 'SUSPENDED';
  for (const other of policies.all(rec.scope)) {
    const o = scheduleOf(other);
    if (other.id !== rec.id && o.type === 'HBASE' && o.source === s.source && policies.state(other) === from) policies.begin(other, action);
  }
  return {};
}

/** The cluster a CRN names, if Replication Manager knows it. */
const clusterOrNone = (h: Hook<R>, crn: string): WorldCluster | undefined => known(h).find((c) => c.crn === crn);

/** A delete: on a running cluster; an HBase policy whose source cannot be reached only with force. */
export function checkDelete(h: Hook<R>, rec: Rec, req: Doc): void {
  requireKind(h, rec);
  onCluster(h, rec, 'a delete');
  const s = scheduleOf(rec);
  if (s.type !== 'HBASE' || req.force === true) return;
  const source = clusterOrNone(h, s.source);
  if (!source?.up)
    throw failedPrecondition(
      `the source cluster of HBase policy ${nameOf(rec)} ${source ? `is ${source.state}` : 'is gone'} and cannot be reached; delete it with --force`,
    );
}

/** continueHbaseSetup: only a classic source waits for it, and these clusters are all Data Hubs and data lakes. */
export function continueSetup(h: Hook<R>, rec: Rec): Doc {
  requireKind(h, rec);
  const source = clusterOrNone(h, scheduleOf(rec).source);
  throw failedPrecondition(
    `the source of HBase policy ${nameOf(rec)} is ${source ? `a ${source.type} cluster (${source.name})` : 'gone'}: its HBase restarted with the policy setup, so there is nothing to continue; only a classic cluster source needs this`,
  );
}

// ---- jobs and status, read off the clock ----------------------------------------

interface Job {
  readonly index: number;
  readonly start: number;
  readonly end: number;
  readonly failed: boolean;
}

/** The times a policy ran, from its history: running from creation and each activate, until each suspend. */
function activeWindows(rec: EngineRecord, now: number): Array<readonly [number, number]> {
  const changes = [
    ...(rec.past ?? []).map((p) => [p.startedAt, p.action] as const),
    [rec.activity.tl.startedAt, rec.activity.action] as const,
  ];
  const out: Array<readonly [number, number]> = [];
  changes.forEach(([at, action], i) => {
    if (action !== 'suspend') out.push([at, changes[i + 1]?.[0] ?? now]);
  });
  return out;
}

/** Its jobs, newest first (at most JOBS_SHOWN). */
function jobsOf(rec: EngineRecord, now: number): Job[] {
  const s = scheduleOf(rec);
  const failing = failsOnPurpose(rec.name, 'run', {});
  const minutes = failing ? 0 : (JOB_MINUTES[s.job] ?? 4);
  const job = (index: number, start: number): Job => ({ index, start, end: start + minutes * 60_000, failed: failing });
  if (s.every === 0) return s.start <= now ? [job(0, s.start)] : [];
  const step = s.every * 1000;
  const out: Job[] = [];
  const windows = activeWindows(rec, now).reverse();
  for (const [from, until] of windows) {
    const last = Math.min(until === now ? now : until - 1, s.end ?? Infinity);
    if (last < s.start) continue;
    const first = Math.max(0, Math.ceil((from - s.start) / step));
    for (let k = Math.floor((last - s.start) / step); k >= first && out.length < JOBS_SHOWN; k--) out.push(job(k, s.start + k * step));
    if (out.length >= JOBS_SHOWN) break;
  }
  return out;
}

/** The next job's start: the next slot after now, while it runs and before its end. */
function nextRun(rec: EngineRecord, state: string, now: number): number | undefined {
  const s = scheduleOf(rec);
  if (state !== 'RUNNING' || s.every === 0) return undefined;
  const step = s.every * 1000;
  const at = now < s.start ? s.start : s.start + (Math.floor((now - s.start) / step) + 1) * step;
  return s.end !== undefined && at > s.end ? undefined : at;
}

/** The status a policy shows: read off its jobs, or SUSPENDED. */
function statusOf(rec: EngineRecord, state: string, jobs: readonly Job[], now: number): string {
  if (state === 'SUSPENDED') return 'SUSPENDED';
  const latest = jobs[0];
  if (!latest) return 'SUBMITTED';
  if (now < latest.end) return 'RUNNING';
  if (latest.failed) return 'FAILED';
  return scheduleOf(rec).type === 'HBASE' ? 'RUNNING' : 'SUCCEEDED';
}

function jobView(rec: EngineRecord, j: Job, now: number): Doc {
  const s = scheduleOf(rec);
  const done = now >= j.end;
  const total = s.job.startsWith('HBASE') ? 3 : 5;
  const completed = done
    ? j.failed
      ? 1
      : total
    : Math.min(total - 1, Math.floor(((now - j.start) / Math.max(1, j.end - j.start)) * total));
  const what =
    rec.doc.type === 'HBASE'
      ? `${s.job === 'HBASE_SETUP' ? 'set up replication' : 'copied the initial snapshot'}`
      : `replicated ${strings(rec.doc.sourceDataset).join(', ')}`;
  return {
    id: String(parseInt(hex(`${rec.id}/${j.index}`, 8), 16)),
    policyId: rec.id,
    status: done ? (j.failed ? 'FAILED' : 'SUCCEEDED') : 'RUNNING',
    startTime: iso(j.start),
    ...(done ? { endTime: iso(j.end) } : {}),
    trackingInfo: JSON.stringify({
      progress: Math.round((completed / total) * 100),
      filesCopied: done && !j.failed ? 120 + (j.index % 7) * 13 : 0,
    }),
    message: done
      ? j.failed
        ? `job ${j.index + 1} of policy ${nameOf(rec)} failed on purpose: the policy name starts with "fail-"`
        : `${what} to ${strings(rec.doc.targetDataset).join(', ')}`
      : `running: step ${completed + 1} of ${total}`,
    jobType: s.job,
    totalSteps: total,
    completedSteps: completed,
  };
}

/** What a policy shows beyond its record (its `show`): its jobs and status, read off the clock. */
export function showPolicy(h: Hook<R>, rec: EngineRecord): Doc {
  const policies = h.records('policy');
  const now = h.ctx.clock.now();
  const state = policies.state(rec);
  const jobs = jobsOf(rec, now);
  const status = statusOf(rec, state, jobs, now);
  const s = scheduleOf(rec);
  const next = nextRun(rec, state, now);
  const ended = jobs.filter((j) => now >= j.end);
  const lastOk = ended.find((j) => !j.failed);
  const lastFailed = ended.find((j) => j.failed);
  const report = (j: Job | undefined): Doc | undefined =>
    j ? { status: j.failed ? 'FAILED' : 'SUCCEEDED', endTime: iso(j.end) } : undefined;
  return {
    status,
    jobs: jobs.map((j) => jobView(rec, j, now)),
    report: { lastSucceededInstance: report(lastOk), lastFailedInstance: report(lastFailed) },
    endTime: iso(s.end ?? next ?? jobs[0]?.end ?? s.start),
    ...(next !== undefined ? { nextRun: iso(next) } : {}),
  };
}

/** Whether a policy has run at least once (a diagnostic bundle collects its jobs' logs). */
export const hasRun = (h: Hook<R>, rec: EngineRecord): boolean => jobsOf(rec, h.ctx.clock.now()).length > 0;

/** The job lines of a policy, for its diagnostic bundle. */
export function jobLines(h: Hook<R>, rec: EngineRecord): string[] {
  const now = h.ctx.clock.now();
  return jobsOf(rec, now)
    .reverse()
    .map((j) => {
      const v = jobView(rec, j, now);
      return `${String(v.startTime)} ${String(v.jobType)} ${String(v.status)} ${String(v.message)}`;
    });
}

/** The HBase cluster pairs with an active policy. */
export function activePairs(h: Hook<R>): Array<readonly [string, string]> {
  const policies = h.records('policy');
  const pairs = new Map<string, readonly [string, string]>();
  for (const p of policies.all()) {
    const s = scheduleOf(p);
    if (s.type === 'HBASE' && s.target && policies.state(p) === 'RUNNING') pairs.set(`${s.source} ${s.target}`, [s.source, s.target]);
  }
  return [...pairs.values()];
}

/** The answer of a change to a policy. */
export const done =
  (what: string) =>
  (_h: Hook<R>, rec: EngineRecord, req: Doc): Doc => ({
    clusterCrn: req.clusterCrn,
    message: `policy ${nameOf(rec)} ${what}`,
    status: 'Successful',
  });
