/**
 * The DataFlow service (`df`) of an environment: enabled, updated, upgraded
 * and disabled on a lifecycle (SERVICE), one per environment, its CRN the one
 * the workload API names it by (dfworkload views: serviceMeta). Every
 * environment the emulator pre-creates has DataFlow enabled from the start;
 * others are enabled with enableService. Deployments and their flows are the
 * workload service's records (dfworkload): df reads them, so a deployment
 * suspended through the workload API reads SUSPENDED here.
 */
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { PRE_CREATED, environments, requireEnvironment } from '../../environments.js';
import { crn, crnId, uuid } from '../../ids.js';
import { Resources, settledIn, type Activity, type Lifecycle } from '../../lifecycle.js';
import type { BackendContext } from '../../types.js';
import { DfBackend as WorkloadBackend } from '../dataflow/backend.js';
import { KIND as WORKLOAD, type DeployedFlow, type Deployment, type FlowRequest } from '../dataflow/records.js';

export const KIND = { service: 'df.service' } as const;

const HEALTHY = ['GOOD_HEALTH', 'CONCERNING_HEALTH'];

/** What a DataFlow service does (emulated minutes). */
export const SERVICE: Lifecycle = {
  enable: { phases: [['ENABLING', 10]], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
  update: { from: HEALTHY, phases: [['UPDATING', 2]], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
  upgrade: { from: HEALTHY, phases: [['UPGRADING', 8]], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
  disable: { from: [...HEALTHY, 'BAD_HEALTH'], phases: [['DISABLING', 5]], success: 'NOT_ENABLED', removes: true },
};

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
}

export type ServiceSpec = Omit<ServiceRec, 'id' | 'crn' | 'name' | 'cloudPlatform' | 'region' | 'workloadVersion' | 'created' | 'activity'>;

export class DfServiceBackend {
  readonly services: Resources<ServiceRec>;
  /** The workload service's deployments and flows. */
  readonly workload: WorkloadBackend;

  constructor(readonly ctx: BackendContext) {
    this.workload = new WorkloadBackend(ctx);
    this.services = new Resources<ServiceRec>(ctx, {
      kind: KIND.service,
      noun: 'DataFlow service',
      lifecycle: SERVICE,
      id: (s) => s.id,
      name: (s) => s.name,
      keys: (s) => ({ crn: s.crn, name: s.environmentCrn }),
    });
    this.ensurePreEnabled();
  }

  private get now(): number {
    return this.ctx.clock.now();
  }

  /** The service CRN of an environment (the one dfworkload's views name). */
  private crnOf(environmentCrn: string): string {
    return crn('df', this.ctx.info.region, this.ctx.info.accountId, 'service', crnId(environmentCrn));
  }

  /** DataFlow is enabled in the pre-created environments once, the first time df is asked anything. */
  private ensurePreEnabled(): void {
    const flag = `df.seeded:${this.ctx.info.accountId}`;
    if (this.ctx.store.meta(flag)) return;
    const names = new Set(PRE_CREATED.map((e) => e.name));
    for (const e of environments(this.ctx))
      if (names.has(e.environmentName) && !this.services.find(this.crnOf(e.crn)))
        this.services.save({
          ...this.record(e.crn, {
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
          activity: settledIn('enable', 'GOOD_HEALTH', this.now),
        });
    this.ctx.store.setMeta(flag, '1');
  }

  private record(environmentCrn: string, spec: ServiceSpec): Omit<ServiceRec, 'activity'> {
    const e = requireEnvironment(this.ctx, environmentCrn);
    const svcCrn = this.crnOf(e.crn);
    return {
      ...spec,
      environmentCrn: e.crn,
      id: crnId(svcCrn),
      crn: svcCrn,
      name: e.environmentName,
      cloudPlatform: e.cloudPlatform,
      region: e.region,
      workloadVersion: WORKLOAD_VERSIONS[0],
      created: this.now,
    };
  }

  /** The service a CRN names, or NOT_FOUND (also once it has been disabled). */
  service(serviceCrn: string): ServiceRec {
    if (!serviceCrn.startsWith('crn:')) throw invalid(`serviceCrn must be a CRN; got "${serviceCrn.slice(0, 100)}"`);
    return this.services.get(serviceCrn);
  }

  state(s: ServiceRec): string {
    return this.services.state(s);
  }

  all(term?: string): ServiceRec[] {
    const t = term?.toLowerCase();
    return this.services.all().filter((s) => !t || s.name.toLowerCase().includes(t) || s.crn.toLowerCase().includes(t));
  }

  /** Enables DataFlow in an environment (once: an environment has one service). */
  enable(spec: ServiceSpec): ServiceRec {
    if (spec.minK8sNodeCount < 1 || spec.maxK8sNodeCount < spec.minK8sNodeCount)
      throw invalid('minK8sNodeCount must be at least 1 and no more than maxK8sNodeCount');
    const fields = this.record(spec.environmentCrn, spec);
    if (this.services.find(fields.crn)) throw alreadyExists(`DataFlow is already enabled in environment ${fields.name}`);
    return this.services.create(fields, 'enable');
  }

  /** Changes the node count limits (and IP ranges, when given). */
  update(serviceCrn: string, min: number, max: number, kubeApi?: string[], loadBalancer?: string[]): ServiceRec {
    const s = this.service(serviceCrn);
    if (min < 1 || max < min) throw invalid('minK8sNodeCount must be at least 1 and no more than maxK8sNodeCount');
    this.services.begin(s, 'update', {
      effect: {
        minK8sNodeCount: min,
        maxK8sNodeCount: max,
        ...(kubeApi ? { kubeApiAuthorizedIpRanges: kubeApi } : {}),
        ...(loadBalancer ? { loadBalancerAuthorizedIpRanges: loadBalancer } : {}),
      },
    });
    return s;
  }

  upgrade(serviceCrn: string): ServiceRec {
    const s = this.service(serviceCrn);
    const next = WORKLOAD_VERSIONS[WORKLOAD_VERSIONS.indexOf(s.workloadVersion as (typeof WORKLOAD_VERSIONS)[number]) + 1];
    if (!next) throw failedPrecondition(`DataFlow service ${s.name} already runs the newest version ${s.workloadVersion}`);
    this.services.begin(s, 'upgrade', { effect: { workloadVersion: next } });
    return s;
  }

  /** Disables a service; its deployments are refused unless they are to be terminated with it. */
  disable(serviceCrn: string, terminateDeployments: boolean): ServiceRec {
    const s = this.service(serviceCrn);
    const deployments = this.deploymentsOf(s);
    if (deployments.length && !terminateDeployments)
      throw failedPrecondition(
        `DataFlow service ${s.name} has ${deployments.length} deployment(s); terminate them first or give terminateDeployments`,
      );
    this.services.begin(s, 'disable');
    for (const d of deployments) this.workload.deployments.terminate('', d.crn);
    return s;
  }

  // ---- deployment requests: the control plane's half of a new deployment or flow

  /**
   * Opens a request to deploy a flow version into a healthy service: the
   * workload service knows it from then on (its details can be read, a
   * deployment or a flow made from it once). The flow is named by the
   * version CRN's resource, `<flow>/v.<version>`.
   */
  initiate(kind: FlowRequest['kind'], serviceCrn: string, flowVersionCrn: string, deploymentCrn?: string): FlowRequest {
    const s = this.service(serviceCrn);
    this.services.require(s, HEALTHY, 'a new deployment');
    if (deploymentCrn) {
      const d = this.deployment(deploymentCrn);
      if (d.environmentCrn !== s.environmentCrn) throw invalid(`deployment ${d.name} is not in DataFlow service ${s.name}`);
    }
    const m = /^crn:cdp:df:[^:]*:[^:]*:flow:([^/]+)(?:\/v\.(\d+))?$/.exec(flowVersionCrn);
    if (!m?.[1])
      throw invalid(
        `flowVersionCrn must be a flow version CRN (crn:cdp:df:<region>:<account>:flow:<flow>/v.<n>); got "${flowVersionCrn.slice(0, 200)}"`,
      );
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
      status: 'OPEN',
      flowName: m[1],
      flowVersion: Number(m[2] ?? 1),
    };
    this.ctx.store.put(WORKLOAD.request, req.crn, req);
    return req;
  }

  // ---- the workload's deployments, read

  deploymentsOf(s: ServiceRec): Deployment[] {
    return this.workload.deployments.all().filter((d) => d.environmentCrn === s.environmentCrn);
  }

  deployment(deploymentCrn: string): Deployment {
    const d = this.workload.deployments.store.find(deploymentCrn);
    if (!d) throw notFound(`deployment ${deploymentCrn.slice(0, 200)} not found`);
    return d;
  }

  /** The deployments of the account, those whose name, service or CRN contains `term` when given. */
  deployments(term?: string): Deployment[] {
    const t = term?.toLowerCase();
    return this.workload.deployments.all().filter((d) => !t || d.name.toLowerCase().includes(t) || d.crn.toLowerCase().includes(t));
  }

  flow(deploymentCrn: string, flowCrn: string): { d: Deployment; f: DeployedFlow } {
    return this.workload.flows.get('', deploymentCrn, flowCrn);
  }
}
