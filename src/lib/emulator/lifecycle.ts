/**
 * The lifecycle engine: long-running work as data, for every service.
 *
 * A service declares what its resources do as a `Lifecycle`: for each action
 * (create, stop, upgrade...) the states it passes through and how long each
 * lasts in emulated minutes, the state it ends in on success and on failure,
 * the states it may start from, the name of its operation record, and
 * whether success removes the resource. Starting an action stores an
 * `Activity` on the resource: its timeline on the emulator clock, the effect
 * success has (fields to set), and how it ends. Nothing runs in the
 * background: the state is read off the clock whenever the resource is read
 * (`progress`), and the effect is applied once, by the first read after the
 * action succeeded (`settle`). So state survives restarts and kill -9, and a
 * paused clock (clock.ts) holds every resource in the state it is in.
 *
 * Failing on purpose (`failsOnPurpose`): a resource named `fail-...` fails
 * every action; one named `fail-<action>-...` fails only that action, and
 * only its first run, so a retry can be tried.
 *
 * `Resources` puts it together for one kind of stored resource: lookups by
 * id, name or CRN that settle what they find, `begin` that checks the
 * action may start and records its operation, and removal when an action
 * that removes the resource has succeeded. `Operations` keeps the operation
 * records that getOperation-style calls read. See docs/architecture.md.
 */
import { failedPrecondition, notFound } from './errors.js';
import { uuid } from './ids.js';
import type { PutOptions } from './store.js';
import type { BackendContext, Doc } from './types.js';

/** What the engine needs of a request: its state and its (frozen) clock. */
export type EngineContext = Pick<BackendContext, 'store' | 'clock'>;

const MINUTE = 60_000;

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
  let index = 0;
  for (let i = 0; i < tl.steps.length; i++) {
    const step = tl.steps[i];
    if (step && now - tl.startedAt >= step.afterMs) index = i;
  }
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
export function failsOnPurpose(subject: string | undefined, action: string, lifecycle: Lifecycle, retry = false): boolean {
  const s = subject?.toLowerCase() ?? '';
  if (!s.startsWith('fail-')) return false;
  const named = /^fail-([a-z0-9]+)-/.exec(s)?.[1];
  const actions = Object.keys(lifecycle).map((a) => a.toLowerCase());
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
  const fail = spec.failure !== undefined && (opts.fail ?? failsOnPurpose(opts.subject, action, lifecycle, opts.retry));
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
 * Applies an activity's end to its resource once: the effect of a success.
 * Returns the progress when this call applied the end (the caller saves or
 * removes the resource), undefined otherwise.
 */
export function settle(target: { activity: Activity }, now: number): Progress | undefined {
  const act = target.activity;
  const p = progress(act, now);
  if (!p.done || act.applied) return undefined;
  act.applied = true;
  if (p.succeeded && act.effect) Object.assign(target, act.effect);
  return p;
}

// ---- operation records -------------------------------------------------------

/** What getOperation reads: an action's record with its own RUNNING -> FINISHED | FAILED timeline. */
export interface OperationRecord {
  operationId: string;
  operationName: string;
  /** The resource it belongs to (its store id). */
  owner: string;
  tl: Timeline;
  cancelledAt?: number;
}

const FINISHED = 'FINISHED';
const FAILED = 'FAILED';

/** The operation records of one service (a store kind), listed per owner. */
export class Operations {
  constructor(
    private readonly ctx: EngineContext,
    readonly kind: string,
  ) {}

  /** Records an operation that runs `minutes` from `at` and then finishes or fails. */
  record(owner: string, name: string, opts: { at?: number; minutes: number; failed: boolean; operationId?: string }): OperationRecord {
    const rec: OperationRecord = {
      operationId: opts.operationId ?? uuid(),
      operationName: name,
      owner,
      tl: timeline(opts.at ?? this.ctx.clock.now(), [
        ['RUNNING', opts.minutes],
        [opts.failed ? FAILED : FINISHED, 0],
      ]),
    };
    this.ctx.store.put(this.kind, rec.operationId, rec, { parent: owner });
    return rec;
  }

  /** Records the operation of an activity that has just started. */
  recordActivity(owner: string, name: string, act: Activity): OperationRecord {
    const p = progress(act, act.tl.startedAt);
    return this.record(owner, name, {
      at: act.tl.startedAt,
      minutes: (p.endsAt - act.tl.startedAt) / MINUTE,
      failed: willFail(act),
      operationId: act.operationId,
    });
  }

  find(id: string): OperationRecord | undefined {
    return this.ctx.store.get<OperationRecord>(this.kind, id);
  }

  /** An operation by id, or NOT_FOUND. */
  get(id: string): OperationRecord {
    const rec = this.find(id);
    if (!rec) throw notFound(`operation ${id} not found`);
    return rec;
  }

  /** An owner's operation by id, or its newest; NOT_FOUND when it has none or the id is another's. `what` names the owner in messages. */
  ofOwner(owner: string, what: string, operationId?: string): OperationRecord {
    if (!operationId) {
      const latest = this.latest(owner);
      if (!latest) throw notFound(`${what} has no operations`);
      return latest;
    }
    const rec = this.get(operationId);
    if (rec.owner !== owner) throw notFound(`operation ${operationId} is not an operation of ${what}`);
    return rec;
  }

  /** The newest operation of an owner. */
  latest(owner: string): OperationRecord | undefined {
    const all = this.ctx.store.children<OperationRecord>(this.kind, owner);
    return all[all.length - 1]?.doc;
  }

  /** Marks a running operation cancelled now. */
  cancel(id: string): void {
    const rec = this.find(id);
    if (!rec) return;
    rec.cancelledAt = this.ctx.clock.now();
    this.ctx.store.put(this.kind, rec.operationId, rec, { parent: rec.owner });
  }

  status(rec: OperationRecord): { status: string; ended?: number } {
    const act: Activity = { action: rec.operationName, tl: rec.tl, success: FINISHED, failure: FAILED, cancelledAt: rec.cancelledAt };
    const p = progress(act, this.ctx.clock.now());
    return { status: p.state, ended: p.done ? p.endsAt : undefined };
  }

  /** The wire GetOperationResponse (datalake, datahub and environments share it). */
  view(rec: OperationRecord): Doc {
    const { status, ended } = this.status(rec);
    return {
      operationId: rec.operationId,
      operationName: rec.operationName,
      operationStatus: status,
      started: new Date(rec.tl.startedAt).toISOString(),
      ...(ended !== undefined ? { ended: new Date(ended).toISOString() } : {}),
    };
  }
}

// ---- resources ---------------------------------------------------------------

/** A stored resource with a lifecycle. */
export interface Tracked {
  activity: Activity;
}

/** How the resources of one kind are stored, named and ended. */
export interface ResourceKind<T extends Tracked> {
  /** Store kind: `datalake.datalake`. */
  readonly kind: string;
  /** What it is called in messages: `data lake`. */
  readonly noun: string;
  readonly lifecycle: Lifecycle;
  /** Its store id. */
  readonly id: (r: T) => string;
  /** Its name in messages. */
  readonly name: (r: T) => string;
  /** The name the fail- rule reads (default: its name; undefined: it never fails on purpose). */
  readonly subject?: (r: T) => string | undefined;
  /** Its lookup keys (unique name, CRN, parent); see Store.put. */
  readonly keys: (r: T) => PutOptions;
  /** The store kind of its operation records, when its actions name operations. */
  readonly operations?: string;
  /** Whose operations they are (getOperation by resource); default: the resource's own id. */
  readonly operationOwner?: (r: T) => string;
  /** Runs on every save (e.g. to stamp when it changed). */
  readonly touched?: (r: T, now: number) => void;
  /** Runs when an action begins, with the activity it replaces (e.g. to keep a history). */
  readonly began?: (r: T, previous: Activity) => void;
  /** Runs once when an action has ended (after a success's effect), before the resource is saved. */
  readonly ended?: (r: T, end: Progress) => void;
  /** Takes the resource away once an action that removes it has succeeded (default: deletes its document); reads answer NOT_FOUND. */
  readonly remove?: (r: T) => void;
}

export interface BeginOptions {
  readonly effect?: Doc;
  /** When it starts (emulated ms; now when left out). */
  readonly at?: number;
  readonly fail?: boolean;
  readonly retry?: boolean;
  readonly minutes?: number;
  /** Skip the spec's `from` check (e.g. a forced delete). */
  readonly anyState?: boolean;
  /** The id its operation record gets (a new one when left out). */
  readonly operationId?: string;
}

/** The resources of one kind, for one request: lookups settle what they find. */
export class Resources<T extends Tracked> {
  constructor(
    private readonly ctx: EngineContext,
    readonly def: ResourceKind<T>,
  ) {}

  private get now(): number {
    return this.ctx.clock.now();
  }

  /** Whether the success of its action removes the resource. */
  private removes(r: T): boolean {
    return this.def.lifecycle[r.activity.action]?.removes === true;
  }

  /** Whether reading the resource now applies the end of its action (a write): settle() would change it. */
  private unsettled(r: T): boolean {
    // An end that changes nothing (no effect, no end hook, no removal) needs no write.
    if (!r.activity.effect && !this.def.ended && !this.removes(r)) return false;
    return !r.activity.applied && progress(r.activity, this.now).done;
  }

  /** Settles a resource read from the store; undefined once it has been removed. */
  private settled(r: T): T | undefined {
    if (!this.unsettled(r)) return r;
    const end = settle(r, this.now);
    if (!end) return r;
    this.def.ended?.(r, end);
    if (end.succeeded && this.removes(r)) {
      if (this.def.remove) this.def.remove(r);
      else this.ctx.store.delete(this.def.kind, this.def.id(r));
      return undefined;
    }
    this.save(r);
    return r;
  }

  byId(id: string): T | undefined {
    const r = this.ctx.store.get<T>(this.def.kind, id);
    return r ? this.settled(r) : undefined;
  }

  /**
   * By id, as kept (frozen: Store.peek), for a caller that only looks at it.
   * One whose action has ended since it was last written is read as byId
   * reads it, so that the end is applied and saved once.
   */
  peekById(id: string): Readonly<T> | undefined {
    const r = this.ctx.store.peek<T>(this.def.kind, id);
    if (!r) return undefined;
    return this.unsettled(r as T) ? this.byId(id) : r;
  }

  /** By CRN, or by name (any case) when the kind indexes names. */
  find(ref: string): T | undefined {
    const id = this.idOf(ref);
    return id !== undefined ? this.byId(id) : undefined;
  }

  /** As find, as kept (peekById). */
  peek(ref: string): Readonly<T> | undefined {
    const id = this.idOf(ref);
    return id !== undefined ? this.peekById(id) : undefined;
  }

  /** The id of the resource a CRN or a name (any case) names. */
  private idOf(ref: string): string | undefined {
    if (!ref.startsWith('crn:')) return this.ctx.store.idByName(this.def.kind, ref);
    const hit = this.ctx.store.idByCrn(ref);
    return hit?.kind === this.def.kind ? hit.id : undefined;
  }

  /** By CRN or name, or NOT_FOUND. */
  get(ref: string): T {
    const r = this.find(ref);
    if (!r) throw notFound(`${this.def.noun} ${ref.slice(0, 200)} not found`);
    return r;
  }

  /** Every one of the account, in creation order, settled; removed ones left out. */
  all(): T[] {
    return this.ctx.store
      .list<T>(this.def.kind)
      .map((x) => this.settled(x.doc))
      .filter((r): r is T => r !== undefined);
  }

  /** Those under a parent key, settled. */
  children(parent: string): T[] {
    return this.ctx.store
      .children<T>(this.def.kind, parent)
      .map((x) => this.settled(x.doc))
      .filter((r): r is T => r !== undefined);
  }

  save(r: T): T {
    this.def.touched?.(r, this.now);
    this.ctx.store.put(this.def.kind, this.def.id(r), r, this.def.keys(r));
    return r;
  }

  progress(r: T): Progress {
    return progress(r.activity, this.now);
  }

  state(r: T): string {
    return this.progress(r).state;
  }

  /** Whether an action is still under way. */
  busy(r: T): boolean {
    return !this.progress(r).done;
  }

  /** FAILED_PRECONDITION unless the resource is in one of the states (or the test passes). */
  require(r: T, allowed: readonly string[] | ((state: string) => boolean), what: string): void {
    const state = this.state(r);
    const ok = typeof allowed === 'function' ? allowed(state) : allowed.includes(state);
    if (!ok)
      throw failedPrecondition(
        `${this.def.noun} ${this.def.name(r)} is ${state}; ${what} needs it ${typeof allowed === 'function' ? 'in another state' : allowed.join(' or ')}`,
      );
  }

  /** Stores a new resource whose first action starts now (`from` is not checked: it has no state yet). */
  create(fields: Omit<T, 'activity'>, action: string, opts: BeginOptions = {}): T {
    const r = { ...fields, activity: settledIn(action, '', this.now) } as T;
    this.begin(r, action, { ...opts, anyState: true });
    return r;
  }

  /** Starts an action on a resource: checks the state it may start from, records its operation, saves. */
  begin(r: T, action: string, opts: BeginOptions = {}): Activity {
    const spec = this.def.lifecycle[action];
    if (!spec) throw new Error(`no action ${action} for ${this.def.noun}`);
    const current = this.state(r);
    if (spec.from && !opts.anyState) this.require(r, spec.from, action);
    const act = start(this.def.lifecycle, action, this.now, {
      subject: this.def.subject ? this.def.subject(r) : this.def.name(r),
      subjectNoun: `${this.def.noun} name`,
      current,
      ...opts,
      operationId: spec.operation && this.def.operations ? (opts.operationId ?? uuid()) : undefined,
    });
    if (spec.operation && this.def.operations && act.operationId)
      new Operations(this.ctx, this.def.operations).recordActivity((this.def.operationOwner ?? this.def.id)(r), spec.operation, act);
    this.def.began?.(r, r.activity);
    r.activity = act;
    this.save(r);
    return act;
  }
}
