/**
 * The contract between the emulator's server and the service modules not yet
 * on the operation table (engine/table.ts): a module exports handlers keyed
 * by wire operation name, or an engine spec; a handler gets a request
 * already checked against the model and returns the plain response
 * document, synchronously, inside the request's transaction. What every
 * request carries is engine/context.ts.
 */
import type { EngineSpec } from './engine/spec.js';
import type { CallObserver, Handler } from './engine/context.js';
import type { DependentKind, Providers } from './world.js';

export type {
  BackendContext,
  CallObserver,
  Caller,
  Doc,
  EmulatorInfo,
  Handler,
  OperationRef,
  RequestContext,
  Scope,
  ServedCall,
} from './engine/context.js';

export interface ServiceModule {
  /** Wire service name: iam, datalake, cloudprivatelinks, ... */
  readonly service: string;
  /** For a workload service: the workload name its Bearer tokens must be issued for (DF). */
  readonly workloadName?: string;
  /** Operations served by the module's own code. */
  readonly handlers?: Readonly<Record<string, Handler>>;
  /** Resources served by the resource engine (engine/), derived from the model. */
  readonly engine?: EngineSpec;
  /** Kinds of its records that live in environments (world.ts); the engine's environment resources are added to them. */
  readonly dependents?: readonly DependentKind[];
  /** Sees every mutating call of every service (the audit service keeps them as events). */
  readonly observe?: CallObserver;
  /** What it tells the other services (world/contracts.ts): each contract has one provider. */
  readonly provides?: Providers;
  /**
   * Operations that take their file at another address, as the DataFlow
   * catalog's imports do: operation name -> the path the file goes to. The
   * JSON request is checked and answered with a redirect there (carrying a
   * session); the file sent there, signed, runs the handler with that
   * request and the file as its upload.
   */
  readonly redirectedUploads?: Readonly<Record<string, string>>;
}
