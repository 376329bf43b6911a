/** What the DataFlow workload service stores. States are `STATE/DETAILED_STATE` pairs on lifecycles (see split). */
import type { resources } from '../../../model/services/dataflow/resources.js';
import type { Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import type { Doc } from '../../types.js';

/** The resources of the service's facts (model/services/dataflow/resources.ts). */
export type R = keyof typeof resources.resources;

/**
 * What every engine resource of the workload is: of an environment (named by
 * `environmentCrn`), and a part of it, not one of its dependents (it neither
 * holds up its delete nor follows its stop and start).
 */
export const inEnvironment = (noun: string, keys: readonly string[]): Pick<Resource<R>, 'noun' | 'keys' | 'lives' | 'withEnvironment'> => ({
  noun,
  keys,
  lives: { in: 'environment', by: ['environmentCrn'] },
  withEnvironment: 'part',
});

export const KIND = {
  request: 'dfworkload.request',
  asset: 'dfworkload.asset',
} as const;

/** What a deployment keeps (its record's document): the status is its lifecycle's, `STATE/DETAILED_STATE`. */
export interface DeploymentDoc {
  environmentCrn: string;
  projectCrn?: string;
  creatorCrn: string;
  deployedBy: string;
  deploymentRequestCrn: string;
  created: number;
  updated: number;
  configurationVersion: number;
  config: Doc;
  cfmNifiVersion: string;
  inboundEndpointCrn?: string;
}

/** A deployment: an engine record of the `deployment` resource (in its environment). */
export interface Deployment extends EngineRecord {
  name: string;
  crn: string;
  doc: DeploymentDoc & Doc;
}

/** What a deployed flow keeps (its record's document). */
export interface FlowDoc {
  deploymentCrn: string;
  environmentCrn: string;
  projectCrn?: string;
  creatorCrn: string;
  deployedBy: string;
  created: number;
  updated: number;
  configurationVersion: number;
  parameterGroups: Doc[];
  kpis: Doc[];
  flowName: string;
  flowCrn: string;
  flowVersion: number;
  previousFlowVersion?: number;
  sharedParameterGroupCrn?: string;
  /** Terminated with its deployment. */
  withDeployment?: true;
}

/** A deployed flow: an engine record of the `deployedFlow` resource (in its deployment). */
export interface DeployedFlow extends EngineRecord {
  name: string;
  crn: string;
  doc: FlowDoc & Doc;
}

export interface FlowRequest {
  crn: string;
  kind: 'deployment' | 'flow';
  environmentCrn: string;
  status: 'OPEN' | 'USED' | 'ABORTED';
  flowName: string;
  flowVersion: number;
  /**
   * The catalog's flow definition it deploys, as the control plane named it
   * (`...:flow:<name>`, or `...:readyFlow:<slug>` for an added ReadyFlow);
   * absent for a request this service only knows by its CRN: `flow:<flowName>`.
   */
  flowCrn?: string;
  archive?: string;
}

/** The artifact type of a flow definition, as its CRN's resource type says: `flow` or `readyFlow`. */
export const artifactTypeOf = (flowCrn: string): string => (flowCrn.split(':')[5] === 'readyFlow' ? 'readyFlow' : 'flow');

export interface Asset {
  id: string;
  environmentCrn: string;
  owner: string;
  parameterGroup: string;
  parameterName: string;
  name: string;
  path: string;
  size: number;
  storedAt: string;
  deployedFlowName?: string;
  created: number;
}

/** A `STATE/DETAILED_STATE` lifecycle state as the wire has it. */
export interface Status {
  readonly state: string;
  readonly detailedState: string;
}

export function split(step: string): Status {
  const [state = 'UNKNOWN', detailedState = 'UNKNOWN'] = step.split('/');
  return { state, detailedState };
}

export const HEALTHY = new Set(['GOOD_HEALTH', 'CONCERNING_HEALTH']);
export const STEADY_DEPLOYMENT = new Set(['GOOD_HEALTH', 'CONCERNING_HEALTH', 'BAD_HEALTH']);
export const STEADY_FLOW = new Set(['GOOD_HEALTH', 'CONCERNING_HEALTH', 'BAD_HEALTH', 'FLOW_STOPPED']);
