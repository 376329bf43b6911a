/**
 * One world across services, made when the emulator starts from the service
 * modules. What services read of each other (world/contracts.ts): each
 * contract is provided by exactly one service (its `provides`; the start
 * fails otherwise), and read bound to the reading request (`in(scope)`: the
 * same store transaction and frozen clock). And what every service's
 * records have to do with the environments they live in (their
 * `dependents`, and every environment-scoped resource of the engine): the
 * environments service reads it to refuse deleting an environment that
 * still holds data lakes, Data Hubs, warehouses, workspaces... (or to remove
 * them, cascading), and to stop and start them with their environment.
 * Records are read settled, so a delete that has ended is gone for every
 * service at once, whether or not its own service has been asked since. The
 * emulator gives the world to every request (RequestContext.world); two
 * emulators in one process each have their own.
 */
import type { Dependent, DependentKind, EnvironmentChange, Provider, Providers, Scope, WorldAccess, WorldPlace } from './engine/context.js';
import { CONTRACTS, type ContractName, type WorldReads } from './world/contracts.js';

export { createdAtOf, runsAtAll, runsOf, spansOf, type ActionSpan, type Run } from './engine/runs.js';
export type { Dependent, DependentKind, EnvironmentChange, Provider, ProviderScope, Providers, Running } from './engine/context.js';

/** A contract that is also a place records of other services live in (`lives: { in: 'world', place }`). */
interface PlaceContract {
  place(ref: string): WorldPlace | undefined;
}

export class World implements WorldAccess {
  static readonly empty = new World([]);

  constructor(
    readonly dependents: readonly DependentKind[],
    private readonly providers: Providers = {},
  ) {}

  /**
   * The world of a set of service modules: their dependents, and the
   * contracts they provide, each by exactly one of them (else an Error that
   * names the contract: the emulator does not start).
   */
  static of(
    dependents: readonly DependentKind[],
    modules: ReadonlyArray<{ readonly service: string; readonly provides?: Providers }>,
  ): World {
    const providers: Record<string, unknown> = {};
    const by: Record<string, string> = {};
    for (const m of modules)
      for (const [name, p] of Object.entries(m.provides ?? {})) {
        if (!(CONTRACTS as readonly string[]).includes(name)) throw new Error(`${m.service} provides ${name}, which is no world contract`);
        if (by[name]) throw new Error(`the world contract ${name} is provided twice: by ${by[name]} and ${m.service}`);
        by[name] = m.service;
        providers[name] = p;
      }
    const missing = CONTRACTS.filter((c) => !by[c]);
    if (missing.length > 0) throw new Error(`no service provides the world contract${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    return new World(dependents, providers as Providers);
  }

  /** The contracts, read in a scope (the reading request's store and frozen clock). */
  in(scope: Scope): WorldReads {
    return new BoundWorld(this, scope);
  }

  /** The provider of a contract, made for a scope. */
  provide<K extends ContractName>(name: K, scope: Scope): WorldReads[K] {
    const p = this.providers[name] as Provider<K> | undefined;
    if (!p) throw new Error(`no service provides the world contract ${name}`);
    return p({ ...scope, world: this });
  }

  /** The record of another service a reference names, as a place records live in (`lives: { in: 'world' }`). */
  place(scope: Scope, name: string, ref: string): WorldPlace | undefined {
    const contract = (this.in(scope) as unknown as Record<string, unknown>)[name] as Partial<PlaceContract> | undefined;
    if (typeof contract?.place !== 'function') throw new Error(`the world contract ${name} is no place records live in`);
    return contract.place(ref);
  }

  /** Everything that lives in an environment now, every service's. */
  inEnvironment(scope: Scope, environmentCrn: string): Dependent[] {
    return this.dependents.flatMap((k) => k.in(scope, environmentCrn));
  }

  /** Stops or starts what lives in an environment with it; returns what followed. */
  follow(scope: Scope, environmentCrn: string, change: EnvironmentChange): Dependent[] {
    return this.inEnvironment(scope, environmentCrn).filter((d) => d.follow(change));
  }
}

/** The contracts bound to one scope: each made by its provider when first read. */
class BoundWorld implements WorldReads {
  private readonly made = new Map<ContractName, unknown>();

  constructor(
    private readonly world: World,
    private readonly scope: Scope,
  ) {}

  private get<K extends ContractName>(name: K): WorldReads[K] {
    let c = this.made.get(name) as WorldReads[K] | undefined;
    if (!c) {
      c = this.world.provide(name, this.scope);
      this.made.set(name, c);
    }
    return c;
  }

  get environments(): WorldReads['environments'] {
    return this.get('environments');
  }

  get identities(): WorldReads['identities'] {
    return this.get('identities');
  }

  get lakes(): WorldReads['lakes'] {
    return this.get('lakes');
  }

  get hubs(): WorldReads['hubs'] {
    return this.get('hubs');
  }

  get clusters(): WorldReads['clusters'] {
    return this.get('clusters');
  }

  get computeClusters(): WorldReads['computeClusters'] {
    return this.get('computeClusters');
  }

  get dataflows(): WorldReads['dataflows'] {
    return this.get('dataflows');
  }
}
