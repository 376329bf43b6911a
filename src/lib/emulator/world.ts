/**
 * One world across services: what every service's records have to do with
 * the environments they live in, gathered when the emulator starts from the
 * service modules (their `dependents`, and every environment-scoped resource
 * of the engine). The environments service reads it to refuse deleting an
 * environment that still holds data lakes, Data Hubs, warehouses,
 * workspaces... (or to remove them, cascading), and to stop and start them
 * with their environment. Records are read settled (lifecycle.ts), so a
 * delete that has ended is gone for every service at once, whether or not
 * its own service has been asked since. The emulator gives the world to
 * every request (RequestContext.world); two emulators in one process each
 * have their own.
 */
import { progress, type Activity, type Lifecycle, type Resources, type Tracked } from './lifecycle.js';
import type { BackendContext } from './types.js';

/** What a dependent's lookups need: the request's state, clock and account. */
export type WorldScope = Pick<BackendContext, 'store' | 'clock' | 'info'>;

/** How an environment's change reaches what runs in it. */
export type EnvironmentChange = 'stop' | 'start';

/** One record that lives in an environment, as the environment sees it. */
export interface Dependent {
  readonly service: string;
  /** What it is: `data lake`. */
  readonly noun: string;
  /** Its name: `cdp-lake`. */
  readonly name: string;
  /** `data lake cdp-lake` */
  readonly what: string;
  /** Its state now ('' for a record without a lifecycle). */
  readonly status: string;
  /** Names it among its environment's dependents: `<store kind>/<id>`. */
  readonly ref: string;
  /** The record as its service shows it. */
  view(): unknown;
  /** Removes it at once (a cascading environment delete). */
  remove(): void;
  /** Begins the change on it, when its lifecycle has the action and its state allows it; returns whether it began. */
  follow(change: EnvironmentChange): boolean;
  /** When it has run, for a record that runs (a cluster, a database; not a backup): what usage is computed from. */
  readonly running?: () => Running;
}

/** An interval [from, to) of emulated ms. */
export interface Run {
  readonly from: number;
  readonly to: number;
}

/** What a record that runs tells of its runs. */
export interface Running {
  readonly name: string;
  readonly crn?: string;
  /** When it ran (its instances up), oldest first; the last ends now while it runs. */
  readonly runs: readonly Run[];
  /** The record as stored, for what usage shows of it (instance types and counts, tags). */
  readonly record: unknown;
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
  const p = progress(activity, now);
  const current: ActionSpan = {
    action: activity.action,
    startedAt: activity.tl.startedAt,
    endedAt: Math.min(p.endsAt, now),
    state: p.state,
    failed: p.failed,
  };
  const down = downStates(lc);
  const restarts = (lc[activity.action]?.from ?? []).some((s) => down.has(s));
  if (createdAt === undefined || createdAt >= current.startedAt || restarts) return [current];
  return [{ action: 'create', startedAt: createdAt, endedAt: createdAt, state: '', failed: false }, current];
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

/** A kind of record that lives in environments. */
export interface DependentKind {
  readonly service: string;
  readonly noun: string;
  /** Its records in an environment now, settled. */
  in(scope: WorldScope, environmentCrn: string): Dependent[];
}

/** A dependent kind over a lifecycle resource: its records, which environment each is in, and its name. */
export function dependentKind<T extends Tracked>(def: {
  readonly service: string;
  readonly noun: string;
  readonly resources: (scope: WorldScope) => Resources<T>;
  readonly environmentOf: (r: T) => string | undefined;
  readonly nameOf: (r: T) => string;
  /** The records of one environment, when the kind indexes them by it (else every record is read and filtered). */
  readonly inEnvironment?: (res: Resources<T>, environmentCrn: string) => T[];
  /** What it does as its environment stops or starts: the action of its lifecycle (default: the same name). */
  readonly follows?: Partial<Record<EnvironmentChange, string>>;
}): DependentKind {
  return {
    service: def.service,
    noun: def.noun,
    in(scope, environmentCrn) {
      const res = def.resources(scope);
      const records = def.inEnvironment
        ? def.inEnvironment(res, environmentCrn)
        : res.all().filter((r) => def.environmentOf(r) === environmentCrn);
      const lc = res.def.lifecycle;
      const runs = runsAtAll(lc);
      return records.map((r) => ({
        service: def.service,
        noun: def.noun,
        name: def.nameOf(r),
        what: `${def.noun} ${def.nameOf(r)}`,
        status: res.state(r),
        ref: `${res.def.kind}/${res.def.id(r)}`,
        view: () => {
          // The stored record, with its state as of now in place of the lifecycle's bookkeeping.
          const { activity: _activity, ...shown } = r as T & Record<string, unknown>;
          return { ...shown, status: res.state(r) };
        },
        remove: () => scope.store.delete(res.def.kind, res.def.id(r)),
        ...(runs
          ? {
              running: (): Running => {
                const now = scope.clock.now();
                const spans = spansOf(lc, r.activity, now, createdAtOf(r));
                return { name: def.nameOf(r), crn: res.def.keys(r).crn, runs: runsOf(lc, spans, now), record: r };
              },
            }
          : {}),
        follow: (change) => {
          const action = def.follows?.[change] ?? change;
          const spec = res.def.lifecycle[action];
          if (!spec || res.busy(r) || (spec.from && !spec.from.includes(res.state(r)))) return false;
          res.begin(r, action);
          return true;
        },
      }));
    },
  };
}

export class World {
  static readonly empty = new World([]);

  constructor(readonly dependents: readonly DependentKind[]) {}

  /** Everything that lives in an environment now, every service's. */
  inEnvironment(scope: WorldScope, environmentCrn: string): Dependent[] {
    return this.dependents.flatMap((k) => k.in(scope, environmentCrn));
  }

  /** Stops or starts what lives in an environment with it; returns what followed. */
  follow(scope: WorldScope, environmentCrn: string, change: EnvironmentChange): Dependent[] {
    return this.inEnvironment(scope, environmentCrn).filter((d) => d.follow(change));
  }
}
