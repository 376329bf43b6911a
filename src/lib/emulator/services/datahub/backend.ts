/**
 * Data Hub clusters: their lifecycle (CLUSTER, on the emulator clock, read
 * lazily), creation in one of the account's environments (by name or CRN,
 * of the create's cloud, and available), and the actions on a cluster:
 * start, stop, scale (one instance group's node count, up or down), repair
 * and delete.
 * Effects (new node counts, replaced instances) are applied by the first
 * read after the action succeeded. A cluster named `fail-...` fails every
 * action (`fail-<action>-...`: that action only, once); a forced delete
 * never fails.
 */
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { findEnvironment, requireEnvironment, type CloudPlatform, type EnvironmentRecord } from '../../environments.js';
import { crn, uuid } from '../../ids.js';
import { Operations, Resources, type EngineContext, type Lifecycle, type OperationRecord, type Tracked } from '../../lifecycle.js';
import type { BackendContext } from '../../types.js';
import { hex } from '../../values.js';

export const KIND = { cluster: 'datahub.cluster', operation: 'datahub.operation' } as const;

/** What Data Hub clusters do, and how long it takes (emulated minutes); state names are the service's StackStatus values. */
export const CLUSTER: Lifecycle = {
  create: {
    phases: [
      ['REQUESTED', 0.5],
      ['CREATE_IN_PROGRESS', 9.5],
    ],
    success: 'AVAILABLE',
    failure: 'CREATE_FAILED',
    operation: 'PROVISION',
  },
  stop: {
    from: ['AVAILABLE', 'STOP_FAILED'],
    phases: [['STOP_IN_PROGRESS', 3]],
    success: 'STOPPED',
    failure: 'STOP_FAILED',
    operation: 'STOP',
  },
  start: {
    from: ['STOPPED', 'START_FAILED'],
    phases: [['START_IN_PROGRESS', 4]],
    success: 'AVAILABLE',
    failure: 'START_FAILED',
    operation: 'START',
  },
  upscale: {
    from: ['AVAILABLE'],
    phases: [['UPDATE_IN_PROGRESS', 2]],
    success: 'AVAILABLE',
    failure: 'UPDATE_FAILED',
    operation: 'UPSCALE',
  },
  downscale: {
    from: ['AVAILABLE'],
    phases: [['UPDATE_IN_PROGRESS', 1]],
    success: 'AVAILABLE',
    failure: 'UPDATE_FAILED',
    operation: 'DOWNSCALE',
  },
  repair: {
    from: ['AVAILABLE', 'NODE_FAILURE'],
    phases: [['UPDATE_IN_PROGRESS', 3]],
    success: 'AVAILABLE',
    failure: 'REPAIR_FAILED',
    operation: 'REPAIR',
  },
  delete: {
    phases: [['DELETE_IN_PROGRESS', 2]],
    success: 'DELETE_COMPLETED',
    failure: 'DELETE_FAILED',
    operation: 'DELETION',
    removes: true,
  },
};

export interface InstanceRec {
  id: string;
  fqdn: string;
  privateIp: string;
  subnetId: string;
  availabilityZone: string;
}

export interface GroupRec {
  name: string;
  /** GATEWAY (the Cloudera Manager host) or CORE. */
  type: string;
  instanceType: string;
  nodeCount: number;
  recipes: string[];
  instances: InstanceRec[];
}

export interface ClusterRec extends Tracked {
  clusterName: string;
  crn: string;
  environmentCrn: string;
  cloudPlatform: CloudPlatform;
  region: string;
  datalakeCrn?: string;
  clusterTemplateName: string;
  clusterTemplateCrn: string;
  clusterDefinitionName?: string;
  workloadType: string;
  creationDate: string;
  multiAz: boolean;
  groups: GroupRec[];
  statusReason?: string;
}

/** An instance group asked for at creation. */
export interface GroupSpec {
  readonly name: string;
  readonly type: string;
  readonly instanceType?: string;
  readonly nodeCount: number;
  readonly recipes: readonly string[];
}

export interface ClusterSpec {
  readonly name: string;
  readonly platform: CloudPlatform;
  readonly gov: boolean;
  readonly environment: string;
  readonly template?: string;
  readonly definition?: string;
  readonly groups: readonly GroupSpec[];
  readonly multiAz: boolean;
}

const VM_TYPE: Readonly<Record<CloudPlatform, { gateway: string; core: string }>> = {
  AWS: { gateway: 'm5.4xlarge', core: 'm5.2xlarge' },
  AZURE: { gateway: 'Standard_D16s_v3', core: 'Standard_D8s_v3' },
  GCP: { gateway: 'e2-standard-16', core: 'e2-standard-8' },
};

/** The groups a cluster definition gives when the request names none. */
const DEFAULT_GROUPS: readonly GroupSpec[] = [
  { name: 'master', type: 'GATEWAY', nodeCount: 1, recipes: [] },
  { name: 'worker', type: 'CORE', nodeCount: 3, recipes: [] },
  { name: 'compute', type: 'CORE', nodeCount: 1, recipes: [] },
];

const zoneOf = (env: EnvironmentRecord, i: number): string =>
  env.cloudPlatform === 'AWS'
    ? `${env.region}${'abc'[i % 3] ?? 'a'}`
    : env.cloudPlatform === 'GCP'
      ? `${env.region}-${'abc'[i % 3] ?? 'a'}`
      : String((i % 3) + 1);

/** The Data Hub clusters of a request: lookups settle what they read. */
export function clusterResources(ctx: EngineContext): Resources<ClusterRec> {
  return new Resources<ClusterRec>(ctx, {
    kind: KIND.cluster,
    noun: 'cluster',
    lifecycle: CLUSTER,
    operations: KIND.operation,
    id: (c) => c.crn,
    name: (c) => c.clusterName,
    keys: (c) => ({ name: c.clusterName, crn: c.crn }),
    ended: (c, end) => {
      if (end.failed) c.statusReason = c.activity.reason;
      else delete c.statusReason;
    },
  });
}

export class DatahubBackend {
  readonly clusters: Resources<ClusterRec>;
  readonly operations: Operations;

  constructor(readonly ctx: BackendContext) {
    this.clusters = clusterResources(ctx);
    this.operations = new Operations(ctx, KIND.operation);
  }

  environment(ref: string): EnvironmentRecord {
    return requireEnvironment(this.ctx, ref);
  }

  /** An environment's name (a cluster outlives nothing: its environment exists while it does). */
  environmentName(envCrn: string): string | undefined {
    return findEnvironment(this.ctx, envCrn)?.environmentName;
  }

  cluster(ref: string): ClusterRec {
    return this.clusters.get(ref);
  }

  status(c: ClusterRec): string {
    return this.clusters.state(c);
  }

  list(environment?: string): ClusterRec[] {
    const env = environment ? this.environment(environment).crn : undefined;
    return this.clusters.all().filter((c) => !env || c.environmentCrn === env);
  }

  /** `count` instances of a group, numbered from `from`, spread over the environment's subnets. */
  private instances(env: EnvironmentRecord, cluster: string, group: string, from: number, count: number): InstanceRec[] {
    return Array.from({ length: count }, (_, k) => {
      const i = from + k;
      const seed = `${cluster}/${group}/${i}/${uuid()}`;
      return {
        id: `${env.cloudPlatform === 'AWS' ? 'i-0' : ''}${hex(seed, 16)}`,
        fqdn: `${cluster}-${group}${i}.${cluster}.${hex(env.crn, 4)}-${hex(`${env.crn}/d`, 4)}.cloudera.site`,
        privateIp: `10.${parseInt(hex(seed, 2), 16) % 250}.${parseInt(hex(`${seed}/b`, 2), 16) % 250}.${(i % 250) + 4}`,
        subnetId: env.network.subnetIds[i % Math.max(1, env.network.subnetIds.length)] ?? '',
        availabilityZone: zoneOf(env, i),
      };
    });
  }

  create(spec: ClusterSpec): ClusterRec {
    if (this.clusters.find(spec.name)) throw alreadyExists(`a Data Hub cluster named ${spec.name} already exists`);
    const env = this.environment(spec.environment);
    const envGov = env.region.startsWith('us-gov-');
    if (env.cloudPlatform !== spec.platform || envGov !== spec.gov) {
      const kind = (p: string, g: boolean): string => (g ? 'AWS GovCloud' : p);
      throw invalid(
        `environment ${env.environmentName} is an ${kind(env.cloudPlatform, envGov)} environment; a ${kind(spec.platform, spec.gov)} cluster needs one of its own platform`,
      );
    }
    if (env.status !== 'AVAILABLE')
      throw failedPrecondition(`environment ${env.environmentName} is ${env.status}; a Data Hub cluster needs it AVAILABLE`);
    if (!spec.template && !spec.definition)
      throw invalid(
        'say what to build: give --cluster-definition (with the template it names), or --cluster-template with --instance-groups',
      );
    const byName = new Map(DEFAULT_GROUPS.map((g) => [g.name, g] as const));
    if (spec.groups.length > 0) {
      byName.clear();
      for (const g of spec.groups) {
        if (byName.has(g.name)) throw invalid(`instance group ${g.name} is given twice`);
        byName.set(g.name, g);
      }
      if (![...byName.values()].some((g) => g.type === 'GATEWAY'))
        throw invalid('instance groups need one GATEWAY group (the Cloudera Manager host)');
    }
    const vm = VM_TYPE[spec.platform];
    const groups: GroupRec[] = [...byName.values()].map((g) => ({
      name: g.name,
      type: g.type,
      instanceType: g.instanceType ?? (g.type === 'GATEWAY' ? vm.gateway : vm.core),
      nodeCount: g.nodeCount,
      recipes: [...g.recipes],
      instances: this.instances(env, spec.name, g.name, 0, g.nodeCount),
    }));
    // A definition names its template: "7.2.18 - Data Engineering for AWS" builds "7.2.18 - Data Engineering".
    const template = spec.template ?? (spec.definition ?? '').replace(/ for (AWS GovCloud|AWS|Azure|GCP)\b.*$/i, '');
    const { accountId, region } = this.ctx.info;
    const lake = this.ctx.store
      .list<{ environmentCrn?: string; crn?: string }>('datalake.datalake')
      .find((l) => l.doc.environmentCrn === env.crn)?.doc.crn;
    return this.clusters.create(
      {
        clusterName: spec.name,
        crn: crn('datahub', region, accountId, 'cluster', uuid()),
        environmentCrn: env.crn,
        cloudPlatform: env.cloudPlatform,
        region: env.region,
        ...(lake ? { datalakeCrn: lake } : {}),
        clusterTemplateName: template,
        clusterTemplateCrn: crn('datahub', region, accountId, 'clustertemplate', `${hex(template, 8)}-${hex(`${template}/t`, 4)}`),
        ...(spec.definition ? { clusterDefinitionName: spec.definition } : {}),
        workloadType: template,
        creationDate: this.ctx.clock.iso(),
        multiAz: spec.multiAz,
        groups,
      },
      'create',
    );
  }

  private begin(c: ClusterRec, action: string, opts: Parameters<Resources<ClusterRec>['begin']>[2] = {}): string {
    return this.clusters.begin(c, action, opts).operationId ?? '';
  }

  start(ref: string): string {
    return this.begin(this.cluster(ref), 'start');
  }

  stop(ref: string): string {
    return this.begin(this.cluster(ref), 'stop');
  }

  /** Sets one instance group's node count: instances are added (numbered on) or the newest removed. */
  scale(ref: string, groupName: string, count: number): string {
    const c = this.cluster(ref);
    const g = c.groups.find((x) => x.name === groupName);
    if (!g) throw notFound(`cluster ${c.clusterName} has no instance group ${groupName}; it has ${c.groups.map((x) => x.name).join(', ')}`);
    if (count < 0) throw invalid('instanceGroupDesiredCount must be 0 or more');
    if (g.type === 'GATEWAY') throw invalid(`instance group ${g.name} holds Cloudera Manager (GATEWAY) and cannot be scaled`);
    if (count === g.nodeCount) throw invalid(`instance group ${g.name} already has ${count} node(s)`);
    const env = this.environment(c.environmentCrn);
    const groups = c.groups.map((x) =>
      x.name !== g.name
        ? x
        : {
            ...x,
            nodeCount: count,
            instances:
              count < x.instances.length
                ? x.instances.slice(0, count)
                : [...x.instances, ...this.instances(env, c.clusterName, x.name, x.instances.length, count - x.instances.length)],
          },
    );
    return this.begin(c, count > g.nodeCount ? 'upscale' : 'downscale', { effect: { groups } });
  }

  /** Replaces the instances of the groups (or the instances) named; every group's when none is named. */
  repair(ref: string, groupNames: readonly string[], instanceIds: readonly string[], removeOnly: boolean): string {
    const c = this.cluster(ref);
    for (const n of groupNames)
      if (!c.groups.some((g) => g.name === n)) throw notFound(`cluster ${c.clusterName} has no instance group ${n}`);
    const all = c.groups.flatMap((g) => g.instances.map((i) => i.id));
    for (const id of instanceIds) if (!all.includes(id)) throw notFound(`cluster ${c.clusterName} has no instance ${id}`);
    const env = this.environment(c.environmentCrn);
    const picked = (g: GroupRec, i: InstanceRec): boolean =>
      instanceIds.length > 0 ? instanceIds.includes(i.id) : groupNames.length === 0 || groupNames.includes(g.name);
    const groups = c.groups.map((g) => {
      const instances = g.instances.flatMap((i, k) =>
        !picked(g, i)
          ? [i]
          : removeOnly
            ? []
            : this.instances(env, c.clusterName, g.name, k, 1).map((n) => ({ ...n, fqdn: i.fqdn, subnetId: i.subnetId })),
      );
      return { ...g, instances, nodeCount: instances.length };
    });
    return this.begin(c, 'repair', { effect: { groups } });
  }

  delete(ref: string, force: boolean): string {
    const c = this.cluster(ref);
    if (c.activity.action === 'delete' && this.clusters.busy(c))
      throw failedPrecondition(`cluster ${c.clusterName} is already being deleted (${this.status(c)})`);
    return this.begin(c, 'delete', { anyState: true, ...(force ? { fail: false } : {}) });
  }

  /** An operation of a cluster by id, or its latest. */
  operation(ref: string, operationId?: string): OperationRecord {
    const c = this.cluster(ref);
    return this.operations.ofOwner(c.crn, `cluster ${c.clusterName}`, operationId);
  }
}
