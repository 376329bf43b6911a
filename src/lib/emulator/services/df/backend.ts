/**
 * The DataFlow service (`df`) of an environment: enabled, updated, upgraded,
 * its certificates renewed, its database password rotated, its node images
 * updated, its diagnostics collected and disabled on a lifecycle (SERVICE),
 * one per environment, its CRN the one the workload API names it by
 * (dfworkload views: serviceMeta). Every environment the emulator pre-creates
 * has DataFlow enabled from the start; others are enabled with enableService
 * (the environment must be AVAILABLE). Service work in an environment whose
 * name starts with `fail-` fails (BAD_HEALTH); a service whose enable failed
 * is not enabled: it can be reset (forgotten) or disabled. A disabled service
 * stays, NOT_ENABLED, described and listed, until resetService forgets it
 * ("Only not-enabled services can be reset") or enableService enables it
 * again under the same CRN; it holds nothing in its environment (which
 * forgets it once deleted). A service keeps the
 * cloud users allowed to reach its Kubernetes cluster and the actions it has
 * been through (its events). Deployments and their flows are the workload
 * service's records (dfworkload): df reads them through the world (contract
 * `dataflows`), so a deployment suspended through the workload API reads
 * SUSPENDED here, and opens there the requests its deployments are made from.
 */
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { PRE_CREATED, environments, findEnvironment, requireEnvironment, type EnvironmentScope } from '../../environments.js';
import { crn, crnId, uuid } from '../../ids.js';
import { Resources, progress, settledIn, type Activity, type Lifecycle } from '../../lifecycle.js';
import type { BackendContext } from '../../types.js';
import { dependentKind, type DependentKind } from '../../world.js';
import type {
  DataflowDeploymentView as Deployment,
  DataflowFlowView as DeployedFlow,
  DataflowRequestSpec as FlowRequest,
  Dataflows,
} from '../../world/contracts.js';

/** Store kinds: the services (here), and the engine's kinds (`df.<resource>`) of the catalog and projects, read by CRN. */
export const KIND = {
  service: 'df.service',
  flow: 'df.flow',
  flowVersion: 'df.flowVersion',
  project: 'df.project',
  diagnostics: 'df.diagnostics',
} as const;

/** The states of a healthy service (and of a healthy deployment or flow). */
export const HEALTHY: readonly string[] = ['GOOD_HEALTH', 'CONCERNING_HEALTH'];

/** Minutes a diagnostics collection takes (the service shows COLLECTING_DIAGNOSTICS meanwhile). */
export const DIAGNOSTICS_MINUTES = 5;

/** What a DataFlow service does (emulated minutes). */
export const SERVICE: Lifecycle = {
  enable: { phases: [['ENABLING', 10]], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
  update: { from: HEALTHY, phases: [['UPDATING', 2]], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
  upgrade: { from: HEALTHY, phases: [['UPGRADING', 8]], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
  renewCertificates: { from: HEALTHY, phases: [['RENEWING_CERTS', 3]], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
  rotatePassword: { from: HEALTHY, phases: [['ROTATING_PASSWORD', 3]], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
  /** The nodes are replaced one by one: the service is unavailable meanwhile. */
  updateNodeImages: { from: HEALTHY, phases: [['UPDATING', 12]], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
  /** Back to the state it was in; a collection's own outcome is its record's (diagnostics). */
  collectDiagnostics: { from: [...HEALTHY, 'BAD_HEALTH'], phases: [['COLLECTING_DIAGNOSTICS', DIAGNOSTICS_MINUTES]] },
  /** Ends NOT_ENABLED, the record kept (resetService forgets it; enableService enables it again). */
  disable: { from: [...HEALTHY, 'BAD_HEALTH'], phases: [['DISABLING', 5]], success: 'NOT_ENABLED' },
};

/** An action a service has been through (its event history). */
export interface PastAction {
  readonly action: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly state: string;
  readonly failed: boolean;
  readonly by?: string;
}

const PAST_KEPT = 50;

/** The workload version a service runs, and the one an upgrade brings. */
export const WORKLOAD_VERSIONS = ['2.9.0-b120', '2.10.0-b85'] as const;

export interface ServiceRec {
  id: string;
  crn: string;
  environmentCrn: string;
  /** The environment's name: the service is named after it. */
  name: string;
  cloudPlatform: string;
  region: string;
  minK8sNodeCount: number;
  maxK8sNodeCount: number;
  usePublicLoadBalancer: boolean;
  privateCluster: boolean;
  userDefinedRouting: boolean;
  enforceProject: boolean;
  instanceType?: string;
  podCidr?: string;
  serviceCidr?: string;
  kubeApiAuthorizedIpRanges: string[];
  loadBalancerAuthorizedIpRanges: string[];
  clusterSubnets: string[];
  loadBalancerSubnets: string[];
  tags: Record<string, string>;
  workloadVersion: string;
  created: number;
  activity: Activity;
  /** Who started the current action (a user CRN). */
  actedBy?: string;
  /** Actions it has been through, oldest first. */
  past?: PastAction[];
  /** Cloud users allowed to reach its Kubernetes cluster. */
  kubernetesAccess?: string[];
  /** The bearer token of its kubeconfig; a password rotation changes it. */
  clusterToken?: string;
}

export type ServiceSpec = Omit<
  ServiceRec,
  | 'id'
  | 'crn'
  | 'name'
  | 'cloudPlatform'
  | 'region'
  | 'workloadVersion'
  | 'created'
  | 'activity'
  | 'actedBy'
  | 'past'
  | 'kubernetesAccess'
  | 'clusterToken'
>;

/** A user as DataFlow shows them (authors, events): their workload user name, else their CRN's id. */
export function userNameOf(scope: Pick<BackendContext, 'store'>, actorCrn: string): string {
  const actor = scope.store.getByCrn<{ workloadUsername?: unknown }>(actorCrn)?.doc;
  return typeof actor?.workloadUsername === 'string' ? actor.workloadUsername : (actorCrn.split(':').pop() ?? actorCrn);
}

/** The service CRN of an environment (the one dfworkload's views name). */
export function serviceCrnOf(scope: EnvironmentScope, environmentCrn: string): string {
  return crn('df', scope.info.region, scope.info.accountId, 'service', crnId(environmentCrn));
}

/** Keeps an action that ends as an event of the service. */
function remember(s: ServiceRec, prev: Activity, now: number): void {
  if (!prev.action || (prev.tl.steps.length === 1 && !prev.tl.steps[0]?.state)) return;
  const p = progress(prev, now);
  s.past = [
    ...(s.past ?? []).slice(-(PAST_KEPT - 1)),
    {
      action: prev.action,
      startedAt: prev.tl.startedAt,
      endedAt: Math.min(p.endsAt, now),
      state: p.state,
      failed: p.failed,
      ...(s.actedBy ? { by: s.actedBy } : {}),
    },
  ];
}

/** The service record of an environment, from what enableService takes. */
function serviceRecord(scope: EnvironmentScope, environmentCrn: string, spec: ServiceSpec): Omit<ServiceRec, 'activity'> {
  const e = requireEnvironment(scope, environmentCrn);
  const svcCrn = serviceCrnOf(scope, e.crn);
  return {
    ...spec,
    environmentCrn: e.crn,
    id: crnId(svcCrn),
    crn: svcCrn,
    name: e.environmentName,
    cloudPlatform: e.cloudPlatform,
    region: e.region,
    workloadVersion: WORKLOAD_VERSIONS[0],
    created: scope.clock.now(),
  };
}

/** DataFlow is enabled in the pre-created environments that say so once, the first time df (or an environment's delete) asks. */
function ensurePreEnabled(scope: EnvironmentScope, services: Resources<ServiceRec>): void {
  const flag = `df.seeded:${scope.info.accountId}`;
  if (scope.store.meta(flag)) return;
  const names = new Set(PRE_CREATED.filter((e) => e.dataflow).map((e) => e.name));
  for (const e of environments(scope))
    if (names.has(e.environmentName) && !services.find(serviceCrnOf(scope, e.crn)))
      services.save({
        ...serviceRecord(scope, e.crn, {
          environmentCrn: e.crn,
          minK8sNodeCount: 3,
          maxK8sNodeCount: 10,
          usePublicLoadBalancer: true,
          privateCluster: false,
          userDefinedRouting: false,
          enforceProject: false,
          kubeApiAuthorizedIpRanges: [],
          loadBalancerAuthorizedIpRanges: [],
          clusterSubnets: [],
          loadBalancerSubnets: [],
          tags: {},
        }),
        kubernetesAccess: [],
        activity: settledIn('enable', 'GOOD_HEALTH', scope.clock.now()),
      });
  scope.store.setMeta(flag, '1');
}

/** The DataFlow services of the account (the pre-created environments' enabled first). */
export function serviceResources(scope: EnvironmentScope): Resources<ServiceRec> {
  const services: Resources<ServiceRec> = new Resources<ServiceRec>(scope, {
    kind: KIND.service,
    noun: 'DataFlow service',
    lifecycle: SERVICE,
    id: (s) => s.id,
    name: (s) => s.name,
    keys: (s) => ({ crn: s.crn, name: s.environmentCrn }),
    began: (s, prev) => remember(s, prev, scope.clock.now()),
  });
  ensurePreEnabled(scope, services);
  return services;
}

/** Whether a service has been disabled: it is NOT_ENABLED, kept until reset or enabled again. */
export const isDisabled = (services: Resources<ServiceRec>, s: ServiceRec): boolean => services.state(s) === 'NOT_ENABLED';

/**
 * DataFlow services as their environments see them: an environment is not
 * deleted while DataFlow is enabled in it (a disabled service holds nothing).
 */
export const serviceDependents: DependentKind = dependentKind<ServiceRec>({
  service: 'df',
  noun: 'DataFlow service',
  resources: (scope) => serviceResources(scope),
  environmentOf: (s) => s.environmentCrn,
  nameOf: (s) => s.name,
  inEnvironment: (services, environmentCrn) =>
    services.all().filter((s) => s.environmentCrn === environmentCrn && !isDisabled(services, s)),
});

export class DfServiceBackend {
  readonly services: Resources<ServiceRec>;
  /** The workload service's deployments and flows (the world's contract `dataflows`). */
  readonly dataflows: Dataflows;

  constructor(readonly ctx: BackendContext) {
    this.dataflows = ctx.world.in(ctx).dataflows;
    this.services = serviceResources(ctx);
  }

  /** Starts an action of the service as the caller. */
  private act(s: ServiceRec, action: string, effect?: Partial<ServiceRec>): ServiceRec {
    this.services.begin(s, action, effect ? { effect } : {});
    s.actedBy = this.ctx.caller.actorCrn;
    this.services.save(s);
    return s;
  }

  private get now(): number {
    return this.ctx.clock.now();
  }

  /** The service a CRN names (a disabled one too, until it is reset), or NOT_FOUND. */
  service(serviceCrn: string): ServiceRec {
    if (!serviceCrn.startsWith('crn:')) throw invalid(`serviceCrn must be a CRN; got "${serviceCrn.slice(0, 100)}"`);
    const s = this.kept(this.services.find(serviceCrn));
    if (!s) throw notFound(`DataFlow service ${serviceCrn.slice(0, 200)} not found`);
    return s;
  }

  /** A service as read: a disabled one whose environment has since been deleted is forgotten. */
  private kept(s: ServiceRec | undefined): ServiceRec | undefined {
    if (!s || !this.disabled(s) || findEnvironment(this.ctx, s.environmentCrn)) return s;
    this.ctx.store.delete(KIND.service, s.id);
    return undefined;
  }

  /** Whether a service has been disabled (NOT_ENABLED, kept until reset or enabled again). */
  disabled(s: ServiceRec): boolean {
    return isDisabled(this.services, s);
  }

  state(s: ServiceRec): string {
    return this.services.state(s);
  }

  all(term?: string): ServiceRec[] {
    const t = term?.toLowerCase();
    return this.services
      .all()
      .filter((s) => this.kept(s))
      .filter((s) => !t || s.name.toLowerCase().includes(t) || s.crn.toLowerCase().includes(t));
  }

  /** Enables DataFlow in an AVAILABLE environment (once: an environment has one service). */
  enable(spec: ServiceSpec): ServiceRec {
    if (spec.minK8sNodeCount < 1 || spec.maxK8sNodeCount < spec.minK8sNodeCount)
      throw invalid('minK8sNodeCount must be at least 1 and no more than maxK8sNodeCount');
    const fields = serviceRecord(this.ctx, spec.environmentCrn, spec);
    const there = this.kept(this.services.find(fields.crn));
    if (there && this.notEnabled(there))
      throw failedPrecondition(`DataFlow service ${there.name} failed to enable; reset it (df services reset) or disable it first`);
    if (there && !this.disabled(there)) throw alreadyExists(`DataFlow is already enabled in environment ${fields.name}`);
    const env = requireEnvironment(this.ctx, spec.environmentCrn);
    if (env.status !== 'AVAILABLE')
      throw failedPrecondition(`environment ${env.environmentName} is ${env.status}; DataFlow can be enabled in an AVAILABLE environment`);
    if (!there) return this.services.create({ ...fields, actedBy: this.ctx.caller.actorCrn, kubernetesAccess: [] }, 'enable');
    // A disabled service is enabled again as it is asked now, under its CRN, keeping its history.
    Object.assign(there, fields, { kubernetesAccess: [] });
    delete there.clusterToken;
    return this.act(there, 'enable');
  }

  /** Changes the node count limits (and IP ranges, when given). */
  update(serviceCrn: string, min: number, max: number, kubeApi?: string[], loadBalancer?: string[]): ServiceRec {
    const s = this.service(serviceCrn);
    if (min < 1 || max < min) throw invalid('minK8sNodeCount must be at least 1 and no more than maxK8sNodeCount');
    return this.act(s, 'update', {
      minK8sNodeCount: min,
      maxK8sNodeCount: max,
      ...(kubeApi ? { kubeApiAuthorizedIpRanges: kubeApi } : {}),
      ...(loadBalancer ? { loadBalancerAuthorizedIpRanges: loadBalancer } : {}),
    });
  }

  upgrade(serviceCrn: string): ServiceRec {
    const s = this.service(serviceCrn);
    const next = WORKLOAD_VERSIONS[WORKLOAD_VERSIONS.indexOf(s.workloadVersion as (typeof WORKLOAD_VERSIONS)[number]) + 1];
    if (!next) throw failedPrecondition(`DataFlow service ${s.name} already runs the newest version ${s.workloadVersion}`);
    return this.act(s, 'upgrade', { workloadVersion: next });
  }

  /** Renews the certificates of the service's endpoints. */
  renewCertificates(serviceCrn: string): ServiceRec {
    return this.act(this.service(serviceCrn), 'renewCertificates');
  }

  /** Rotates the root password of the service's database (and with it the kubeconfig's token). */
  rotatePassword(serviceCrn: string): ServiceRec {
    return this.act(this.service(serviceCrn), 'rotatePassword', { clusterToken: uuid() });
  }

  updateNodeImages(serviceCrn: string): ServiceRec {
    return this.act(this.service(serviceCrn), 'updateNodeImages');
  }

  /** The service shows COLLECTING_DIAGNOSTICS while a collection runs. */
  collectDiagnostics(s: ServiceRec): void {
    this.act(s, 'collectDiagnostics');
  }

  /** Whether a service never got enabled: its enable failed. */
  notEnabled(s: ServiceRec): boolean {
    return s.activity.action === 'enable' && this.services.progress(s).failed;
  }

  /**
   * Forgets a service that is not enabled (disabled, or its enable failed),
   * without cleaning up its cloud resources: "Only not-enabled services can
   * be reset".
   */
  reset(serviceCrn: string): void {
    const s = this.service(serviceCrn);
    if (!this.notEnabled(s) && !this.disabled(s))
      throw failedPrecondition(
        `DataFlow service ${s.name} is ${this.state(s)}; only a service that is not enabled (disabled, or whose enable failed) can be reset`,
      );
    this.ctx.store.delete(KIND.service, s.id);
  }

  // ---- Kubernetes access

  /** Cloud users as their provider names them: an IAM user or role ARN on AWS, an object id on Azure and GCP's account emails. */
  private cloudUser(s: ServiceRec, id: string): string {
    const ok =
      s.cloudPlatform === 'AWS'
        ? /^arn:aws(-[a-z-]+)?:iam::\d{12}:(user|role)\/\S+$/.test(id)
        : s.cloudPlatform === 'AZURE'
          ? /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
          : /^\S+@\S+$/.test(id);
    if (!ok)
      throw invalid(
        `cloudUserId must be ${s.cloudPlatform === 'AWS' ? 'an IAM user or role ARN' : s.cloudPlatform === 'AZURE' ? 'an Azure AD object id' : 'a user or service account email'} for DataFlow service ${s.name} (${s.cloudPlatform}); got "${id.slice(0, 200)}"`,
      );
    return id;
  }

  grantAccess(serviceCrn: string, cloudUserId: string): string {
    const s = this.service(serviceCrn);
    this.services.require(s, HEALTHY, 'granting Kubernetes access');
    const id = this.cloudUser(s, cloudUserId);
    const list = s.kubernetesAccess ?? [];
    if (list.includes(id)) throw alreadyExists(`${id} already has access to the Kubernetes cluster of DataFlow service ${s.name}`);
    s.kubernetesAccess = [...list, id];
    this.services.save(s);
    return id;
  }

  revokeAccess(serviceCrn: string, cloudUserId: string): string {
    // Taking access away needs no healthy cluster (a disabling one loses it anyway).
    const s = this.service(serviceCrn);
    const list = s.kubernetesAccess ?? [];
    if (!list.includes(cloudUserId))
      throw notFound(`${cloudUserId.slice(0, 200)} has no access to the Kubernetes cluster of DataFlow service ${s.name}`);
    s.kubernetesAccess = list.filter((x) => x !== cloudUserId);
    this.services.save(s);
    return cloudUserId;
  }

  accessList(serviceCrn: string): string[] {
    return this.service(serviceCrn).kubernetesAccess ?? [];
  }

  /** The kubeconfig of the service's cluster: its API server and a token (a password rotation makes a new one). */
  kubeconfig(serviceCrn: string): string {
    const s = this.service(serviceCrn);
    this.services.require(s, HEALTHY, 'a kubeconfig');
    if (!s.clusterToken) {
      s.clusterToken = uuid();
      this.services.save(s);
    }
    const cluster = `dfx-${s.id.slice(0, 8)}`;
    return [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `- name: ${cluster}`,
      '  cluster:',
      `    server: https://${cluster}.${s.region}.k8s.emulator.invalid:443`,
      'contexts:',
      `- name: ${cluster}`,
      '  context:',
      `    cluster: ${cluster}`,
      `    user: ${cluster}-admin`,
      `current-context: ${cluster}`,
      'users:',
      `- name: ${cluster}-admin`,
      '  user:',
      `    token: ${s.clusterToken}`,
      '',
    ].join('\n');
  }

  /**
   * Disables a service; its deployments are refused unless they are to be
   * terminated with it. Its projects and diagnostics records go with it,
   * unless they are to persist (a service enabled again in the environment
   * has the same CRN, and finds them).
   */
  disable(serviceCrn: string, terminateDeployments: boolean, persist = false): ServiceRec {
    const s = this.service(serviceCrn);
    const deployments = this.deploymentsOf(s);
    if (deployments.length && !terminateDeployments)
      throw failedPrecondition(
        `DataFlow service ${s.name} has ${deployments.length} deployment(s); terminate them first or give terminateDeployments`,
      );
    // Its cluster goes, and with it who could reach it.
    this.act(s, 'disable', { kubernetesAccess: [] });
    for (const d of deployments) this.dataflows.terminate(d.crn);
    if (!persist)
      for (const kind of [KIND.project, KIND.diagnostics])
        for (const { id } of this.ctx.store.children(kind, s.crn)) this.ctx.store.delete(kind, id);
    return s;
  }

  // ---- deployment requests: the control plane's half of a new deployment or flow

  /**
   * Opens a request to deploy a flow version into a healthy service: the
   * workload service knows it from then on (its details can be read, a
   * deployment or a flow made from it once). The flow is named by the
   * version CRN's resource, `<flow>/v.<version>`, of type `flow` (the
   * account's own) or `readyFlow` (an added ReadyFlow).
   */
  initiate(
    kind: FlowRequest['kind'],
    serviceCrn: string,
    flowVersionCrn: string,
    deploymentCrn?: string,
    deployedFlowCrn?: string,
  ): FlowRequest {
    const s = this.service(serviceCrn);
    this.services.require(s, HEALTHY, 'a new deployment');
    if (deploymentCrn) {
      const d = this.deployment(deploymentCrn);
      if (d.environmentCrn !== s.environmentCrn) throw invalid(`deployment ${d.name} is not in DataFlow service ${s.name}`);
      if (deployedFlowCrn) this.flow(deploymentCrn, deployedFlowCrn);
    }
    const m = /^crn:cdp:df:[^:]*:[^:]*:(?:flow|readyFlow):([^/]+)(?:\/v\.(\d+))?$/.exec(flowVersionCrn);
    if (!m?.[1])
      throw invalid(
        `flowVersionCrn must be a flow version CRN (crn:cdp:df:<region>:<account>:flow:<flow>/v.<n>, or readyFlow:<slug>/v.<n>); got "${flowVersionCrn.slice(0, 200)}"`,
      );
    const flowCrn = flowVersionCrn.replace(/\/v\.\d+$/, '');
    this.checkCatalogVersion(flowCrn, Number(m[2] ?? 1));
    const id = uuid();
    const req: FlowRequest = {
      crn: crn(
        'df',
        this.ctx.info.region,
        this.ctx.info.accountId,
        kind === 'deployment' ? 'deploymentRequest' : 'deployedFlowRequest',
        id,
      ),
      kind,
      environmentCrn: s.environmentCrn,
      flowName: m[1],
      flowVersion: Number(m[2] ?? 1),
      flowCrn,
    };
    this.dataflows.openRequest(req);
    return req;
  }

  /**
   * A flow definition of the catalog is deployed at a version it has
   * (NOT_FOUND otherwise); a flow version CRN whose flow the catalog does not
   * hold is taken as it is (the flow comes from outside the catalog).
   */
  private checkCatalogVersion(flowCrn: string, version: number): void {
    const flow = this.ctx.store.getByCrn<{ name?: string }>(flowCrn);
    if (flow?.kind !== KIND.flow) return;
    if (this.ctx.store.getByCrn(`${flowCrn}/v.${version}`)?.kind !== KIND.flowVersion)
      throw notFound(`flow definition ${flow.doc.name ?? flowCrn} has no version ${version} (see df flow-versions list)`);
  }

  // ---- the workload's deployments, read

  deploymentsOf(s: ServiceRec): Deployment[] {
    return this.dataflows.deployments().filter((d) => d.environmentCrn === s.environmentCrn);
  }

  deployment(deploymentCrn: string): Deployment {
    const d = this.dataflows.deployment(deploymentCrn);
    if (!d) throw notFound(`deployment ${deploymentCrn.slice(0, 200)} not found`);
    return d;
  }

  /** The deployments of the account, those whose name, service or CRN contains `term` when given. */
  deployments(term?: string): Deployment[] {
    const t = term?.toLowerCase();
    return this.dataflows.deployments().filter((d) => !t || d.name.toLowerCase().includes(t) || d.crn.toLowerCase().includes(t));
  }

  /** A flow of a deployment, or NOT_FOUND. */
  flow(deploymentCrn: string, flowCrn: string): { d: Deployment; f: DeployedFlow } {
    const d = this.deployment(deploymentCrn);
    if (!flowCrn) throw invalid('deployedFlowCrn is required');
    const f = this.dataflows.flowsOf(d.crn).find((x) => x.crn === flowCrn);
    if (!f) throw notFound(`flow ${flowCrn.slice(0, 200)} not found in deployment ${d.name}`);
    return { d, f };
  }
}
