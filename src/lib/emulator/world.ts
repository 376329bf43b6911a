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
import { createdAtOf, runsAtAll, runsOf, spansOf, type Run } from './engine/runs.js';
import type { Resources, Tracked } from './lifecycle.js';
import type { BackendContext } from './types.js';

export { createdAtOf, runsAtAll, runsOf, spansOf, type ActionSpan, type Run } from './engine/runs.js';

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

/** What a record that runs tells of its runs. */
export interface Running {
  readonly name: string;
  readonly crn?: string;
  /** When it ran (its instances up), oldest first; the last ends now while it runs. */
  readonly runs: readonly Run[];
  /** The record as stored, for what usage shows of it (instance types and counts, tags). */
  readonly record: unknown;
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

/** Finds a record of another service that records can live in (a data lake or Data Hub by CRN): its CRN as their scope, and its words in messages. */
export type PlaceFinder = (scope: WorldScope, ref: string) => { readonly scope: string; readonly where: string } | undefined;

export class World {
  static readonly empty = new World([]);

  constructor(
    readonly dependents: readonly DependentKind[],
    readonly places: Readonly<Record<string, PlaceFinder>> = {},
  ) {}

  /** The record of another service a reference names, as a place records live in (`lives: { in: 'world' }`). */
  place(scope: WorldScope, name: string, ref: string): { readonly scope: string; readonly where: string } | undefined {
    const find = this.places[name];
    if (!find) throw new Error(`no service provides the world's place ${name}`);
    return find(scope, ref);
  }

  /** Everything that lives in an environment now, every service's. */
  inEnvironment(scope: WorldScope, environmentCrn: string): Dependent[] {
    return this.dependents.flatMap((k) => k.in(scope, environmentCrn));
  }

  /** Stops or starts what lives in an environment with it; returns what followed. */
  follow(scope: WorldScope, environmentCrn: string, change: EnvironmentChange): Dependent[] {
    return this.inEnvironment(scope, environmentCrn).filter((d) => d.follow(change));
  }
}
