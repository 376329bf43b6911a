/**
 * What `cdp df` does on the client, learnt from the official CLI's DataFlow
 * extension and its requests on the wire, in our own code:
 *
 * - `deployments create` (cdp df create-deployment): df initiateDeployment;
 *   df listDeployableServicesForNewDeployments for the service's environment;
 *   the workload token; dfworkload getDeploymentRequestDetails (registers the
 *   request); uploadAsset for each local file of the parameters; with
 *   --from-archive or --import-parameters-from, importDeployment; custom NAR
 *   and Python configurations (a NAR configuration that exists, 409, is the
 *   default one updated); then dfworkload createDeployment. A failure after
 *   the request was started aborts it and deletes the configurations created.
 * - `deployed-flows add` (add-flow-to-deployment): df describeDeployment,
 *   initiateFlowInDeployment, then the same on the flow request
 *   (getFlowRequestDetailsInDeployment, uploads, importFlowIntoDeployment,
 *   addFlowToDeployment; abortFlowRequestInDeployment on failure).
 * - the flow version changes and their retries: initiate (not for retries),
 *   the environment, getDeploymentRequestDetails, new files under an asset
 *   update request, then dfworkload changeFlowVersion or
 *   changeFlowVersionInDeployment.
 * - `flows import` and `flow-versions import`: the request is sent to the
 *   control plane, which answers with a redirect; the file is then streamed,
 *   signed, to that URL with the fields as URI-encoded headers.
 * - `flow-versions get`: the base64 flow definition is decoded and printed.
 *
 * Requests carry their fields in the order cdp builds them. Local files are
 * checked before anything is sent (cdp finds a missing file only after it
 * started the deployment request).
 */
import type { OperationClient, Doc } from '../core/client.js';
import { CdpError, usageError, cdpError } from '../core/errors.js';
import { expandPath, localFile, openUpload } from '../core/files.js';
import { validateRequest } from '../core/validate.js';
import { loadService } from '../model/index.js';
import { labelKpiUnits } from '../model/services/dataflow/kpis.js';
import type { Customization, CustomizationContext } from './index.js';

/** cdp refuses a larger asset. */
const MAX_ASSET_BYTES = 150 * 1024 * 1024;
const INITIAL_CONFIGURATION_VERSION = 0;
const INITIAL_ASSET_VERSION = '0';

const isObj = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Doc[] => (Array.isArray(v) ? v.filter(isObj) : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** Present, as Python's `is not None`. */
const given = (v: unknown): boolean => v !== undefined && v !== null;
/** Truthy, as Python's `if v:` (an empty list, object or string is not). */
const truthy = (v: unknown): boolean => (Array.isArray(v) ? v.length > 0 : isObj(v) ? Object.keys(v).length > 0 : Boolean(v));

/** One call of a step, checked against the model first as cdp checks each of its calls. */
async function send(client: OperationClient, service: string, operation: string, request: Doc): Promise<Doc> {
  const op = (await loadService(service)).operation(operation);
  const [first, ...rest] = validateRequest(op.service.shapes, op.input, request, op.cli.rules);
  if (first)
    throw usageError(
      `${service} ${operation}: ${first.message}`,
      rest.map((i) => i.message),
    );
  return client.call(op, request);
}

const df = (client: OperationClient, operation: string, request: Doc): Promise<Doc> => send(client, 'df', operation, request);
const workload = (client: OperationClient, operation: string, request: Doc): Promise<Doc> => send(client, 'dfworkload', operation, request);

/** A value the service must have answered with. */
function answered(doc: Doc, path: string, what: string): string {
  let v: unknown = doc;
  for (const k of path.split('.')) v = isObj(v) ? v[k] : undefined;
  const s = str(v);
  if (!s) throw cdpError({ kind: 'service', code: 'BAD_RESPONSE', message: `the answer has no ${what} (${path})` });
  return s;
}

/** Best effort, as cdp does its clean-ups: a failure is reported, never thrown over the error being handled. */
async function tidy(ctx: CustomizationContext, what: string, step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (err) {
    ctx.warn(`could not ${what}: ${(err as Error).message}`);
  }
}

/** cdp cleans up after errors of the service and its own, not after network trouble. */
const cleansUp = (err: unknown): boolean => err instanceof CdpError && (err.kind === 'service' || err.kind === 'usage');

/** The environment of a service, from the services the caller may deploy to. */
async function environmentOf(client: OperationClient, serviceCrn: unknown): Promise<string> {
  const res = await df(client, 'listDeployableServicesForNewDeployments', {});
  const hit = list(res.services).find((s) => s.crn === serviceCrn);
  const env = hit ? str(hit.environmentCrn) : undefined;
  if (!env)
    throw cdpError({
      kind: 'service',
      code: 'NOT_FOUND',
      message: `service ${String(serviceCrn)} is not among the services you may deploy to (see \`df services deployable\`)`,
      service: 'df',
      operation: 'listDeployableServicesForNewDeployments',
    });
  return env;
}

/** Python's os.path.split: the directory (without trailing slashes, unless it is the root) and the name. */
function splitPath(path: string): [string, string] {
  const i = path.lastIndexOf('/') + 1;
  const head = path.slice(0, i);
  return [/^\/+$/.test(head) ? head : head.replace(/\/+$/, ''), path.slice(i)];
}

async function uploadAsset(client: OperationClient, request: Doc): Promise<void> {
  const op = (await loadService('dfworkload')).operation('uploadAsset');
  await client.call(op, request, openUpload(op, request));
}

// ---- new deployments and flows: asset references are local paths --------------------------

interface NewAsset {
  readonly group: string;
  readonly parameter: Doc;
  readonly paths: string[];
}

/** Parameters whose assetReferences name local files (a new deployment or flow); each file checked now. */
function newAssets(request: Doc): NewAsset[] {
  const out: NewAsset[] = [];
  for (const g of list(request.parameterGroups))
    for (const p of list(g.parameters)) {
      const refs = Array.isArray(p.assetReferences) ? p.assetReferences.map(String) : [];
      if (refs.length === 0) continue;
      for (const path of refs) {
        const file = localFile(path, `--parameter-groups (parameter ${String(p.name)} of ${String(g.name)})`);
        if (file.size > MAX_ASSET_BYTES) throw usageError(`--parameter-groups: ${path} is larger than the 150 MB an asset may be`);
      }
      out.push({ group: String(g.name ?? ''), parameter: p, paths: refs });
    }
  return out;
}

/** Uploads each file under the deployment (or flow) request and rewrites the references as the request expects them. */
async function uploadNewAssets(client: OperationClient, assets: readonly NewAsset[], fields: Doc): Promise<void> {
  for (const a of assets) {
    const refs: Doc[] = [];
    for (const path of a.paths) {
      const request: Doc = {
        deploymentName: fields.deploymentName,
        deploymentRequestCrn: fields.deploymentRequestCrn,
        parameterGroup: a.group,
        parameterName: a.parameter.name,
        filePath: path,
        ...(fields.deployedFlowName ? { deployedFlowName: fields.deployedFlowName } : {}),
        environmentCrn: fields.environmentCrn,
      };
      await uploadAsset(client, request);
      const [dir, name] = splitPath(expandPath(path));
      refs.push({ name, path: dir, version: INITIAL_ASSET_VERSION });
    }
    a.parameter.assetReferences = refs;
  }
}

/** Imported KPIs keep no ids (cdp's check that they are a list). */
function importedKpis(imported: Doc): Doc[] | undefined {
  const kpis = imported.kpis;
  if (!given(kpis)) return undefined;
  if (!Array.isArray(kpis)) throw cdpError({ kind: 'service', code: 'BAD_RESPONSE', message: 'the KPIs of the archive are not a list' });
  return kpis.filter(isObj).map(({ id: _id, ...rest }) => rest);
}

/** Auto-scaling settings from `from` (the request or an imported configuration); a static node count only without it. */
function scaling(config: Doc, from: Doc): void {
  if (given(from.autoScalingEnabled)) config.autoScalingEnabled = from.autoScalingEnabled;
  if (!from.autoScalingEnabled) return;
  delete config.staticNodeCount;
  if (given(from.flowMetricsScalingEnabled)) config.flowMetricsScalingEnabled = from.flowMetricsScalingEnabled;
  if (from.autoScaleMinNodes) config.autoScaleMinNodes = from.autoScaleMinNodes;
  if (from.autoScaleMaxNodes) config.autoScaleMaxNodes = from.autoScaleMaxNodes;
}

/** The dfworkload createDeployment request from the command's flags. */
function deploymentFromFlags(request: Doc, requestCrn: string): Doc {
  const config: Doc = {
    name: request.deploymentName,
    deploymentRequestCrn: requestCrn,
    configurationVersion: INITIAL_CONFIGURATION_VERSION,
    staticNodeCount: request.staticNodeCount ?? 1,
  };
  if (given(request.flowName)) config.deployedFlowName = request.flowName;
  config.clusterSize = given(request.clusterSize) ? request.clusterSize : { name: 'EXTRA_SMALL' };
  for (const k of ['nodeStorageProfileName', 'nodeStorage', 'projectCrn'] as const) if (given(request[k])) config[k] = request[k];
  if (given(request.inboundHostname)) {
    config.inboundHostname = request.inboundHostname;
    config.listenComponents = request.listenComponents ?? null;
    config.inboundConnectionAuthorizedIpRanges = request.inboundConnectionAuthorizedIpRanges ?? null;
  }
  if (given(request.ignoreDeploymentInboundConfigurationChecks))
    config.ignoreDeploymentInboundConfigurationChecks = request.ignoreDeploymentInboundConfigurationChecks;
  scaling(config, request);
  if (given(request.autoStartFlow)) config.autoStartFlow = request.autoStartFlow;
  if (request.cfmNifiVersion) config.cfmNifiVersion = request.cfmNifiVersion;
  if (truthy(request.parameterGroups)) config.parameterGroups = request.parameterGroups;
  if (truthy(request.kpis)) {
    labelKpiUnits(request);
    config.kpis = request.kpis;
  }
  return config;
}

/** The dfworkload createDeployment request from an imported archive, with what the command adds. */
function deploymentFromArchive(request: Doc, requestCrn: string, imported: Doc): Doc {
  const config: Doc = {
    name: request.deploymentName,
    deploymentRequestCrn: requestCrn,
    configurationVersion: INITIAL_CONFIGURATION_VERSION,
  };
  if (given(request.flowName)) config.deployedFlowName = request.flowName;
  const kept: ReadonlyArray<readonly [string, string]> = [
    ['clusterSize', 'clusterSize'],
    ['staticNodeCount', 'staticNodeCount'],
    ['cfmNifiVersion', 'cfmNifiVersion'],
    ['customNarConfigurationCrn', 'customNarConfigurationCrn'],
    ['customPythonConfigurationCrn', 'customPythonConfigurationCrn'],
    ['nodeStorageProfile', 'nodeStorageProfileName'],
    ['nodeStorage', 'nodeStorage'],
    ['projectCrn', 'projectCrn'],
  ];
  for (const [from, to] of kept) if (given(imported[from])) config[to] = imported[from];
  if (given(request.autoStartFlow)) config.autoStartFlow = request.autoStartFlow;
  scaling(config, imported);
  if (given(imported.inboundHostName)) {
    config.inboundHostname = imported.inboundHostName;
    config.listenComponents = imported.listenComponents ?? null;
    config.inboundConnectionAuthorizedIpRanges = imported.inboundConnectionAuthorizedIpRanges ?? null;
  }
  if (given(request.ignoreDeploymentInboundConfigurationChecks))
    config.ignoreDeploymentInboundConfigurationChecks = request.ignoreDeploymentInboundConfigurationChecks;
  const kpis = importedKpis(imported);
  if (kpis) config.kpis = kpis;
  if (truthy(request.parameterGroups)) config.parameterGroups = request.parameterGroups;
  return config;
}

/** Creates the custom NAR configuration; one that exists (409) is the environment's default, updated. */
async function narConfiguration(client: OperationClient, given: Doc, environmentCrn: string): Promise<Doc> {
  const request: Doc = { ...given, environmentCrn };
  try {
    return await workload(client, 'createCustomNarConfiguration', request);
  } catch (err) {
    if (!(err instanceof CdpError) || err.status !== 409) throw err;
  }
  const current = await workload(client, 'getDefaultCustomNarConfiguration', { environmentCrn });
  request.crn = current.crn ?? null;
  request.configurationVersion = current.configurationVersion ?? null;
  return workload(client, 'updateCustomNarConfiguration', request);
}

async function importArchive(
  client: OperationClient,
  operation: string,
  requestField: Doc,
  archiveName: unknown,
  flowName: unknown,
  environmentCrn: string,
): Promise<Doc> {
  const res = await workload(client, operation, { ...requestField, archiveName, environmentCrn, ...(flowName ? { flowName } : {}) });
  return isObj(res.rpcImportedDeploymentConfiguration) ? res.rpcImportedDeploymentConfiguration : {};
}

export const createDeployment: Customization = {
  async run(ctx) {
    const { client, request } = ctx;
    const assets = newAssets(request);
    const initiated = await df(client, 'initiateDeployment', { serviceCrn: request.serviceCrn, flowVersionCrn: request.flowVersionCrn });
    const requestCrn = answered(initiated, 'deploymentRequestCrn', 'deployment request');
    const environmentCrn = await environmentOf(client, request.serviceCrn);
    const abort = (): Promise<void> =>
      tidy(ctx, `abort deployment request ${requestCrn}`, () =>
        workload(client, 'abortDeploymentRequest', { deploymentRequestCrn: requestCrn, environmentCrn }),
      );
    await workload(client, 'getDeploymentRequestDetails', { deploymentRequestCrn: requestCrn, environmentCrn });
    try {
      await uploadNewAssets(client, assets, {
        deploymentName: request.deploymentName,
        deploymentRequestCrn: requestCrn,
        deployedFlowName: request.flowName,
        environmentCrn,
      });
    } catch (err) {
      if (cleansUp(err)) await abort();
      throw err;
    }
    let nar: Doc | undefined;
    let python: Doc | undefined;
    try {
      let config: Doc;
      if (given(request.fromArchive)) {
        const imported = await importArchive(
          client,
          'importDeployment',
          { deploymentRequestCrn: requestCrn },
          request.fromArchive,
          request.importArchiveFlowName,
          environmentCrn,
        );
        config = deploymentFromArchive(request, requestCrn, imported);
      } else {
        if (given(request.importParametersFrom))
          await importArchive(
            client,
            'importDeployment',
            { deploymentRequestCrn: requestCrn },
            request.importParametersFrom,
            request.importArchiveFlowName,
            environmentCrn,
          );
        config = deploymentFromFlags(request, requestCrn);
        if (isObj(request.customNarConfiguration)) {
          nar = await narConfiguration(client, request.customNarConfiguration, environmentCrn);
          config.customNarConfigurationCrn = nar.crn ?? null;
        }
        if (isObj(request.customPythonConfiguration)) {
          python = await workload(client, 'createCustomPythonConfiguration', { ...request.customPythonConfiguration, environmentCrn });
          config.customPythonConfigurationCrn = python.crn ?? null;
        }
      }
      config.environmentCrn = environmentCrn;
      const created = await workload(client, 'createDeployment', config);
      return { deploymentCrn: isObj(created.deployment) ? (created.deployment.crn ?? null) : null };
    } catch (err) {
      if (cleansUp(err)) {
        await abort();
        const drop = (kind: 'Nar' | 'Python', made: Doc): Promise<void> =>
          tidy(ctx, `delete the custom ${kind === 'Nar' ? 'NAR' : 'Python'} configuration ${String(made.crn)}`, () =>
            workload(client, `deleteCustom${kind}Configuration`, {
              [`custom${kind}ConfigurationCrn`]: made.crn,
              configurationVersion: made.configurationVersion,
              environmentCrn,
            }),
          );
        if (nar) await drop('Nar', nar);
        if (python) await drop('Python', python);
      }
      throw err;
    }
  },
};

export const addFlowToDeployment: Customization = {
  async run(ctx) {
    const { client, request } = ctx;
    const assets = newAssets(request);
    const described = await df(client, 'describeDeployment', { deploymentCrn: request.deploymentCrn });
    const deployment = isObj(described.deployment) ? described.deployment : {};
    const service = isObj(deployment.service) ? deployment.service : {};
    const environmentCrn = answered(service, 'environmentCrn', 'environment of the deployment');
    const initiated = await df(client, 'initiateFlowInDeployment', {
      serviceCrn: service.crn,
      deploymentCrn: request.deploymentCrn,
      flowVersionCrn: request.flowVersionCrn,
    });
    const requestCrn = answered(initiated, 'deployedFlowRequestCrn', 'flow request');
    const abort = (): Promise<void> =>
      tidy(ctx, `abort flow request ${requestCrn}`, () =>
        workload(client, 'abortFlowRequestInDeployment', { deployedFlowRequestCrn: requestCrn, environmentCrn }),
      );
    await workload(client, 'getFlowRequestDetailsInDeployment', { deployedFlowRequestCrn: requestCrn, environmentCrn });
    try {
      await uploadNewAssets(client, assets, {
        deploymentName: deployment.name,
        deploymentRequestCrn: requestCrn,
        deployedFlowName: request.name,
        environmentCrn,
      });
    } catch (err) {
      if (cleansUp(err)) await abort();
      throw err;
    }
    try {
      const config: Doc = {
        name: request.name,
        deployedFlowRequestCrn: requestCrn,
        configurationVersion: INITIAL_CONFIGURATION_VERSION,
        deploymentCrn: request.deploymentCrn,
      };
      if (given(request.fromArchive)) {
        const imported = await importArchive(
          client,
          'importFlowIntoDeployment',
          { deployedFlowRequestCrn: requestCrn },
          request.fromArchive,
          request.importArchiveFlowName,
          environmentCrn,
        );
        if (given(request.autoStartFlow)) config.autoStartFlow = request.autoStartFlow;
        if (given(request.ignoreDeploymentInboundConfigurationChecks))
          config.ignoreDeploymentInboundConfigurationChecks = request.ignoreDeploymentInboundConfigurationChecks;
        const kpis = importedKpis(imported);
        if (kpis) config.kpis = kpis;
        if (truthy(request.parameterGroups)) config.parameterGroups = request.parameterGroups;
      } else {
        if (given(request.autoStartFlow)) config.autoStartFlow = request.autoStartFlow;
        if (given(request.ignoreDeploymentInboundConfigurationChecks))
          config.ignoreDeploymentInboundConfigurationChecks = request.ignoreDeploymentInboundConfigurationChecks;
        if (truthy(request.parameterGroups)) config.parameterGroups = request.parameterGroups;
        // The service expects the KPIs even when there are none.
        labelKpiUnits(request);
        config.kpis = truthy(request.kpis) ? request.kpis : [];
      }
      config.environmentCrn = environmentCrn;
      const added = await workload(client, 'addFlowToDeployment', config);
      return { crn: isObj(added.deployedFlow) ? (added.deployedFlow.crn ?? null) : null };
    } catch (err) {
      if (cleansUp(err)) await abort();
      throw err;
    }
  },
};

// ---- running flows: asset references are kept names or local paths ------------------------

/** Any asset reference at all opens an asset update request, as in cdp (even one naming a kept asset). */
const anyAssetReference = (request: Doc): boolean =>
  list(request.parameterGroups).some((g) =>
    list(g.parameters).some((p) => Array.isArray(p.assetReferences) && p.assetReferences.some(truthy)),
  );

/** References with a local path, each file checked now. */
function pathReferences(request: Doc): Array<{ group: string; parameter: string; ref: Doc; path: string }> {
  const out: Array<{ group: string; parameter: string; ref: Doc; path: string }> = [];
  for (const g of list(request.parameterGroups))
    for (const p of list(g.parameters))
      for (const ref of list(p.assetReferences)) {
        const path = str(ref.path);
        if (!path) continue;
        localFile(path, `--parameter-groups (parameter ${String(p.name)} of ${String(g.name)})`);
        out.push({ group: String(g.name ?? ''), parameter: String(p.name ?? ''), ref, path });
      }
  return out;
}

interface ChangeSpec {
  /** The workload call: changeFlowVersion or changeFlowVersionInDeployment. */
  readonly call: 'changeFlowVersion' | 'changeFlowVersionInDeployment';
  /** A flow of a deployment (deployedFlowCrn) rather than a single-flow deployment. */
  readonly inDeployment: boolean;
  /** A retry: no new request is initiated and the stored one is used. */
  readonly retry: boolean;
}

/** The version changes and their retries (see the file comment). */
function change(spec: ChangeSpec): Customization {
  return {
    async run(ctx) {
      const { client, request } = ctx;
      const refs = pathReferences(request);
      const flowCrn = spec.inDeployment ? { deployedFlowCrn: request.deployedFlowCrn } : {};
      let requestCrn: string | undefined;
      if (!spec.retry) {
        const initiated = spec.inDeployment
          ? await df(client, 'initiateFlowInDeployment', {
              serviceCrn: request.serviceCrn,
              deploymentCrn: request.deploymentCrn,
              flowVersionCrn: request.flowVersionCrn,
              deployedFlowCrn: request.deployedFlowCrn,
            })
          : await df(client, 'initiateDeployment', {
              serviceCrn: request.serviceCrn,
              flowVersionCrn: request.flowVersionCrn,
              deploymentCrn: request.deploymentCrn,
            });
        requestCrn = spec.inDeployment
          ? answered(initiated, 'deployedFlowRequestCrn', 'flow request')
          : answered(initiated, 'deploymentRequestCrn', 'deployment request');
      }
      const environmentCrn = await environmentOf(client, request.serviceCrn);
      // cdp registers a flow request through getDeploymentRequestDetails too.
      if (requestCrn) await workload(client, 'getDeploymentRequestDetails', { deploymentRequestCrn: requestCrn, environmentCrn });
      const call: Doc = {
        environmentCrn,
        ...(requestCrn ? { deploymentRequestCrn: requestCrn } : {}),
        deploymentCrn: request.deploymentCrn,
        ...flowCrn,
      };
      if (request.strategy) call.strategy = request.strategy;
      if (request.waitForFlowToStopInMinutes) call.waitForFlowToStopInMinutes = request.waitForFlowToStopInMinutes;
      if (given(request.kpis)) {
        labelKpiUnits(request);
        call.kpis = request.kpis;
      }
      if (!spec.retry && given(request.ignoreDeploymentInboundConfigurationChecks))
        call.ignoreDeploymentInboundConfigurationChecks = request.ignoreDeploymentInboundConfigurationChecks;
      let assetRequest: string | undefined;
      // A retry of a flow change opens the asset update request for the deployment only, as cdp does.
      const abortScope = { deploymentCrn: request.deploymentCrn, environmentCrn };
      const abort = (crn: string): Promise<void> =>
        tidy(ctx, `abort asset update request ${crn}`, () =>
          workload(client, 'abortAssetUpdateRequest', { ...abortScope, assetUpdateRequestCrn: crn, ...flowCrn }),
        );
      if (truthy(request.parameterGroups)) {
        if (anyAssetReference(request)) {
          const scope = { deploymentCrn: request.deploymentCrn, environmentCrn, ...(spec.inDeployment && !spec.retry ? flowCrn : {}) };
          assetRequest = answered(
            await workload(client, 'createAssetUpdateRequest', scope),
            'assetUpdateRequestCrn',
            'asset update request',
          );
          try {
            const names = spec.inDeployment ? await flowNames(ctx) : {};
            for (const r of refs) {
              await uploadAsset(client, {
                assetUpdateRequestCrn: assetRequest,
                parameterGroup: r.group,
                parameterName: r.parameter,
                filePath: r.path,
                ...names,
                environmentCrn,
              });
              const [dir, name] = splitPath(expandPath(r.path));
              r.ref.name = name;
              r.ref.path = dir;
            }
          } catch (err) {
            await abort(assetRequest);
            throw err;
          }
          call.assetUpdateRequestCrn = assetRequest;
        }
        call.parameterGroups = request.parameterGroups;
      }
      try {
        const res = await workload(client, spec.call, call);
        if (spec.inDeployment) {
          const cfg = isObj(res.deployedFlowConfiguration) ? res.deployedFlowConfiguration : {};
          return { crn: cfg.deployedFlowCrn ?? null };
        }
        const cfg = isObj(res.deploymentConfiguration) ? res.deploymentConfiguration : {};
        return { crn: cfg.deploymentCrn ?? null };
      } catch (err) {
        if (assetRequest && cleansUp(err)) await abort(assetRequest);
        throw err;
      }
    },
  };
}

/** The deployment and flow names uploads of a flow carry; a failed lookup leaves its name out, as in cdp. */
async function flowNames(ctx: CustomizationContext): Promise<Doc> {
  const { client, request } = ctx;
  const names: Doc = {};
  try {
    const d = await df(client, 'describeDeployment', { deploymentCrn: request.deploymentCrn });
    if (isObj(d.deployment) && d.deployment.name) names.deploymentName = d.deployment.name;
  } catch (err) {
    ctx.warn(`could not read the deployment name: ${(err as Error).message}`);
  }
  try {
    const f = await df(client, 'describeFlowInDeployment', {
      deploymentCrn: request.deploymentCrn,
      deployedFlowCrn: request.deployedFlowCrn,
    });
    if (isObj(f.deployedFlow) && f.deployedFlow.name) names.deployedFlowName = f.deployedFlow.name;
  } catch (err) {
    ctx.warn(`could not read the flow name: ${(err as Error).message}`);
  }
  return names;
}

export const changeFlowVersion = change({ call: 'changeFlowVersion', inDeployment: false, retry: false });
export const retryChangeFlowVersion = change({ call: 'changeFlowVersion', inDeployment: false, retry: true });
export const changeFlowVersionInDeployment = change({ call: 'changeFlowVersionInDeployment', inDeployment: true, retry: false });
export const retryChangeFlowVersionInDeployment = change({ call: 'changeFlowVersionInDeployment', inDeployment: true, retry: true });

// ---- the flow catalog -------------------------------------------------------------------

/** Python's urllib.parse.quote: everything but letters, digits, `_.-~` and `/` percent-encoded as UTF-8. */
export function pyQuote(text: string): string {
  let out: string;
  try {
    out = encodeURIComponent(text);
  } catch {
    throw usageError('a text value holds a lone surrogate and cannot be sent');
  }
  return out.replace(/%2F/g, '/').replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Python's json.dumps with its defaults: `, ` and `: ` between items, non-ASCII as \uXXXX. */
export function pyJson(value: unknown): string {
  const ascii = (s: string): string => s.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (Array.isArray(value)) return `[${value.map(pyJson).join(', ')}]`;
  if (isObj(value))
    return `{${Object.entries(value)
      .map(([k, v]) => `${ascii(JSON.stringify(k))}: ${pyJson(v)}`)
      .join(', ')}}`;
  return ascii(JSON.stringify(value) ?? 'null');
}

/** A field as the flow upload headers carry it: URI-encoded; empty values are left out. */
const encoded = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? pyQuote(v) : undefined);
const encodedTags = (tags: unknown): string | undefined => (truthy(tags) ? pyQuote(`{ "tags": ${pyJson(tags)}}`) : undefined);

/** The control plane redirects the request; the file goes, signed, where it points. */
async function uploadFlow(ctx: CustomizationContext, headers: Record<string, string | undefined>): Promise<Doc> {
  const { client, op, request } = ctx;
  const file = localFile(String(request.file ?? ''), '--file');
  const url = await client.redirectOf(op, request);
  const sent: Record<string, string> = { 'content-length': String(file.size) };
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) sent[k] = v;
  return client.call(op, request, { open: file.open, headers: sent, url, contentType: 'application/json' });
}

export const importFlowDefinition: Customization = {
  run: (ctx) =>
    uploadFlow(ctx, {
      'Flow-Definition-Name': encoded(ctx.request.name),
      'Flow-Definition-Description': encoded(ctx.request.description),
      'Flow-Definition-Comments': encoded(ctx.request.comments),
      'Flow-Definition-Tags': encodedTags(ctx.request.tags),
      'Flow-Definition-Collection-Identifier': encoded(ctx.request.collectionCrn),
    }),
};

export const importFlowDefinitionVersion: Customization = {
  run: (ctx) =>
    uploadFlow(ctx, {
      'Flow-Definition-Comments': encoded(ctx.request.comments),
      'Flow-Definition-Tags': encodedTags(ctx.request.tags),
    }),
};

/** The flow definition itself: the answer's base64 flowDefinition, decoded and parsed. */
export const getFlowVersion: Customization = {
  freeForm: true,
  async run(ctx) {
    const res = await ctx.client.call(ctx.op, ctx.request);
    const encodedDefinition = str(res.flowDefinition);
    if (!encodedDefinition) throw cdpError({ kind: 'service', code: 'BAD_RESPONSE', message: 'the answer has no flowDefinition' });
    const text = Buffer.from(encodedDefinition, 'base64').toString('utf8');
    try {
      const doc: unknown = JSON.parse(text);
      return (isObj(doc) ? doc : { flowDefinition: doc }) as Doc;
    } catch {
      throw cdpError({ kind: 'service', code: 'BAD_RESPONSE', message: 'the flow definition is not JSON' });
    }
  },
};
