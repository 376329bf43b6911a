/**
 * What services and the server share of the engine's request types, under
 * the names the services import them by (engine/context.ts is their home).
 */

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
