/**
 * The names the services not yet on the operation table (engine/table.ts)
 * import for long-running work: timelines (engine/timeline.ts), operation
 * records (engine/operations.ts) and `Resources` (engine/records.ts). Each
 * service's move onto the table drops its imports of this file; the last
 * one deletes it.
 */
export {
  CANCELLED,
  endOf,
  failsOnPurpose,
  progress,
  settle,
  settledIn,
  start,
  stateAt,
  timeline,
  willFail,
  type ActionSpec,
  type Activity,
  type EngineContext,
  type Lifecycle,
  type Progress,
  type StartOptions,
  type Step,
  type Timeline,
} from './engine/timeline.js';
export { Operations, type OperationRecord } from './engine/operations.js';
export { Resources, type BeginOptions, type ResourceKind, type Tracked } from './engine/records.js';
