/**
 * The in-place upgrade of a Data Engineering service, in the steps the
 * service takes it: prepare, backup (a real backup of the service), upgrade
 * (the service itself, ClusterUpgradeInProgress), resume. Each step is
 * started on its own once the one before has ended; cancel drops an upgrade
 * whose upgrade step has not begun. getUpgradeStatus reads where it stands.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { failedPrecondition } from '../../errors.js';
import { LATEST_VERSION, located, older, USABLE, type R, type Rec } from './common.js';
import { nameOf } from '../../engine/records.js';

const STEPS = ['prepare', 'backup', 'upgrade', 'resume'] as const;
type Step = (typeof STEPS)[number];

/** Minutes the steps the service runs on its own (prepare, resume) take; backup and upgrade take what their backup and upgrade take. */
const OWN_STEP_MINUTES = 3;

/** An upgrade of a service, kept on its record: the steps taken, when, and the backup the backup step made. */
interface UpgradeRun {
  readonly from: string;
  readonly to: string;
  readonly steps: ReadonlyArray<{ readonly step: Step; readonly at: number; readonly backupId?: string }>;
}
type StepRun = UpgradeRun['steps'][number];
type StepState = 'running' | 'done' | 'failed';

const runOf = (rec: Rec): UpgradeRun | undefined => rec.data?.upgrade as UpgradeRun | undefined;

/** Where a step stands: by its own clock, its backup's status, or the service's upgrade. */
function stateOf(h: Hook<R>, rec: Rec, s: StepRun): { state: StepState; why?: string } {
  if (s.step === 'backup') {
    const backups = h.records('backup');
    const b = backups.byId(s.backupId ?? '');
    const state = b ? backups.state(b) : 'deleted';
    if (state === 'completed') return { state: 'done' };
    if (state === 'pending' || state === 'running') return { state: 'running' };
    return { state: 'failed', why: `backup ${s.backupId ?? ''} is ${state}` };
  }
  if (s.step === 'upgrade') {
    const p = h.records('cluster').progress(rec);
    if (rec.activity.action !== 'upgrade') return { state: 'done' };
    if (!p.done) return { state: 'running' };
    return p.failed ? { state: 'failed', why: rec.activity.reason ?? p.state } : { state: 'done' };
  }
  return { state: h.ctx.clock.now() >= s.at + OWN_STEP_MINUTES * 60_000 ? 'done' : 'running' };
}

/** Where an upgrade stands: its last step and how that is going. */
function standing(h: Hook<R>, rec: Rec, run: UpgradeRun): { last: StepRun; state: StepState; why?: string } | undefined {
  const last = run.steps[run.steps.length - 1];
  return last ? { last, ...stateOf(h, rec, last) } : undefined;
}

const nextOf = (step: Step): Step | undefined => STEPS[STEPS.indexOf(step) + 1];

const said = (upgradeStatusMessage: string, allStepsCompleted: boolean, nextStep?: string): Doc => ({
  upgradeStatusMessage,
  nextStep,
  allStepsCompleted,
});

/** getUpgradeStatus: what has been done, and the step to take next. */
export function upgradeStatus(h: Hook<R>, rec: Rec): Doc {
  const version = String(rec.doc.version);
  const run = runOf(rec);
  const at = run && standing(h, rec, run);
  if (!run || !at)
    return older(version, LATEST_VERSION)
      ? said(`version ${LATEST_VERSION} is available (the service runs ${version}); begin with the prepare step`, false, 'prepare')
      : said(`the service runs the newest version, ${version}`, true);
  const { last, state, why } = at;
  const upgrade = `upgrade from ${run.from} to ${run.to}`;
  if (state === 'running') return said(`${upgrade}: ${last.step} in progress`, false);
  if (state === 'failed') return said(`${upgrade}: ${last.step} failed (${why ?? 'unknown'}); run it again, or cancel`, false, last.step);
  const next = nextOf(last.step);
  return next
    ? said(`${upgrade}: ${last.step} completed; next: ${next}`, false, next)
    : said(`upgraded from ${run.from} to ${run.to}`, true);
}

/**
 * upgradeService: starts one step of the upgrade (or cancels it). Code: one
 * operation takes five steps, each its own change (a backup, the service's
 * upgrade action, or a step kept on the service's record).
 */
export function upgradeService(h: Hook<R>, req: Doc): Doc {
  const services = h.records('cluster');
  const rec = located(h, 'cluster', req);
  const keep = (upgrade: UpgradeRun | undefined, message: string): Doc => {
    services.save({ ...rec, data: { ...rec.data, upgrade } });
    return { message };
  };
  const step = String(req.step);
  const name = nameOf(rec);
  const run = runOf(rec);
  const at = run && standing(h, rec, run);
  const open = run && at && !(at.last.step === 'resume' && at.state === 'done');
  if (step === 'cancel') {
    if (!run || !open) throw failedPrecondition(`service ${name} has no upgrade under way`);
    if (run.steps.some((s) => s.step === 'upgrade'))
      throw failedPrecondition(`the upgrade step of service ${name} has begun; the upgrade cannot be cancelled`);
    return keep(undefined, `the upgrade of service ${name} to ${run.to} is cancelled`);
  }
  if (step === 'prepare') {
    if (open)
      throw failedPrecondition(
        `service ${name} is already being upgraded to ${run.to}; ${String(upgradeStatus(h, rec).upgradeStatusMessage)}`,
      );
    const version = String(rec.doc.version);
    if (!older(version, LATEST_VERSION))
      throw failedPrecondition(`service ${name} runs the newest version, ${version}; there is nothing to upgrade to`);
    services.require(rec, USABLE, 'an upgrade');
    return keep(
      { from: version, to: LATEST_VERSION, steps: [{ step: 'prepare', at: h.ctx.clock.now() }] },
      'prepare step triggered successfully',
    );
  }
  if (!run || !at || !open) throw failedPrecondition(`service ${name} has no upgrade under way; begin with the prepare step`);
  if (at.state === 'running') throw failedPrecondition(`the ${at.last.step} step of service ${name} is still running`);
  const expected = at.state === 'failed' ? at.last.step : nextOf(at.last.step);
  if (step !== expected) throw failedPrecondition(`the next step of the upgrade of service ${name} is ${expected ?? 'none'}, not ${step}`);
  const backupId =
    step === 'backup'
      ? String(h.perform('createBackup', { serviceId: rec.id, description: `before the upgrade to ${run.to}` }).backupID)
      : undefined;
  if (step === 'upgrade')
    services.begin(rec, 'upgrade', { effect: { version: run.to }, ...(at.state === 'failed' ? { fail: false } : {}) });
  const again = at.state === 'failed' ? run.steps.slice(0, -1) : run.steps;
  return keep(
    { ...run, steps: [...again, { step: step as Step, at: h.ctx.clock.now(), ...(backupId ? { backupId } : {}) }] },
    `${step} step triggered successfully`,
  );
}
