/**
 * What every request of the emulator carries, and what a service's code is
 * handed: the state, the clock, who calls, the account, the operation, and
 * the world (what services read of each other). The server makes one
 * `RequestContext` a request; the engine and every service read it.
 */
import type { Clock } from '../clock.js';
import type { Paging } from './paging.js';
import type { Store } from '../store.js';
import type { ContractName, WorldReads } from '../world/contracts.js';
import type { Run } from './runs.js';

export type Doc = Record<string, unknown>;

/** Who signed the request. */
export interface Caller {
  readonly accountId: string;
  /** CRN of the user or machine user. */
  readonly actorCrn: string;
  readonly accessKeyId?: string;
  readonly kind: 'user' | 'machineUser';
  /** For a workload (Bearer) request: what the token was issued for. */
  readonly workload?: { readonly name: string; readonly environmentCrn?: string };
}

export interface EmulatorInfo {
  readonly accountId: string;
  readonly region: string;
  /** http://localhost:PORT */
  readonly baseUrl: string;
  /** The emulator's data directory: uploaded files live under it (uploads.ts), also when the state is kept in memory; none: no stored file can be read back. */
  readonly dataDir?: string;
}

/** What a service's code works with: the state, the clock, who calls, where, and what every service's records have to do with each other. */
export interface BackendContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly caller: Caller;
  readonly info: EmulatorInfo;
  readonly world: WorldAccess;
  /** The raw body of an upload (octet-stream operations), already on disk. */
  readonly upload?: { readonly path: string; readonly size: number; readonly headers: Readonly<Record<string, string>> };
}

/** The operation a request is for, as the model describes it. */
export interface OperationRef {
  /** Wire service name. */
  readonly service: string;
  /** Wire operation name. */
  readonly name: string;
  /** How it pages, for paged listings (paging.ts). */
  readonly paging?: Paging;
}

export interface RequestContext extends BackendContext {
  readonly op: OperationRef;
}

export type Handler = (request: Doc, ctx: RequestContext) => Doc;

/** A mutating call as the emulator served or refused it (the audit trail's event). */
export interface ServedCall {
  /** Wire service and operation names. */
  readonly service: string;
  readonly operation: string;
  readonly requestId: string;
  readonly caller: Caller;
  /** The request, without the fields the model marks secret. */
  readonly request: Doc;
  /** `SUCCESS`, or the error code and message it was refused with. */
  readonly result: { readonly code: string; readonly message?: string };
  /** Emulated time. */
  readonly at: number;
  readonly sourceIp?: string;
  readonly userAgent?: string;
}

/** Sees each mutating call: a served one inside its transaction, a refused one in a transaction of its own. */
export type CallObserver = (call: ServedCall, scope: Scope) => void;

/** The state, the clock and the account, without a caller: what the world and a call observer read. */
export type Scope = Pick<BackendContext, 'store' | 'clock' | 'info'>;

// ---- the world: what services read of each other (world/world.ts holds it) ----------------

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
  in(scope: Scope, environmentCrn: string): Dependent[];
}

/** A place records can live in that is a record of another service (a data lake or Data Hub by CRN): its CRN as their scope, its words in messages. */
export interface WorldPlace {
  readonly scope: string;
  readonly where: string;
}

/**
 * The world as a request has it (world/world.ts): the contracts of
 * world/contracts.ts bound to a scope, what lives in each environment (its
 * delete, stop and start), and the places other services' records give.
 */
export interface WorldAccess {
  /** The contracts, read in this scope (the reading request's store and frozen clock). */
  in(scope: Scope): WorldReads;
  /** Everything that lives in an environment now, every service's. */
  inEnvironment(scope: Scope, environmentCrn: string): Dependent[];
  /** Stops or starts what lives in an environment with it; returns what followed. */
  follow(scope: Scope, environmentCrn: string, change: EnvironmentChange): Dependent[];
  /** The record of another service a reference names, as a place records live in. */
  place(scope: Scope, name: string, ref: string): WorldPlace | undefined;
}

/** What a provider of a contract reads in: the reading request's scope (its caller and operation when it has them), and the world. */
export type ProviderScope = Scope & Partial<Pick<RequestContext, 'caller' | 'op'>> & { readonly world: WorldAccess };

/** A service's implementation of a contract, for one reading request. */
export type Provider<K extends ContractName> = (scope: ProviderScope) => WorldReads[K];

/** The contracts a service provides. */
export type Providers = { readonly [K in ContractName]?: Provider<K> };
