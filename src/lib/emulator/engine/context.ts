/**
 * What every request of the emulator carries, and what a service's code is
 * handed: the state, the clock, who calls, the account, the operation, and
 * the world (what services read of each other). The server makes one
 * `RequestContext` a request; the engine and every service read it.
 */
import type { Clock } from '../clock.js';
import type { Paging } from '../paging.js';
import type { Store } from '../store.js';
import type { World } from '../world.js';

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
  readonly world: World;
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
