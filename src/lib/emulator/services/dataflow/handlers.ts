/** dfworkload operations: unpack the wire request, call the backend, build the wire answer. */
import { notFound } from '../../errors.js';
import { perRequest } from '../../service.js';
import type { Doc, Handler } from '../../types.js';
import { docs, num, str, strings, text } from '../../values.js';
import { DfBackend } from './backend.js';
import { NIFI_VERSIONS } from './catalogue.js';
import type { ConfigKind, ConfigSpec } from './configurations.js';
import { CONFIG_KEYS, UPDATE_KEYS, type DeploymentConfig } from './deployments.js';
import type { VersionChange } from './flows.js';
import { KIND } from './records.js';
import {
  archiveDoc,
  clientCertificates,
  configDoc,
  deployedFlowDoc,
  deploymentConfigDoc,
  deploymentConfigMetadata,
  deploymentDoc,
  deploymentRequestDetails,
  draftMetadata,
  draftSummary,
  flowConfigDoc,
  flowConfigMetadata,
  groupDoc,
  groupSummary,
  importedConfig,
  inboundDoc,
  requestMetadata,
  sessionDoc,
} from './views.js';

/** A handler given the backend and the environment the request is for (its own, or its workload token's). */
type Op = (b: DfBackend, r: Doc, env: string) => Doc;
const withBackend = perRequest((ctx) => new DfBackend(ctx));
const op = (fn: Op): Handler => withBackend((b, req) => fn(b, req, b.environment(str(req.environmentCrn))));

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

const configSpec = (r: Doc): ConfigSpec => ({
  username: text(r.username),
  password: text(r.password),
  storageLocation: text(r.storageLocation),
  configurationVersion: num(r.configurationVersion),
  projectCrn: str(r.projectCrn),
});

/** The handlers of one kind of custom configuration (NAR or Python). */
function configHandlers(kind: ConfigKind, field: string, name: string): Record<string, Handler> {
  return {
    [`createCustom${name}Configuration`]: op((b, r, env) => configDoc(b.configs.create(kind, env, configSpec(r)))),
    [`getCustom${name}Configuration`]: op((b, r, env) =>
      configDoc(b.configs.find(kind, env, { crn: str(r[field]), deploymentCrn: str(r.deploymentCrn) }, field)),
    ),
    [`updateCustom${name}Configuration`]: op((b, r, env) =>
      configDoc(
        b.configs.update(
          kind,
          env,
          str(r.crn),
          { ...configSpec(r), projectCrn: r.projectCrn === undefined ? undefined : (str(r.projectCrn) ?? null) },
          r.configurationVersion,
        ),
      ),
    ),
    [`deleteCustom${name}Configuration`]: op((b, r, env) => configDoc(b.configs.delete(kind, env, text(r[field]), r.configurationVersion))),
    [`validateCustom${name}Configuration`]: op((b, r) => {
      b.configs.validate(configSpec(r));
      return {};
    }),
  };
}

export const handlers: Record<string, Handler> = {
  // ---- deployments
  createDeployment: op((b, r, env) => {
    const { deployment } = b.deployments.create(env, {
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
    return { deployment: deploymentDoc(b, deployment) };
  }),
  updateDeployment: op((b, r, env) => {
    const d = b.deployments.update(env, str(r.deploymentCrn), {
      configurationVersion: r.configurationVersion,
      config: pick(r, UPDATE_KEYS),
      deactivateInbound: r.deactivateInboundConnection === true,
      inboundHostname: str(r.inboundHostname),
      assetUpdateRequestCrn: str(r.assetUpdateRequestCrn),
      parameterGroups: arrayOrUndefined(r.parameterGroups),
    });
    return { deploymentConfiguration: deploymentConfigDoc(b, d) };
  }),
  terminateDeployment: op((b, r, env) => ({ deployment: deploymentDoc(b, b.deployments.terminate(env, str(r.deploymentCrn))) })),
  suspendDeployment: op((b, r, env) => ({ deployment: deploymentDoc(b, b.deployments.suspend(env, str(r.deploymentCrn))) })),
  resumeDeployment: op((b, r, env) => ({ deployment: deploymentDoc(b, b.deployments.resume(env, str(r.deploymentCrn))) })),
  restartDeployment: op((b, r, env) => ({ deployment: deploymentDoc(b, b.deployments.restart(env, str(r.deploymentCrn))) })),
  updateNifiVersion: op((b, r, env) => ({
    deployment: deploymentDoc(b, b.deployments.updateNifiVersion(env, str(r.deploymentCrn), text(r.cfmNifiVersion))),
  })),
  cancelNifiVersionUpdate: op((b, r, env) => ({
    deployment: deploymentDoc(b, b.deployments.cancelNifiVersionUpdate(env, str(r.deploymentCrn))),
  })),
  startAllFlowsInDeployment: op((b, r, env) => ({
    deployment: deploymentDoc(b, b.deployments.moveAllFlows(env, str(r.deploymentCrn), true)),
  })),
  stopAllFlowsInDeployment: op((b, r, env) => ({
    deployment: deploymentDoc(b, b.deployments.moveAllFlows(env, str(r.deploymentCrn), false)),
  })),
  startFlow: op((b, r, env) => {
    const d = b.deployments.get(env, str(r.deploymentCrn));
    b.flows.move(b.deployments.singleFlow(d), d, true);
    return { deployment: deploymentDoc(b, d) };
  }),
  stopFlow: op((b, r, env) => {
    const d = b.deployments.get(env, str(r.deploymentCrn));
    b.flows.move(b.deployments.singleFlow(d), d, false);
    return { deployment: deploymentDoc(b, d) };
  }),
  changeFlowVersion: op((b, r, env) => {
    const d = b.deployments.get(env, str(r.deploymentCrn));
    b.flows.changeVersion(b.deployments.singleFlow(d), d, versionChange(r));
    return { deploymentConfiguration: deploymentConfigDoc(b, d) };
  }),
  cancelChangeFlowVersion: op((b, r, env) => {
    const d = b.deployments.get(env, str(r.deploymentCrn));
    b.flows.cancelChange(b.deployments.singleFlow(d), d);
    return { deploymentConfiguration: deploymentConfigDoc(b, d) };
  }),
  exportDeployment: op((b, r, env) => ({
    archiveName: b.deployments.export(env, str(r.deploymentCrn), str(r.archiveDescription)).archiveName,
  })),
  importDeployment: op((b, r, env) => {
    const a = b.deployments.importArchive(env, str(r.deploymentRequestCrn), 'deployment', str(r.archiveName));
    const flow = str(r.flowName);
    const imported = importedConfig(a, flow);
    if (!imported) throw notFound(`archive ${a.archiveName} has no flow ${String(flow)}`);
    return { rpcImportedDeploymentConfiguration: imported };
  }),
  listDeploymentArchives: op((b, r, env) => ({ archives: b.deployments.archives(env, str(r.searchTerm)).map(archiveDoc) })),
  getDeploymentConfiguration: op((b, r, env) => ({
    deploymentConfiguration: deploymentConfigDoc(b, b.deployments.get(env, str(r.deploymentCrn))),
  })),
  getDeploymentConfigurationMetadata: op((b, r, env) => ({
    deploymentConfigurationMetadata: deploymentConfigMetadata(b, b.deployments.get(env, str(r.deploymentCrn))),
  })),
  getDeploymentRequestDetails: op((b, r, env) => ({
    deploymentConfigurationMetadata: deploymentRequestDetails(b, env, b.requests.get(env, str(r.deploymentRequestCrn), 'deployment', true)),
  })),
  abortDeploymentRequest: op((b, r, env) => {
    b.requests.abort(env, str(r.deploymentRequestCrn), 'deployment');
    return {};
  }),

  // ---- deployed flows
  addFlowToDeployment: op((b, r, env) => {
    const { d, f } = b.flows.add(env, str(r.deploymentCrn), {
      name: text(r.name),
      requestCrn: str(r.deployedFlowRequestCrn),
      parameterGroups: docs(r.parameterGroups),
      kpis: docs(r.kpis),
      configurationVersion: num(r.configurationVersion) ?? 0,
      autoStart: r.autoStartFlow !== false,
      sharedParameterGroupCrn: str(r.useSharedParameterGroupCrn),
      projectCrn: str(r.projectCrn),
    });
    return { deployedFlow: deployedFlowDoc(b, f, d) };
  }),
  importFlowIntoDeployment: op((b, r, env) => {
    const a = b.deployments.importArchive(env, str(r.deployedFlowRequestCrn), 'flow', str(r.archiveName));
    const imported = importedConfig(a, text(r.flowName));
    if (!imported) throw notFound(`archive ${a.archiveName} has no flow ${text(r.flowName)}`);
    return { rpcImportedDeploymentConfiguration: imported };
  }),
  startFlowInDeployment: op((b, r, env) => {
    const { d, f } = b.flows.get(env, str(r.deploymentCrn), str(r.deployedFlowCrn));
    b.flows.move(f, d, true);
    return { deployedFlow: deployedFlowDoc(b, f, d) };
  }),
  stopFlowInDeployment: op((b, r, env) => {
    const { d, f } = b.flows.get(env, str(r.deploymentCrn), str(r.deployedFlowCrn));
    b.flows.move(f, d, false);
    return { deployedFlow: deployedFlowDoc(b, f, d) };
  }),
  terminateFlowInDeployment: op((b, r, env) => {
    const { d, f } = b.flows.get(env, str(r.deploymentCrn), str(r.deployedFlowCrn));
    b.flows.terminate(f, d);
    return { deployedFlow: deployedFlowDoc(b, f, d) };
  }),
  updateFlowInDeployment: op((b, r, env) => {
    const { d, f } = b.flows.get(env, str(r.deploymentCrn), str(r.deployedFlowCrn));
    b.flows.update(f, d, {
      configurationVersion: r.configurationVersion,
      parameterGroups: arrayOrUndefined(r.parameterGroups),
      kpis: arrayOrUndefined(r.kpis),
      assetUpdateRequestCrn: str(r.assetUpdateRequestCrn),
      sharedParameterGroupCrns: strings(r.updateSharedParameterGroupCrns),
    });
    return { deployedFlowConfiguration: flowConfigDoc(b, f, d) };
  }),
  changeFlowVersionInDeployment: op((b, r, env) => {
    const { d, f } = b.flows.get(env, str(r.deploymentCrn), str(r.deployedFlowCrn));
    b.flows.changeVersion(f, d, versionChange(r));
    return { deployedFlowConfiguration: flowConfigDoc(b, f, d) };
  }),
  cancelChangeFlowVersionInDeployment: op((b, r, env) => {
    const { d, f } = b.flows.get(env, str(r.deploymentCrn), str(r.deployedFlowCrn));
    b.flows.cancelChange(f, d);
    return { deployedFlowConfiguration: flowConfigDoc(b, f, d) };
  }),
  getFlowConfigurationInDeployment: op((b, r, env) => {
    const { d, f } = b.flows.get(env, str(r.deploymentCrn), str(r.deployedFlowCrn));
    return { deployedFlowConfiguration: flowConfigDoc(b, f, d) };
  }),
  getFlowConfigurationMetadataInDeployment: op((b, r, env) => {
    const { d, f } = b.flows.get(env, str(r.deploymentCrn), str(r.deployedFlowCrn));
    return { deployedFlowConfigurationMetadata: flowConfigMetadata(b, f, d) };
  }),
  getFlowRequestDetailsInDeployment: op((b, r, env) => ({
    deployedFlowConfigurationMetadata: requestMetadata(b, b.requests.get(env, str(r.deployedFlowRequestCrn), 'flow', true)),
  })),
  abortFlowRequestInDeployment: op((b, r, env) => {
    b.requests.abort(env, str(r.deployedFlowRequestCrn), 'flow');
    return {};
  }),

  // ---- custom configurations
  ...configHandlers(KIND.nar, 'customNarConfigurationCrn', 'Nar'),
  ...configHandlers(KIND.python, 'customPythonConfigurationCrn', 'Python'),
  getDefaultCustomNarConfiguration: op((b, _r, env) => configDoc(b.configs.defaultNar(env))),

  // ---- reporting tasks and assets
  createReportingTask: op((b, r, env) => ({ crn: b.assets.createReportingTask(env, str(r.deploymentCrn), text(r.filePath)).crn })),
  deleteReportingTask: op((b, r, env) => ({ crn: b.assets.deleteReportingTask(env, str(r.deploymentCrn), text(r.reportingTaskCrn)).crn })),
  listReportingTasks: op((b, r, env) => ({
    reportingTasks: b.assets
      .reportingTasks(env, str(r.deploymentCrn))
      .map((t) => ({ crn: t.crn, identifier: t.identifier, name: t.name, type: t.type })),
  })),
  uploadAsset: op((b, r, env) => {
    b.assets.uploadFor(
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
  }),
  createAssetUpdateRequest: op((b, r, env) => ({
    assetUpdateRequestCrn: b.assets.createRequest(env, str(r.deploymentCrn), str(r.deployedFlowCrn)).crn,
  })),
  abortAssetUpdateRequest: op((b, r, env) => {
    b.assets.abortRequest(env, str(r.deploymentCrn), str(r.assetUpdateRequestCrn));
    return {};
  }),

  // ---- parameter groups
  createParameterGroup: op((b, r, env) => ({
    parameterGroup: groupSummary(
      b,
      b.groups.create(env, { name: str(r.name), description: str(r.description), parameters: r.parameters, projectCrn: str(r.projectCrn) }),
    ),
  })),
  describeParameterGroup: op((b, r, env) => ({ parameterGroup: groupDoc(b, b.groups.get(env, str(r.parameterGroupCrn))) })),
  updateParameterGroup: op((b, r, env) => ({
    parameterGroup: groupDoc(
      b,
      b.groups.update(env, str(r.parameterGroupCrn), {
        description: r.description === undefined ? undefined : (str(r.description) ?? null),
        parameters: r.parameters,
      }),
    ),
  })),
  deleteParameterGroup: op((b, r, env) => {
    b.groups.delete(env, str(r.parameterGroupCrn));
    return {};
  }),
  duplicateParameterGroup: op((b, r, env) => ({
    parameterGroup: groupDoc(
      b,
      b.groups.duplicate(
        env,
        str(r.parameterGroupCrn),
        str(r.newParameterGroupName),
        r.description === undefined ? undefined : (str(r.description) ?? null),
      ),
    ),
  })),
  listParameterGroups: op((b, r, env) => ({
    parameterGroups: b.groups.list(env, str(r.searchTerm), strings(r.projectCrns)).map((g) => groupSummary(b, g)),
  })),
  uploadParameterAsset: op((b, r, env) => {
    b.groups.uploadAsset(env, str(r.parameterGroupCrn), str(r.parameterName), str(r.filePath));
    return {};
  }),

  // ---- inbound connection endpoints
  createInboundConnectionEndpoint: op((b, r, env) => ({
    inboundConnectionEndpointSummary: inboundDoc(b, b.inbound.create(env, str(r.hostname), str(r.projectCrn))),
  })),
  describeInboundConnectionEndpoint: op((b, r, env) => ({
    inboundConnectionEndpointSummary: inboundDoc(b, b.inbound.get(env, str(r.crn))),
  })),
  deleteInboundConnectionEndpoint: op((b, r, env) => {
    b.inbound.delete(env, str(r.crn));
    return {};
  }),
  listInboundConnectionEndpoints: op((b, _r, env) => ({ inboundConnectionEndpoints: b.inbound.list(env).map((e) => inboundDoc(b, e)) })),
  renewInboundConnectionEndpointCertificates: op((b, r, env) => {
    b.inbound.renew(env, str(r.crn), {
      server: Boolean(r.renewServerCertificate),
      client: Boolean(r.renewClientCertificates),
      revokeClient: Boolean(r.revokeClientCertificates),
    });
    return {};
  }),
  getClientCertificatesEncoded: op((b, r, env) => clientCertificates(b.inbound.get(env, str(r.crn)))),

  // ---- the rest
  listNifiVersions: op(() => ({ nifiVersions: NIFI_VERSIONS })),
  listFlowDrafts: op((b, _r, env) => ({ flowSummaries: b.drafts.list(env).map((d) => draftSummary(b, d)) })),
  listTestSessions: op((b, _r, env) => ({
    runtimeSessions: b.drafts
      .list(env)
      .filter((d) => {
        const s = b.drafts.sessionState(d);
        return s !== undefined && s.state !== 'TERMINATED';
      })
      .map((d) => draftSummary(b, d)),
  })),
  restartTestSession: op((b, r, env) => ({ runtimeSession: sessionDoc(b, b.drafts.restartSession(env, str(r.flowDraftCrn))) })),
  suspendTestSession: op((b, r, env) => ({ runtimeSession: sessionDoc(b, b.drafts.suspendSession(env, str(r.flowDraftCrn))) })),
  terminateTestSession: op((b, r, env) => ({ runtimeSession: sessionDoc(b, b.drafts.terminateSession(env, str(r.flowDraftCrn))) })),
  deleteFlowDraft: op((b, r, env) => ({ flowMetadata: draftMetadata(b.drafts.delete(env, str(r.flowDraftCrn))) })),
  reassignResources: op((b, r, env) => {
    b.reassign(
      env,
      str(r.destinationProjectCrn),
      docs(r.workloadResourceSummaries).map((it) => ({
        resourceCrn: text(it.resourceCrn),
        projectCrn: it.projectCrn === undefined ? undefined : text(it.projectCrn),
      })),
    );
    return {};
  }),
};
