/**
 * Compute clusters in the emulator: state and rules, no HTTP. Create,
 * suspend, resume, update, upgrade and delete follow the CLUSTER lifecycle
 * on the emulator clock, read lazily; suspend, resume, update and upgrade
 * also have a workflow operation with phases, which retryOperation runs
 * again after a failure. A cluster whose name starts with `fail-` ends its
 * long-running work in the failure status (CREATE_FAILED, DELETE_FAILED,
 * UPGRADE_FAILED, ...); deleteCluster with force then removes it, and force
 * is refused in any other status. `fail-<action>-...` (e.g.
 * `fail-upgrade-etl`) fails only that action's first run, so a retry works.
 */
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { requireEnvironment, type EnvironmentRecord } from '../../environments.js';
import { crn, crnId, uuid } from '../../ids.js';
import { Resources, failsOnPurpose, progress, settledIn, start, type Activity, type Lifecycle, type Progress } from '../../lifecycle.js';
import type { BackendContext, Doc } from '../../types.js';

export const KIND = { cluster: 'compute.cluster', operation: 'compute.operation' } as const;

export const K8S = ['1.27', '1.28', '1.29', '1.30'];
const DEFAULT_K8S = '1.29';

export type Workflow = 'UPGRADE' | 'SUSPEND' | 'RESUME' | 'UPDATE';

/** What clusters do, and how long it takes. */
export const CLUSTER: Lifecycle = {
  create: { phases: [['CREATING', 10]], success: 'RUNNING', failure: 'CREATE_FAILED' },
  delete: { phases: [['DELETING', 5]], success: 'DELETED', failure: 'DELETE_FAILED' },
  suspend: { from: ['RUNNING', 'SUSPEND_FAILED'], phases: [['SUSPENDING', 3]], success: 'SUSPENDED', failure: 'SUSPEND_FAILED' },
  resume: { from: ['SUSPENDED', 'RESUME_FAILED'], phases: [['RESUMING', 4]], success: 'RUNNING', failure: 'RESUME_FAILED' },
  update: { from: ['RUNNING', 'UPDATE_FAILED'], phases: [['UPDATING', 2]], success: 'RUNNING', failure: 'UPDATE_FAILED' },
  upgrade: { from: ['RUNNING'], phases: [['UPGRADING', 8]], success: 'RUNNING', failure: 'UPGRADE_FAILED' },
};

/** The busy state of each action. */
export const BUSY: readonly string[] = Object.values(CLUSTER).map((a) => a.phases[0]?.[0] ?? '');

/** A workflow operation runs (as long as its action, half a minute for a dry run), then completes or fails. */
const WORKFLOW: Lifecycle = { run: { phases: [['RUNNING', 1]], success: 'COMPLETED', failure: 'FAILED' } };

const WORKFLOW_OF: Readonly<Record<string, Workflow>> = { suspend: 'SUSPEND', resume: 'RESUME', update: 'UPDATE', upgrade: 'UPGRADE' };

export const CHARTS: ReadonlyArray<{
  name: string;
  description: string;
  versions: ReadonlyArray<{ deploymentVersion: string; applicationVersion: string }>;
}> = [
  {
    name: 'cluster-autoscaler',
    description: 'Scales node groups to fit pending pods',
    versions: [
      { deploymentVersion: '9.29.0', applicationVersion: '1.27.2' },
      { deploymentVersion: '9.37.0', applicationVersion: '1.29.0' },
    ],
  },
  {
    name: 'metrics-server',
    description: 'Resource metrics for autoscaling',
    versions: [
      { deploymentVersion: '3.11.0', applicationVersion: '0.6.4' },
      { deploymentVersion: '3.12.1', applicationVersion: '0.7.1' },
    ],
  },
  { name: 'ingress-nginx', description: 'Ingress controller', versions: [{ deploymentVersion: '4.8.3', applicationVersion: '1.9.4' }] },
  {
    name: 'yunikorn',
    description: 'Batch scheduler',
    versions: [
      { deploymentVersion: '1.4.0', applicationVersion: '1.4.0' },
      { deploymentVersion: '1.5.0', applicationVersion: '1.5.0' },
    ],
  },
];
const INSTALLED: ReadonlyArray<readonly [string, string]> = [
  ['kube-system', 'cluster-autoscaler'],
  ['kube-system', 'metrics-server'],
  ['ingress', 'ingress-nginx'],
  ['yunikorn', 'yunikorn'],
];

export interface DeploymentRec {
  name: string;
  namespace: string;
  chart: string;
  version: string;
  overrides: string;
  history: Array<{ revision: number; version: string; overrides: string }>;
}

export interface ClusterRec {
  clusterId: string;
  clusterCrn: string;
  clusterName: string;
  description?: string;
  envName: string;
  envCrn: string;
  provider: 'AWS' | 'AZURE';
  /** The environment's cloud region. */
  region?: string;
  tags: Record<string, string>;
  network: Doc;
  createdAt: number;
  updatedAt: number;
  deletedAt?: number;
  /** Removed by a forced delete (cloud resources left behind). */
  forced?: boolean;
  kubernetesVersion: string;
  clusterStateVersion: number;
  owner: Doc;
  activity: Activity;
  deployments: DeploymentRec[];
}

export interface OperationRec {
  operationId: string;
  clusterCrn: string;
  workflow: Workflow;
  dryRun: boolean;
  retryCount: number;
  workflowId: string;
  runId: string;
  owner: Doc;
  activity: Activity;
}

export interface ClusterSpec {
  readonly name: string;
  readonly environment: string;
  readonly description?: string;
  readonly tags: Record<string, string>;
  readonly network: Doc;
  readonly skipValidation: boolean;
}

export interface Validation {
  readonly name: string;
  readonly category: string;
  readonly passed: boolean;
  readonly okMessage: string;
  readonly badMessage: string;
}

/** Newer Kubernetes versions a cluster may move to (one step at a time). */
export const upgradesOf = (c: ClusterRec): string[] =>
  K8S.slice(K8S.indexOf(c.kubernetesVersion) + 1, K8S.indexOf(c.kubernetesVersion) + 2);

function cidr(text: string): [number, number] | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(text);
  if (!m) return undefined;
  const ip = ((Number(m[1]) << 24) | (Number(m[2]) << 16) | (Number(m[3]) << 8) | Number(m[4])) >>> 0;
  const bits = Number(m[5]);
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return [(ip & mask) >>> 0, mask];
}

export class ComputeBackend {
  readonly clusters: Resources<ClusterRec>;

  constructor(private readonly ctx: BackendContext) {
    this.clusters = new Resources<ClusterRec>(ctx, {
      kind: KIND.cluster,
      noun: 'compute cluster',
      lifecycle: CLUSTER,
      id: (c) => c.clusterId,
      name: (c) => c.clusterName,
      // Deleted clusters keep their record but free their name.
      keys: (c) => ({ crn: c.clusterCrn, name: c.deletedAt === undefined ? `${c.envCrn}/${c.clusterName}` : undefined }),
      ended: (c, end) => {
        if (end.state === 'DELETED') c.deletedAt = end.endsAt;
        c.updatedAt = end.endsAt;
      },
    });
  }

  private get now(): number {
    return this.ctx.clock.now();
  }

  /** A cluster by CRN (deleted ones too), or NOT_FOUND. */
  cluster(ref: string): ClusterRec {
    const c = ref.startsWith('crn:') ? this.clusters.find(ref) : undefined;
    if (!c) throw notFound(`compute cluster ${ref} not found`);
    return c;
  }

  status(c: ClusterRec): string {
    return this.clusters.state(c);
  }

  progress(c: ClusterRec): Progress {
    return this.clusters.progress(c);
  }

  /** The environment a cluster request names (name or CRN); compute clusters run in AWS and Azure environments. */
  environment(ref: string): EnvironmentRecord {
    const env = requireEnvironment(this.ctx, ref);
    if (env.cloudPlatform !== 'AWS' && env.cloudPlatform !== 'AZURE')
      throw invalid(
        `environment ${env.environmentName} is a ${env.cloudPlatform} environment; compute clusters run in AWS and Azure environments`,
      );
    return env;
  }

  /** Every cluster of the account (in an environment when given), deleted ones included. */
  list(environment?: string): ClusterRec[] {
    const env = environment ? requireEnvironment(this.ctx, environment).crn : undefined;
    return this.clusters.all().filter((c) => !env || c.envCrn === env);
  }

  /** The checks a cluster request must pass. */
  validate(spec: Pick<ClusterSpec, 'name' | 'environment' | 'network'>): Validation[] {
    const env = this.environment(spec.environment);
    const pod = typeof spec.network.podCidr === 'string' ? cidr(spec.network.podCidr) : undefined;
    const svc = typeof spec.network.serviceCidr === 'string' ? cidr(spec.network.serviceCidr) : undefined;
    const overlap = !!pod && !!svc && ((pod[0] & svc[1]) >>> 0 === svc[0] || (svc[0] & pod[1]) >>> 0 === pod[0]);
    return [
      {
        name: 'ClusterNameFormat',
        category: 'INPUT',
        passed: /^[a-z][a-z0-9-]{1,48}[a-z0-9]$/.test(spec.name),
        okMessage: 'the cluster name is valid',
        badMessage: 'cluster names are 3-50 lower-case letters, digits and "-", starting with a letter',
      },
      {
        name: 'ClusterNameUnique',
        category: 'INPUT',
        passed: !this.ctx.store.getByName(KIND.cluster, `${env.crn}/${spec.name}`),
        okMessage: 'no other cluster has this name',
        badMessage: `the environment already has a cluster named ${spec.name}`,
      },
      {
        name: 'NetworkCidrs',
        category: 'NETWORK',
        passed: !overlap,
        okMessage: 'pod and service CIDRs do not overlap',
        badMessage: 'the pod CIDR and the service CIDR overlap',
      },
      {
        name: 'EnvironmentAvailable',
        category: 'ENVIRONMENT',
        passed: env.status === 'AVAILABLE',
        okMessage: 'the environment is available',
        badMessage: `environment ${env.environmentName} is ${env.status}`,
      },
    ];
  }

  /** Creates a cluster, or answers the failed validations (unless skipped). */
  create(spec: ClusterSpec): { cluster: ClusterRec } | { failed: Validation[] } {
    const env = this.environment(spec.environment);
    if (!spec.skipValidation) {
      const checks = this.validate(spec);
      if (checks.some((v) => !v.passed)) return { failed: checks };
    }
    if (this.ctx.store.getByName(KIND.cluster, `${env.crn}/${spec.name}`))
      throw alreadyExists(`the environment already has a cluster named ${spec.name}`);
    const clusterId = `liftie-${uuid().replace(/-/g, '').slice(0, 8)}`;
    const now = this.now;
    const cluster = this.clusters.create(
      {
        clusterId,
        clusterCrn: crn('compute', this.ctx.info.region, this.ctx.info.accountId, 'cluster', clusterId),
        clusterName: spec.name,
        description: spec.description,
        envName: env.environmentName,
        envCrn: env.crn,
        provider: env.cloudPlatform === 'AZURE' ? 'AZURE' : 'AWS',
        region: env.region,
        tags: spec.tags,
        network: spec.network,
        createdAt: now,
        updatedAt: now,
        kubernetesVersion: DEFAULT_K8S,
        clusterStateVersion: 1,
        owner: this.owner(),
        deployments: INSTALLED.map(([namespace, chart]) => {
          const version = CHARTS.find((x) => x.name === chart)?.versions[0]?.deploymentVersion ?? '1.0.0';
          return { name: chart, namespace, chart, version, overrides: '{}', history: [{ revision: 1, version, overrides: '{}' }] };
        }),
      },
      'create',
    );
    return { cluster };
  }

  /** The cluster owner: the calling user, with the e-mail and names its iam record has (machine users have none). */
  private owner(): Doc {
    const who = this.ctx.store.getByCrn<Doc>(this.ctx.caller.actorCrn)?.doc ?? {};
    const named = ['email', 'firstName', 'lastName'].filter((k) => typeof who[k] === 'string' && who[k] !== '');
    return {
      userId: crnId(this.ctx.caller.actorCrn),
      accountId: this.ctx.info.accountId,
      crn: this.ctx.caller.actorCrn,
      ...Object.fromEntries(named.map((k) => [k, who[k]])),
    };
  }

  /** Starts an action (a workflow operation with it for suspend/resume/update/upgrade); a dry run only runs the operation. */
  private act(c: ClusterRec, action: string, opts: { effect?: Doc; dryRun?: boolean } = {}): OperationRec | undefined {
    const fail = failsOnPurpose(c.clusterName, action, CLUSTER);
    if (!opts.dryRun) {
      this.clusters.begin(c, action, { effect: opts.effect, fail });
      c.clusterStateVersion++;
      c.updatedAt = this.now;
    }
    const workflow = WORKFLOW_OF[action];
    let op: OperationRec | undefined;
    if (workflow) {
      op = {
        operationId: uuid(),
        clusterCrn: c.clusterCrn,
        workflow,
        dryRun: opts.dryRun === true,
        retryCount: 0,
        workflowId: `${workflow.toLowerCase()}-${c.clusterId}-${uuid().slice(0, 8)}`,
        runId: uuid(),
        owner: { userId: crnId(this.ctx.caller.actorCrn), accountId: this.ctx.info.accountId, crn: this.ctx.caller.actorCrn },
        activity: this.workflowRun(action, fail, opts.dryRun === true),
      };
      this.saveOperation(op);
      if (!opts.dryRun) c.activity.operationId = op.operationId;
    }
    if (!opts.dryRun) this.clusters.save(c);
    return op;
  }

  private workflowRun(action: string, fail: boolean, dryRun: boolean): Activity {
    const minutes = dryRun ? 0.5 : (CLUSTER[action]?.phases[0]?.[1] ?? 1);
    return start(WORKFLOW, 'run', this.now, { fail, minutes });
  }

  private saveOperation(op: OperationRec): void {
    this.ctx.store.put(KIND.operation, op.operationId, op, { parent: op.clusterCrn });
  }

  /** A forced delete is only for a cluster whose delete failed: it is gone at once, its cloud resources left behind. */
  forceDelete(c: ClusterRec): void {
    const status = this.status(c);
    if (status !== 'DELETE_FAILED')
      throw failedPrecondition(`force delete is only valid for a cluster in DELETE_FAILED; compute cluster ${c.clusterName} is ${status}`);
    const now = this.now;
    c.activity = settledIn('delete', 'DELETED', now);
    c.forced = true;
    c.deletedAt = now;
    c.updatedAt = now;
    c.clusterStateVersion++;
    this.clusters.save(c);
  }

  delete(c: ClusterRec): void {
    const status = this.status(c);
    if (status === 'DELETED') throw notFound(`compute cluster ${c.clusterName} is already deleted`);
    if (BUSY.includes(status)) throw failedPrecondition(`compute cluster ${c.clusterName} is ${status}; wait until it finishes`);
    this.act(c, 'delete');
  }

  suspend(c: ClusterRec): void {
    this.act(c, 'suspend');
  }

  resume(c: ClusterRec): void {
    this.act(c, 'resume');
  }

  /** An update needs the state version the caller last read, when given. */
  update(c: ClusterRec, stateVersion?: number): void {
    if (stateVersion !== undefined && stateVersion !== c.clusterStateVersion)
      throw failedPrecondition(
        `compute cluster ${c.clusterName} changed: its state version is ${c.clusterStateVersion}, not ${stateVersion}; describe it again`,
      );
    this.act(c, 'update');
  }

  /** Upgrades Kubernetes one version; a dry run runs only the operation's validation. */
  upgrade(c: ClusterRec, dryRun: boolean): OperationRec | undefined {
    this.clusters.require(c, ['RUNNING'], 'an upgrade');
    const next = upgradesOf(c)[0];
    if (!next) throw failedPrecondition(`compute cluster ${c.clusterName} runs Kubernetes ${c.kubernetesVersion}, the newest supported`);
    return this.act(c, 'upgrade', { effect: { kubernetesVersion: next }, dryRun });
  }

  // ---- operations

  operation(id: string): OperationRec {
    const op = id ? this.ctx.store.get<OperationRec>(KIND.operation, id) : undefined;
    if (!op) throw notFound(`operation ${id} not found`);
    return op;
  }

  operationByRun(runId: string): OperationRec {
    const op = this.ctx.store.list<OperationRec>(KIND.operation).find((r) => r.doc.runId === runId)?.doc;
    if (!op) throw notFound(`no operation has run ${runId}`);
    return op;
  }

  operationProgress(op: OperationRec): Progress {
    return progress(op.activity, this.now);
  }

  /** Runs a FAILED operation again (the cluster's action with it, unless a dry run). */
  retry(op: OperationRec): OperationRec {
    const { state } = this.operationProgress(op);
    if (state !== 'FAILED') throw failedPrecondition(`operation ${op.operationId} is ${state}; only a FAILED operation can be retried`);
    const c = this.cluster(op.clusterCrn);
    const action = op.workflow.toLowerCase();
    const spec = CLUSTER[action];
    if (!spec) throw failedPrecondition(`operation ${op.operationId} cannot be retried`);
    if (!op.dryRun && this.status(c) !== spec.failure)
      throw failedPrecondition(`compute cluster ${c.clusterName} is ${this.status(c)}; the operation no longer applies`);
    const fail = failsOnPurpose(c.clusterName, action, CLUSTER, true);
    op.activity = this.workflowRun(action, fail, op.dryRun);
    op.retryCount++;
    op.runId = uuid();
    this.saveOperation(op);
    if (!op.dryRun) {
      const effect = c.activity.effect;
      this.clusters.begin(c, action, { effect, fail, anyState: true });
      c.activity.operationId = op.operationId;
      c.clusterStateVersion++;
      c.updatedAt = this.now;
      this.clusters.save(c);
    }
    return op;
  }

  // ---- deployments

  /** A deployment of a cluster that is not deleted. */
  deployment(c: ClusterRec, namespace: string, name: string): DeploymentRec {
    this.notDeleted(c);
    const d = c.deployments.find((x) => x.namespace === namespace && x.name === name);
    if (!d) throw notFound(`no deployment ${namespace}/${name} in compute cluster ${c.clusterName}`);
    return d;
  }

  notDeleted(c: ClusterRec): ClusterRec {
    if (this.status(c) === 'DELETED') throw notFound(`compute cluster ${c.clusterName} is deleted`);
    return c;
  }

  /** Moves a deployment to a chart version (the newest when none is given) and/or new values. */
  upgradeDeployment(c: ClusterRec, d: DeploymentRec, change: { chartVersion?: string; overrides?: string }): DeploymentRec {
    this.clusters.require(c, ['RUNNING'], 'a deployment upgrade');
    const versions = CHARTS.find((x) => x.name === d.chart)?.versions ?? [];
    const idx = versions.findIndex((v) => v.deploymentVersion === d.version);
    let target = change.chartVersion;
    if (target) {
      const t = versions.findIndex((v) => v.deploymentVersion === target);
      if (t < 0)
        throw invalid(`chart ${d.chart} has no version ${target}; available: ${versions.map((v) => v.deploymentVersion).join(', ')}`);
      if (t < idx) throw failedPrecondition(`deployment ${d.name} is at ${d.version}; it cannot move back to ${target}`);
    } else target = versions[versions.length - 1]?.deploymentVersion ?? d.version;
    const overrides = change.overrides ?? d.overrides;
    if (target === d.version && overrides === d.overrides)
      throw failedPrecondition(`deployment ${d.name} is already at ${target} with these values`);
    d.version = target;
    d.overrides = overrides;
    d.history.push({ revision: d.history.length + 1, version: target, overrides });
    c.clusterStateVersion++;
    c.updatedAt = this.now;
    this.clusters.save(c);
    return d;
  }
}
