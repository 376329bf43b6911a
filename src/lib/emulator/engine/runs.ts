/**
 * When a record ran, on the emulator clock, read from the actions it went
 * through: what compute usage is computed from (consumption), for every
 * resource whose lifecycle runs it (a cluster, a database; not a backup).
 */
import { progress, type Activity, type Lifecycle } from './timeline.js';

/** An interval [from, to) of emulated ms. */
export interface Run {
  readonly from: number;
  readonly to: number;
}

/** An action a record went through, as its runs read it. */
export interface ActionSpan {
  readonly action: string;
  readonly startedAt: number;
  /** When it ended (or now, while it runs). */
  readonly endedAt: number;
  /** The state it ended in (or is in). */
  readonly state: string;
  readonly failed: boolean;
}

/** Actions that take a record down: its instances stop or go. */
const DOWN = /^(stop|suspend|pause|hibernate|shutdown|terminate|delete|drop|remove|disable)/i;
const isDown = (lc: Lifecycle, action: string): boolean => DOWN.test(action) || lc[action]?.removes === true;
const downStates = (lc: Lifecycle): Set<string> =>
  new Set(
    Object.entries(lc)
      .filter(([a, spec]) => isDown(lc, a) && spec.success !== undefined)
      .map(([, spec]) => spec.success as string),
  );

/** Whether records of a lifecycle run at all: they can be stopped or started, or being made leaves them up. */
export function runsAtAll(lc: Lifecycle | undefined): boolean {
  if (!lc) return false;
  if (Object.keys(lc).some((a) => /^(stop|suspend|start|resume)/i.test(a))) return true;
  return /^(AVAILABLE|RUNNING|ACTIVE|HEALTHY|GOOD_HEALTH|READY|UP|PROVISIONED|INSTALLED)$/i.test(lc.create?.success ?? '');
}

/**
 * When a record ran, from the actions it went through: each action that
 * does not take it down runs it from its start until the next action (or
 * now), or only until it ended when it failed or left the record down.
 */
export function runsOf(lc: Lifecycle, spans: readonly ActionSpan[], now: number): Run[] {
  const down = downStates(lc);
  const runs: Array<{ from: number; to: number }> = [];
  spans.forEach((s, i) => {
    if (isDown(lc, s.action)) return;
    const next = spans[i + 1]?.startedAt ?? now;
    const to = s.failed || down.has(s.state) ? Math.min(s.endedAt, next) : next;
    if (to <= s.startedAt) return;
    const last = runs[runs.length - 1];
    if (last && last.to >= s.startedAt) last.to = Math.max(last.to, to);
    else runs.push({ from: s.startedAt, to });
  });
  return runs;
}

/**
 * The actions of a record that keeps only its current one and when it was
 * made: it ran from then until the current action, unless that action
 * starts it again (when it stopped before is not known, so only the run
 * since is).
 */
export function spansOf(lc: Lifecycle, activity: Activity, now: number, createdAt: number | undefined): ActionSpan[] {
  const current = spanOf(activity, now);
  const down = downStates(lc);
  const restarts = (lc[activity.action]?.from ?? []).some((s) => down.has(s));
  if (createdAt === undefined || createdAt >= current.startedAt || restarts) return [current];
  return [{ action: 'create', startedAt: createdAt, endedAt: createdAt, state: '', failed: false }, current];
}

/** An action as it stands now: when it began, when it ended (now while it runs), the state it is in, whether it failed. */
export function spanOf(act: Activity, now: number): ActionSpan {
  const p = progress(act, now);
  return { action: act.action, startedAt: act.tl.startedAt, endedAt: Math.min(p.endsAt, now), state: p.state, failed: p.failed };
}

/** When a stored record was made, by the field names records keep it under (epoch ms or ISO 8601). */
export function createdAtOf(record: unknown): number | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  for (const k of ['createdAt', 'creationDate', 'created', 'creationTime']) {
    const v = (record as Record<string, unknown>)[k];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && !Number.isNaN(Date.parse(v))) return Date.parse(v);
  }
  return undefined;
}
