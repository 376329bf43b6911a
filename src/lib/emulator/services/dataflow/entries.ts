/** dfworkload's code entries (index.ts's table): unpack the wire request, call the workload's parts, build the wire answer. */
import type { OperationName } from '../../../model/services/dataflow/wire.js';
import type { Doc } from '../../types.js';
import { docs, num, str, strings, text } from '../../values.js';
import { Workload } from './workload.js';
import type { R } from './records.js';
import type { Hook } from '../../engine/declare.js';
import { code, type CodeEntry } from '../../engine/table.js';
import * as configs from './configurations.js';
import * as flows from './flows.js';
import type { VersionChange } from './flows.js';
import { CONFIG_KEYS, UPDATE_KEYS, type DeploymentConfig } from './deployments.js';
import { deployedFlowDoc, deploymentConfigDoc, deploymentDoc, deploymentRequestDetails, flowConfigDoc, requestMetadata } from './views.js';
import { getDeployment, getFlow } from './deployed.js';
import { importFrom } from './archives.js';
import * as requests from './requests.js';
import * as deployments from './deployments.js';
import * as assetRequests from './asset-requests.js';

/** The work of one operation: given the request's workload, the request, and the environment it is for (its own, or its workload token's). */
export type Call = (w: Workload, r: Doc, env: string) => Doc;

const pick = (r: Doc, keys: readonly string[]): DeploymentConfig =>
  Object.fromEntries(keys.filter((k) => r[k] !== undefined).map((k) => [k, r[k]])) as DeploymentConfig;

const arrayOrUndefined = (v: unknown): Doc[] | undefined => (Array.isArray(v) ? (v as Doc[]) : undefined);

/** A flow version change a request asks for. */
const versionChange = (r: Doc): VersionChange => ({
  deploymentRequestCrn: str(r.deploymentRequestCrn),
  parameterGroups: arrayOrUndefined(r.parameterGroups),
  kpis: arrayOrUndefined(r.kpis),
  assetUpdateRequestCrn: str(r.assetUpdateRequestCrn),
});

/** Checks a configuration's settings without keeping them. */
const validateConfig = (r: Doc): Doc => {
  configs.checkLocation(r);
  return {};
};

export const calls = {
  // ---- deployments
  createDeployment: (w, r, env) => {
    const { deployment } = deployments.create(w, env, {
      name: text(r.name),
      projectCrn: str(r.projectCrn),
      requestCrn: str(r.deploymentRequestCrn),
      configurationVersion: num(r.configurationVersion),
      nifiVersion: typeof r.cfmNifiVersion === 'string' ? r.cfmNifiVersion : undefined,
      config: pick(r, CONFIG_KEYS),
      flowName: str(r.deployedFlowName),
      parameterGroups: docs(r.parameterGroups),
      kpis: docs(r.kpis),
      sharedParameterGroupCrn: str(r.useSharedParameterGroupCrn),
      autoStartFlow: r.autoStartFlow !== false,
    });
    return { deployment: deploymentDoc(w, deployment) };
  },
  updateDeployment: (w, r, env) => {
    const d = deployments.update(w, env, str(r.deploymentCrn), {
      configurationVersion: r.configurationVersion,
      config: pick(r, UPDATE_KEYS),
      deactivateInbound: r.deactivateInboundConnection === true,
      inboundHostname: str(r.inboundHostname),
      assetUpdateRequestCrn: str(r.assetUpdateRequestCrn),
      parameterGroups: arrayOrUndefined(r.parameterGroups),
    });
    return { deploymentConfiguration: deploymentConfigDoc(w, d) };
  },
  terminateDeployment: (w, r, env) => ({ deployment: deploymentDoc(w, deployments.terminate(w, env, str(r.deploymentCrn))) }),
  startAllFlowsInDeployment: (w, r, env) => ({
    deployment: deploymentDoc(w, deployments.moveAllFlows(w, env, str(r.deploymentCrn), true)),
  }),
  stopAllFlowsInDeployment: (w, r, env) => ({
    deployment: deploymentDoc(w, deployments.moveAllFlows(w, env, str(r.deploymentCrn), false)),
  }),
  startFlow: (w, r, env) => {
    const d = getDeployment(w, env, str(r.deploymentCrn));
    flows.move(w, deployments.singleFlow(w, d), d, true);
    return { deployment: deploymentDoc(w, d) };
  },
  stopFlow: (w, r, env) => {
    const d = getDeployment(w, env, str(r.deploymentCrn));
    flows.move(w, deployments.singleFlow(w, d), d, false);
    return { deployment: deploymentDoc(w, d) };
  },
  changeFlowVersion: (w, r, env) => {
    const d = getDeployment(w, env, str(r.deploymentCrn));
    flows.changeVersion(w, deployments.singleFlow(w, d), d, versionChange(r));
    return { deploymentConfiguration: deploymentConfigDoc(w, d) };
  },
  cancelChangeFlowVersion: (w, r, env) => {
    const d = getDeployment(w, env, str(r.deploymentCrn));
    flows.cancelChange(w, deployments.singleFlow(w, d), d);
    return { deploymentConfiguration: deploymentConfigDoc(w, d) };
  },
  importDeployment: (w, r, env) => importFrom(w, env, str(r.deploymentRequestCrn), 'deployment', r),
  getDeploymentRequestDetails: (w, r, env) => ({
    deploymentConfigurationMetadata: deploymentRequestDetails(
      w,
      env,
      requests.get(w, env, str(r.deploymentRequestCrn), 'deployment', true),
    ),
  }),
  abortDeploymentRequest: (w, r, env) => {
    requests.abort(w, env, str(r.deploymentRequestCrn), 'deployment');
    return {};
  },

  // ---- deployed flows
  addFlowToDeployment: (w, r, env) => {
    const { d, f } = flows.add(w, env, str(r.deploymentCrn), {
      name: text(r.name),
      requestCrn: str(r.deployedFlowRequestCrn),
      parameterGroups: docs(r.parameterGroups),
      kpis: docs(r.kpis),
      configurationVersion: num(r.configurationVersion) ?? 0,
      autoStart: r.autoStartFlow !== false,
      sharedParameterGroupCrn: str(r.useSharedParameterGroupCrn),
      projectCrn: str(r.projectCrn),
    });
    return { deployedFlow: deployedFlowDoc(w, f, d) };
  },
  importFlowIntoDeployment: (w, r, env) => importFrom(w, env, str(r.deployedFlowRequestCrn), 'flow', r),
  updateFlowInDeployment: (w, r, env) => {
    const { d, f } = getFlow(w, env, str(r.deploymentCrn), str(r.deployedFlowCrn));
    flows.update(w, f, d, {
      configurationVersion: r.configurationVersion,
      parameterGroups: arrayOrUndefined(r.parameterGroups),
      kpis: arrayOrUndefined(r.kpis),
      assetUpdateRequestCrn: str(r.assetUpdateRequestCrn),
      sharedParameterGroupCrns: strings(r.updateSharedParameterGroupCrns),
    });
    return { deployedFlowConfiguration: flowConfigDoc(w, f, d) };
  },
  changeFlowVersionInDeployment: (w, r, env) => {
    const { d, f } = getFlow(w, env, str(r.deploymentCrn), str(r.deployedFlowCrn));
    flows.changeVersion(w, f, d, versionChange(r));
    return { deployedFlowConfiguration: flowConfigDoc(w, f, d) };
  },
  cancelChangeFlowVersionInDeployment: (w, r, env) => {
    const { d, f } = getFlow(w, env, str(r.deploymentCrn), str(r.deployedFlowCrn));
    flows.cancelChange(w, f, d);
    return { deployedFlowConfiguration: flowConfigDoc(w, f, d) };
  },
  getFlowRequestDetailsInDeployment: (w, r, env) => ({
    deployedFlowConfigurationMetadata: requestMetadata(w, requests.get(w, env, str(r.deployedFlowRequestCrn), 'flow', true)),
  }),
  abortFlowRequestInDeployment: (w, r, env) => {
    requests.abort(w, env, str(r.deployedFlowRequestCrn), 'flow');
    return {};
  },

  // ---- custom configurations
  validateCustomNarConfiguration: (_w, r) => validateConfig(r),
  validateCustomPythonConfiguration: (_w, r) => validateConfig(r),

  // ---- assets
  uploadAsset: (w, r, env) => {
    assetRequests.uploadFor(
      w,
      env,
      { assetUpdateRequestCrn: str(r.assetUpdateRequestCrn), deploymentRequestCrn: str(r.deploymentRequestCrn) },
      {
        parameterGroup: text(r.parameterGroup),
        parameterName: text(r.parameterName),
        filePath: text(r.filePath),
        deployedFlowName: str(r.deployedFlowName),
      },
    );
    return {};
  },
  abortAssetUpdateRequest: (w, r, env) => {
    assetRequests.abortRequest(w, env, str(r.deploymentCrn), str(r.assetUpdateRequestCrn));
    return {};
  },

  // ---- inbound connection endpoints

  // ---- the rest
  reassignResources: (w, r, env) => {
    w.reassign(
      env,
      str(r.destinationProjectCrn),
      docs(r.workloadResourceSummaries).map((it) => ({
        resourceCrn: text(it.resourceCrn),
        projectCrn: it.projectCrn === undefined ? undefined : text(it.projectCrn),
      })),
    );
    return {};
  },
} satisfies Partial<Record<OperationName, Call>>;

/**
 * The table's code entries (index.ts): each call over the request's
 * workload and the environment it is for, named after its operation for the
 * coverage table.
 */
export const codeEntries = Object.fromEntries(
  Object.entries(calls).map(([op, call]: [string, Call]) => {
    const run = (h: Hook<R>, req: Doc): Doc => {
      const w = new Workload(h);
      return call(w, req, w.environment(str(req.environmentCrn)));
    };
    return [op, code(Object.defineProperty(run, 'name', { value: op }))];
  }),
) as { readonly [op in keyof typeof calls]: CodeEntry<R> };
