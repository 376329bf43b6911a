/**
 * Long-running work as data, for every resource of every service: timelines
 * on the emulator clock.
 *
 * A resource's lifecycle says, for each action (create, stop, upgrade...),
 * the states it passes through and how long each lasts in emulated minutes,
 * the state it ends in on success and on failure, the states it may start
 * from, the name of its operation record, and whether success removes the
 * resource (the model's resource facts give the states; model/resources.ts).
 * Starting an action stores an `Activity` on the resource: its timeline on
 * the emulator clock, the effect success has (fields to set), and how it
 * ends. Nothing runs in the background: the state is read off the clock
 * whenever the resource is read (`progress`), and the effect is applied
 * once, by the first read after the action succeeded (records.ts). So state
 * survives restarts and kill -9, and a paused clock (clock.ts) holds every
 * resource in the state it is in.
 *
 * Failing on purpose (`failsOnPurpose`): a resource named `fail-...` fails
 * every action; one named `fail-<action>-...` fails only that action, and
 * only its first run, so a retry can be tried.
 */
import type { Doc } from './context.js';
import type { Clock } from '../clock.js';
import type { Store } from '../store.js';

/** What timelines and records need of a request: its state and its (frozen) clock. */
export interface EngineContext {
  readonly store: Store;
  readonly clock: Clock;
}

export const MINUTE = 60_000;

// ---- timelines ---------------------------------------------------------------

/** One step of a timeline: after `afterMs` of emulated time, the state becomes `state`. */
export interface Step {
  readonly afterMs: number;
  readonly state: string;
}

export interface Timeline {
  readonly startedAt: number;
  readonly steps: readonly Step[];
}

/** Builds a timeline from [state, minutes] pairs: each state lasts its minutes. */
export function timeline(startedAt: number, phases: ReadonlyArray<readonly [string, number]>): Timeline {
  let t = 0;
  const steps: Step[] = [];
  for (const [state, minutes] of phases) {
    steps.push({ afterMs: t, state });
    t += minutes * MINUTE;
  }
  return { startedAt, steps };
}

/** The state a timeline has reached, and whether it has finished. */
export function stateAt(tl: Timeline, now: number): { state: string; index: number; done: boolean } {
  // The last step reached; the first one before any is.
  const reached = tl.steps.findLastIndex((step) => now - tl.startedAt >= step.afterMs);
  const index = Math.max(0, reached);
  return { state: tl.steps[index]?.state ?? '', index, done: index === tl.steps.length - 1 };
}

/** When a timeline reaches its last state. */
export const endOf = (tl: Timeline): number => tl.startedAt + (tl.steps[tl.steps.length - 1]?.afterMs ?? 0);

// ---- specs -------------------------------------------------------------------

/** One long-running action of a resource, as data. */
export interface ActionSpec {
  /** The states the resource passes through while the action runs, each with its length in emulated minutes. */
  readonly phases: ReadonlyArray<readonly [state: string, minutes: number]>;
  /** The state success ends in; left out: the state the resource was in when the action began. */
  readonly success?: string;
  /** The state failure ends in; left out: the action cannot fail. */
  readonly failure?: string;
  /** The states the action may begin in; left out: any (the service checks what it needs). */
  readonly from?: readonly string[];
  /** The name of the operation record the action makes (`PROVISION`); left out: none. */
  readonly operation?: string;
  /** Success removes the resource: reads answer NOT_FOUND from then on. */
  readonly removes?: boolean;
}

/** What the resources of one kind do: action name -> its spec. */
export type Lifecycle = Readonly<Record<string, ActionSpec>>;

/** An action under way on a resource (or its last one), stored on the resource. */
export interface Activity {
  action: string;
  tl: Timeline;
  /** The state success ends in. */
  success: string;
  /** The state failure ends in ('' when the action cannot fail). */
  failure: string;
  /** Fields success sets on the resource, once. */
  effect?: Doc;
  /** Set once the end has been applied (the effect, the end hook, the removal). */
  applied?: boolean;
  operationId?: string;
  /** Why it fails, for a failing action. */
  reason?: string;
  /** When it was cancelled, if it was (before it ended). */
  cancelledAt?: number;
}

/** Where an activity stands at a time. */
export interface Progress {
  readonly state: string;
  readonly done: boolean;
  readonly succeeded: boolean;
  readonly failed: boolean;
  readonly cancelled: boolean;
  /** When it ended or will end (when it was cancelled, for a cancelled one). */
  readonly endsAt: number;
}

export const CANCELLED = 'CANCELLED';

export function progress(act: Activity, now: number): Progress {
  const end = endOf(act.tl);
  if (act.cancelledAt !== undefined && act.cancelledAt < end)
    return { state: CANCELLED, done: true, succeeded: false, failed: false, cancelled: true, endsAt: act.cancelledAt };
  const st = stateAt(act.tl, now);
  const failing = willFail(act);
  return { state: st.state, done: st.done, succeeded: st.done && !failing, failed: st.done && failing, cancelled: false, endsAt: end };
}

/** Whether an activity ends in failure (known from its start). */
export function willFail(act: Activity): boolean {
  return act.failure !== '' && act.tl.steps[act.tl.steps.length - 1]?.state === act.failure;
}

/**
 * Failing on purpose. A subject (a resource's name) starting with `fail-`
 * fails every action, unless it names one of the lifecycle's actions as
 * `fail-<action>-...`: then only that action fails, and only its first run.
 */
export function failsOnPurpose(
  subject: string | undefined,
  action: string,
  lifecycle: Lifecycle | readonly string[],
  retry = false,
): boolean {
  const s = subject?.toLowerCase() ?? '';
  if (!s.startsWith('fail-')) return false;
  const named = /^fail-([a-z0-9]+)-/.exec(s)?.[1];
  const actions = (Array.isArray(lifecycle) ? lifecycle : Object.keys(lifecycle)).map((a: string) => a.toLowerCase());
  if (named && actions.includes(named)) return named === action.toLowerCase() && !retry;
  return true;
}

export interface StartOptions {
  /** The name the fail- rule reads (and failure messages name). */
  readonly subject?: string;
  /** What the subject is in messages: "data lake name". */
  readonly subjectNoun?: string;
  /** Decides failure instead of the fail- rule. */
  readonly fail?: boolean;
  /** The actions the fail- rule knows a `fail-<action>-` name by (default: the lifecycle's). */
  readonly actions?: readonly string[];
  /** A retry: a `fail-<action>-` subject does not fail it again. */
  readonly retry?: boolean;
  /** Fields success sets on the resource. */
  readonly effect?: Doc;
  /** The state the resource is in (an action without `success` returns to it). */
  readonly current?: string;
  /** The action's whole length in minutes instead of the spec's (see fit). */
  readonly minutes?: number;
  /** When it starts (emulated ms); now when left out. */
  readonly at?: number;
  readonly operationId?: string;
}

/**
 * Phases made to last `minutes` in all: the phase the spec gives no length
 * (0), else the last one, takes the time the others leave; the others keep
 * their lengths (shortened in proportion when they alone take longer).
 */
function fit(phases: ActionSpec['phases'], minutes: number): ActionSpec['phases'] {
  const total = Math.max(0, minutes);
  const zero = phases.findIndex(([, m]) => m === 0);
  const filler = zero >= 0 ? zero : phases.length - 1;
  const fixed = phases.reduce((t, [, m], i) => (i === filler ? t : t + m), 0);
  const shrink = fixed > total && fixed > 0 ? total / fixed : 1;
  return phases.map(([s, m], i) => [s, i === filler ? Math.max(0, total - fixed * shrink) : m * shrink] as const);
}

/** The activity of an action starting now: its timeline, how it ends, its effect. */
export function start(lifecycle: Lifecycle, action: string, now: number, opts: StartOptions = {}): Activity {
  const spec = lifecycle[action];
  if (!spec) throw new Error(`no action ${action} in this lifecycle`);
  const fail = spec.failure !== undefined && (opts.fail ?? failsOnPurpose(opts.subject, action, opts.actions ?? lifecycle, opts.retry));
  const success = spec.success ?? opts.current;
  if (success === undefined) throw new Error(`action ${action} returns to the current state, which was not given`);
  const phases = opts.minutes === undefined ? spec.phases : fit(spec.phases, opts.minutes);
  const what = (spec.operation ?? action).toLowerCase().replace(/_/g, ' ');
  return {
    action,
    tl: timeline(opts.at ?? now, [...phases, [fail ? (spec.failure ?? '') : success, 0]]),
    success,
    failure: spec.failure ?? '',
    ...(opts.effect ? { effect: opts.effect } : {}),
    ...(opts.operationId ? { operationId: opts.operationId } : {}),
    ...(fail ? { reason: `${what} failed on purpose: the ${opts.subjectNoun ?? 'name'} starts with "fail-"` } : {}),
  };
}

/** An activity that is already over: the resource simply is in `state` (e.g. the first record of a resource). */
export function settledIn(action: string, state: string, now: number): Activity {
  return { action, tl: timeline(now, [[state, 0]]), success: state, failure: '', applied: true };
}

/**
 * Applies an activity's end to its resource once: the effect of a success,
 * by `apply` (default: its fields set on the resource itself). Returns the
 * progress when this call applied the end (the caller saves or removes the
 * resource), undefined otherwise.
 */
export function settle<T extends { activity: Activity }>(
  target: T,
  now: number,
  apply: (target: T, effect: Doc) => void = (t, e) => Object.assign(t, e),
): Progress | undefined {
  const act = target.activity;
  const p = progress(act, now);
  if (!p.done || act.applied) return undefined;
  act.applied = true;
  if (p.succeeded && act.effect) apply(target, act.effect);
  return p;
}
