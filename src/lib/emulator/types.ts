/**
 * The contract between the emulator's server and its service modules. A
 * service module exports handlers keyed by wire operation name; a handler
 * gets a request already checked against the model and returns the plain
 * response document, synchronously, inside the request's transaction.
 */
import type { Clock } from './clock.js';
import type { Paging } from './paging.js';
import type { Store } from './store.js';

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
}

/** What a backend works with: the state, the clock, who calls, where. */
export interface BackendContext {
  readonly store: Store;
  readonly clock: Clock;
  readonly caller: Caller;
  readonly info: EmulatorInfo;
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

export interface ServiceModule {
  /** Wire service name: iam, datalake, cloudprivatelinks, ... */
  readonly service: string;
  /** For a workload service: the workload name its Bearer tokens must be issued for (DF). */
  readonly workloadName?: string;
  readonly handlers: Readonly<Record<string, Handler>>;
}
