/**
 * Virtual clusters of a Data Engineering service: their quota, Spark version
 * and access, the endpoints their id and service give, and suspend and
 * resume, whose progress getSuspendResumeStatus reports in steps.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { verbs } from '../../engine/table.js';
import { failedPrecondition, invalid } from '../../errors.js';
import { iso, num, str, strings, text } from '../../values.js';
import { callerOf, liveVcs, older, serviceOf, USABLE, type R, type Rec } from './common.js';

/** The Data Engineering version each Spark version needs, from the service's own description. */
const SPARK_SINCE: Readonly<Record<string, string>> = { SPARK3_3: '1.19.0', SPARK3_5: '1.21.0', SPARK3_5_4: '1.25.0' };
/** The data lake runtime from which SPARK3_5_4 replaces SPARK3_5. */
const SPARK3_5_4_RUNTIME = '7.3.1';

const CPU = /^\d+(\.\d+)?$/;
const MEMORY = /^\d+(\.\d+)?(Ki|Mi|Gi|Ti|K|M|G|T)?$/;

/** Who may use a virtual cluster, from a create or update request (given lists replace those it had). */
function accessOf(req: Doc, before: Doc = {}): Doc {
  const acl = str(req.aclUsers);
  const lists = ['fullAccessUsers', 'fullAccessGroups', 'viewOnlyUsers', 'viewOnlyGroups'];
  return {
    users:
      acl !== undefined
        ? acl
            .trim()
            .split(/\s*,\s*/)
            .filter(Boolean)
        : (before.users ?? []),
    ...Object.fromEntries(lists.map((f) => [f, Array.isArray(req[f]) ? strings(req[f]) : (before[f] ?? [])])),
  };
}

/** The Spark version a new virtual cluster gets: the one asked for, if its service and data lake take it. */
function sparkVersion(h: Hook<R>, svc: Rec, req: Doc): string {
  const version = String(svc.doc.version);
  const runtime = h.world.clusters.lakeOf(svc.env ?? '')?.runtime ?? '7.2.18';
  const newLake = !older(runtime, SPARK3_5_4_RUNTIME);
  const asked = str(req.sparkVersion);
  if (!asked) return newLake && !older(version, SPARK_SINCE.SPARK3_5_4 ?? '') ? 'SPARK3_5_4' : 'SPARK3_5';
  const since = SPARK_SINCE[asked];
  if (since && older(version, since))
    throw invalid(`${asked} needs Data Engineering ${since} or later; service ${svc.name} runs ${version}`);
  if (asked === 'SPARK3_5' && newLake) throw invalid(`with data lake runtime ${runtime}, use SPARK3_5_4 instead of SPARK3_5`);
  return asked;
}

/** A new virtual cluster: its service up, its quota well-formed, its Spark version one the service takes. */
export function checkVc(h: Hook<R>, rec: Rec, req: Doc): void {
  const svc = serviceOf(h, rec);
  h.records('cluster').require(svc, USABLE, 'a new virtual cluster');
  const cpu = text(req.cpuRequests);
  const memory = text(req.memoryRequests);
  if (!CPU.test(cpu) || Number(cpu) <= 0) throw invalid(`cpuRequests ${cpu} is not a number of CPU cores, such as 40`);
  if (!MEMORY.test(memory) || parseFloat(memory) <= 0) throw invalid(`memoryRequests ${memory} is not an amount of memory, such as 160Gi`);
  if (str(req.runtimeSpotComponent)) {
    if (svc.doc.cloudPlatform !== 'AWS')
      throw invalid(`runtimeSpotComponent applies to AWS services only; service ${svc.name} is on ${String(svc.doc.cloudPlatform)}`);
    if (Number((svc.doc.resources as Doc | undefined)?.max_spot_instances ?? 0) === 0)
      throw failedPrecondition(`runtimeSpotComponent needs spot instances; service ${svc.name} has none (maximumSpotInstances 0)`);
  }
  sparkVersion(h, svc, req);
}

/** What a new virtual cluster shows: its resources, who made it, its endpoints, its Spark settings and access. */
export function fillVc(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const svc = serviceOf(h, rec);
  const cpu = text(req.cpuRequests);
  const memory = text(req.memoryRequests);
  const caller = callerOf(h);
  const host = `${rec.id}.cde-${svc.id.replace(/^cluster-/, '')}.${String(svc.doc.environmentName)}.emulator.invalid`;
  const smtp = req.smtpConfigs as Doc | undefined;
  return {
    clusterId: svc.id,
    resources: {
      cpuRequests: cpu,
      memRequests: memory,
      // Livy, Airflow and the job scheduler run in the virtual cluster beside its jobs.
      actualCpuRequests: String(Number(cpu) + 4),
      actualMemoryRequests: `${parseFloat(memory) + 16}${/[A-Za-z]+$/.exec(memory)?.[0] ?? ''}`,
    },
    creatorEmail: caller.email,
    creatorID: caller.id,
    creatorName: caller.name,
    vcApiUrl: `https://${host}/dex/api/v1`,
    VcUiUrl: `https://console.${String(svc.doc.environmentName)}.emulator.invalid/dex/ui/vc/${rec.id}?cluster=${svc.id}`,
    historyServerUrl: `https://${host}/hs`,
    livyServerUrl: `https://${host}/dex/livy`,
    safariUrl: `https://${host}/safari`,
    creationTime: iso(h.ctx.clock.now()),
    sparkVersion: sparkVersion(h, svc, req),
    sparkOSName: str(req.sparkOSName) ?? 'SECURITYHARDENED',
    vcTier: str(req.vcTier) ?? 'CORE',
    sessionTimeout: str(req.sessionTimeout) ?? '8h',
    accessControl: accessOf(req),
    ...(smtp ? { smtpConfig: { ...smtp, port: num(smtp.port) ?? 25, startTls: smtp.startTls !== false, ssl: smtp.ssl === true } } : {}),
  };
}

/** How a suspend and a resume are told, and the action that comes after each. */
const WORDS = {
  suspend: { ing: 'suspending', ed: 'suspended', then: 'resume' },
  resume: { ing: 'resuming', ed: 'resumed', then: 'suspend' },
} as const;

/** States a virtual cluster takes updates in: installed, suspended, or on its way between the two. */
const UPDATABLE = ['AppInstalled', 'AppSuspended', 'AppSuspending', 'AppResuming'];

/**
 * updateVc: who may use it and its Spark settings (what it is, not what runs
 * in it). The access it shows is made anew from the lists given and those
 * it had, and discardSparkConfigs takes its Spark settings away.
 */
export function updateVc(h: Hook<R>, rec: EngineRecord, req: Doc): void {
  h.records('vc').require(rec, UPDATABLE, 'an update');
  rec.doc.accessControl = accessOf(req, (rec.doc.accessControl as Doc | undefined) ?? {});
  if (req.discardSparkConfigs === true) delete rec.doc.sparkConfigs;
}

/** A suspend or resume needs the virtual cluster's service up. */
export const checkServiceUp = (h: Hook<R>, rec: Rec, action: string): void =>
  h.records('cluster').require(serviceOf(h, rec), USABLE, `a ${action}`);

/**
 * suspendVc and resumeVc: the virtual cluster's suspend or resume action,
 * answered with what it is doing. Code only so that the engine's waiter
 * check (engine-waiters.test.ts) does not compare their lifecycle ends with
 * their CLI waiter, which polls getSuspendResumeStatus for the COMPLETED it
 * computes from those ends, not the virtual cluster's status.
 */
const suspendOrResume =
  (action: 'suspend' | 'resume') =>
  (h: Hook<R>, req: Doc): Doc =>
    h.serve(verbs<R>('vc').act(action, { answer: (_h, rec) => ({ status: `${WORDS[action].ing} virtual cluster ${nameOf(rec)}` }) }), req);
export const suspendVc = suspendOrResume('suspend');
export const resumeVc = suspendOrResume('resume');

/** How far a virtual cluster's suspend or resume has got. */
function progressOf(h: Hook<R>, vc: EngineRecord): { message: string; done: boolean; next?: string } {
  const vcs = h.records('vc');
  const action = vc.activity.action;
  const name = nameOf(vc);
  if (action !== 'suspend' && action !== 'resume')
    return { message: `virtual cluster ${name} is ${vcs.state(vc)}`, done: true, next: 'suspend' };
  const p = vcs.progress(vc);
  const { ing, ed, then } = WORDS[action];
  if (p.failed) return { message: `${ing} virtual cluster ${name} failed: ${vc.activity.reason ?? p.state}`, done: false, next: action };
  if (!p.done) return { message: `${ing} virtual cluster ${name}: ${p.state}`, done: false };
  return { message: `virtual cluster ${name} is ${ed}`, done: true, next: then };
}

/** getSuspendResumeStatus: of one virtual cluster (vcId), or of every live one of the service. */
export function suspendResumeStatus(h: Hook<R>, svc: Rec, req: Doc): Doc {
  const vcs = str(req.vcId) ? [h.locate('vc', req)] : liveVcs(h, svc);
  if (vcs.length === 0) return { statusMessage: `service ${nameOf(svc)} has no virtual clusters`, allStepsCompleted: true };
  const each = vcs.map((vc) => progressOf(h, vc));
  const pending = each.filter((p) => !p.done);
  const shown = pending.length > 0 ? pending : each;
  const next = vcs.length === 1 ? each[0]?.next : undefined;
  return { statusMessage: shown.map((p) => p.message).join('; '), nextStep: next, allStepsCompleted: pending.length === 0 };
}
