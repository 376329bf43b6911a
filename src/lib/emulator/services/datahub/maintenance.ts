/**
 * Maintenance of a running cluster, as work of the engine beside the cluster
 * (the `work` resource: its kinds are the actions of its facts'
 * lifecycle): certificates (public renewal, private rotation, the database
 * server's), secrets, the public DNS entries, the orchestrator state, the
 * AWS instance metadata service version, Java, component versions,
 * diagnostics collections, restarting, stopping and starting instances, the
 * Azure SKU migration, the ZooKeeper to KRaft migration of Kafka clusters
 * (migrate, then finalize or roll back), and the preparation of an upgrade.
 * The engine runs one at a time a cluster (per group: instance work, the
 * KRaft steps) with an operation record; what is written here is what
 * refuses each (`check`: most need the cluster's instances up,
 * RUNNING_STATES) and what it changes on the cluster once it has finished
 * (`effect`).
 */
import type { CheckFn, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { compareVersions } from '../../shared/runtimes.js';
import type { Doc } from '../../types.js';
import { str, strings, text, bool, num } from '../../values.js';
import { groupNamed, imageOf, instancesNamed, target } from './actions.js';
import { KRAFT_RUNTIME, LOG_DESCRIPTORS, runtimeOf, SECRET_TYPES, SERVICE_ROLES, type Image } from './catalogue.js';
import { imageInfo } from './views.js';
import { asCluster, RUNNING_STATES, type ClusterRec, type DatahubHook, type R } from './records.js';

/** Work that cannot run beside each other: what acts on instances, and the steps of the KRaft migration. */
export const WORK_GROUP: Readonly<Record<string, string>> = {
  restart: 'instances',
  stopinstances: 'instances',
  startinstances: 'instances',
  kraft: 'kraft',
  finalize: 'kraft',
  rollback: 'kraft',
};

const groupOf = (kind: string): string => WORK_GROUP[kind] ?? kind;

/** The cluster's work still running: all of it, or that of a kind's group. */
export function running(h: DatahubHook, c: Readonly<EngineRecord>, kind?: string): EngineRecord[] {
  const works = h.records('work');
  return works.all(c.id).filter((w) => works.busy(w) && (!kind || groupOf(w.activity.action) === groupOf(kind)));
}

/** The newest work of a cluster: the one an entry just started. */
export const newestWork = (h: DatahubHook, c: Readonly<EngineRecord>): EngineRecord | undefined => h.records('work').all(c.id).at(-1);

/** FAILED_PRECONDITION unless the cluster is in one of the states. */
function require(h: DatahubHook, c: ClusterRec, states: readonly string[], what: string): void {
  const state = h.records('cluster').state(c);
  if (!states.includes(state))
    throw failedPrecondition(`cluster ${c.doc.clusterName} is ${state}; ${what} needs its instances up (${states.join(' or ')})`);
}

/** A check that the cluster's instances are up (in `states`), after the kind's own rules. */
const up =
  (what: string, rules?: (h: DatahubHook, c: ClusterRec, req: Doc) => void, states: readonly string[] = RUNNING_STATES): CheckFn<R> =>
  (h, rec, req) => {
    const c = asCluster(rec);
    rules?.(h, c, req);
    require(h, c, states, what);
  };

/** Instance work needs the cluster available and not changing, then the instances it names. */
const instanceWork =
  (rules: (c: ClusterRec, req: Doc) => void): CheckFn<R> =>
  (h, rec, req) => {
    const c = asCluster(rec);
    require(h, c, ['AVAILABLE'], 'instance work');
    rules(c, req);
  };

/** New certificates: they count from when the renewal began. */
const reissued = (h: DatahubHook): Doc => ({ certIssuedAt: h.ctx.clock.now() });

export function secretTypes(c: ClusterRec): ReadonlyArray<readonly [string, string]> {
  return SECRET_TYPES.filter(([t]) => t !== 'DATABASE_ROOT_PASSWORD' || (c.doc.database ?? 'NON_HA') !== 'NONE');
}

const imdsVersion = (h: DatahubHook): string => (h.ctx.op.name === 'updateToAwsImdsV1' ? 'v1' : 'v2');

/** The cluster's groups with these instances stopped, or started again. */
const marked = (c: ClusterRec, ids: readonly string[], stopped: boolean): Doc => ({
  groups: c.doc.groups.map((g) => ({
    ...g,
    instances: g.instances.map((i) => {
      if (!ids.includes(i.id)) return i;
      const { stopped: _was, ...rest } = i;
      return stopped ? { ...rest, stopped: true } : rest;
    }),
  })),
});

/** The stopped instances of a group a start starts: `instanceCount` of them (all when not given). */
function toStart(c: ClusterRec, req: Doc): string[] {
  const g = groupNamed(c, text(req.hostGroup));
  const stopped = g.instances.filter((i) => i.stopped).map((i) => i.id);
  if (stopped.length === 0) throw failedPrecondition(`instance group ${g.name} has no stopped instances`);
  const n = num(req.instanceCount) ?? stopped.length;
  if (n < 1) throw invalid('instanceCount must be 1 or more');
  if (n > stopped.length) throw failedPrecondition(`instance group ${g.name} has ${stopped.length} stopped instance(s); cannot start ${n}`);
  return stopped.slice(0, n);
}

function kafka(c: ClusterRec): void {
  if (!c.doc.kraft)
    throw failedPrecondition(`cluster ${c.doc.clusterName} runs no Kafka; the KRaft migration is for Streams Messaging clusters`);
}

/** A KRaft migration that has run and waits to be finalized or rolled back. */
const migrated =
  (step: string) =>
  (_h: DatahubHook, c: ClusterRec): void => {
    kafka(c);
    if (c.doc.kraft !== 'MIGRATED')
      throw failedPrecondition(
        `cluster ${c.doc.clusterName} has no KRaft migration to ${step} (its brokers are ${c.doc.kraft === 'KRAFT' ? 'on KRaft for good' : 'on ZooKeeper'})`,
      );
  };

export function cmRoles(c: ClusterRec): string[] {
  return [...new Set((c.doc.services ?? []).flatMap((s) => SERVICE_ROLES[s] ?? []))];
}

/** What a diagnostics collection asks for: known labels, hosts, groups and roles; log storage for a collection into it. */
function collection(h: DatahubHook, c: ClusterRec, req: Doc): void {
  const labels = LOG_DESCRIPTORS.map(([l]) => l);
  for (const l of strings(req.labels))
    if (!labels.includes(l)) throw invalid(`log label ${l} is not known; the labels are ${labels.join(', ')}`);
  const fqdns = c.doc.groups.flatMap((g) => g.instances.map((i) => i.fqdn));
  for (const host of strings(req.hosts)) if (!fqdns.includes(host)) throw notFound(`cluster ${c.doc.clusterName} has no host ${host}`);
  for (const name of strings(req.hostGroups))
    if (!c.doc.groups.some((g) => g.name === name)) throw notFound(`cluster ${c.doc.clusterName} has no instance group ${name}`);
  const roles = cmRoles(c);
  for (const r of strings(req.roles))
    if (!roles.includes(r)) throw invalid(`cluster ${c.doc.clusterName} has no Cloudera Manager role ${r}; it has ${roles.join(', ')}`);
  if (text(req.destination) === 'CLOUD_STORAGE') {
    const env = h.world.environments.require(c.doc.environmentCrn);
    if (!env.logStorage.enabled) throw failedPrecondition(`environment ${env.environmentName} has no log storage to collect into`);
  }
}

/** The image an upgrade preparation readies the cluster for: a newer runtime's. */
export function preparedFor(h: DatahubHook, c: ClusterRec, req: Doc): Image {
  if (!str(req.imageId) && !str(req.runtime)) throw invalid('say what to prepare for: give --image-id or --runtime');
  const to = target(h, c, { imageId: str(req.imageId), runtime: str(req.runtime), osOnly: false });
  if (to.runtime === imageOf(c).runtime)
    throw invalid(
      `image ${to.imageId} keeps runtime ${to.runtime}; preparation is for runtime upgrades (--runtime or --image-id of a newer runtime)`,
    );
  return to;
}

/** Emulated minutes each kind of maintenance takes. */
const MINUTES = {
  prepare: 5,
  renew: 3,
  rotate: 4,
  dbcert: 3,
  secrets: 3,
  dns: 1,
  orchestrator: 2,
  imds: 2,
  java: 5,
  sync: 1,
  diagnostics: 5,
  cmdiagnostics: 6,
  restart: 3,
  stopinstances: 2,
  startinstances: 3,
  kraft: 10,
  finalize: 3,
  rollback: 5,
  skus: 4,
};

/** Maintenance beside a cluster, as a resource of the table: what refuses each kind and what each changes. */
export const workResource: Resource<R> = {
  keys: ['operationId'],
  noun: 'operation',
  lives: { in: 'parent', parent: 'cluster', part: true },
  work: { groups: WORK_GROUP, named: 'operation' },
  minutes: MINUTES,
  hooks: {
    check: {
      renew: up('renewing its public certificate'),
      rotate: up('rotating its host certificates'),
      dbcert: up('rotating its database certificate', (_h, c) => {
        if ((c.doc.database ?? 'NON_HA') === 'NONE')
          throw failedPrecondition(
            `cluster ${c.doc.clusterName} has no external database; its database certificate is Cloudera Manager's own`,
          );
      }),
      secrets: up('a secret rotation', (_h, c, req) => {
        const types = strings(req.secretTypes);
        const known = secretTypes(c).map(([t]) => t);
        if (types.length === 0) throw invalid('give at least one secret type');
        for (const t of types)
          if (!known.includes(t))
            throw invalid(`secret type ${t} cannot be rotated on cluster ${c.doc.clusterName}; the types are ${known.join(', ')}`);
      }),
      dns: up('updating its public DNS entries'),
      orchestrator: up('an orchestrator state update'),
      sync: up('syncing component versions from Cloudera Manager'),
      imds: (h, rec, req) => {
        const c = asCluster(rec);
        const version = imdsVersion(h);
        if (c.doc.cloudPlatform !== 'AWS')
          throw failedPrecondition(`cluster ${c.doc.clusterName} runs on ${c.doc.cloudPlatform}; IMDS settings are for AWS`);
        if ((c.doc.imds ?? 'v2') === version)
          throw failedPrecondition(`the instances of cluster ${c.doc.clusterName} already use IMDS${version}`);
        up(`moving to IMDS${version}`)(h, rec, req);
      },
      java: up('changing its Java version', (_h, c, req) => {
        const version = str(req.javaVersion);
        if (!version) throw invalid('give --java-version, e.g. 17');
        const runtime = c.doc.runtime ?? '7.2.18';
        const allowed = runtimeOf(runtime)?.java ?? [];
        const java = Number(version);
        if (!Number.isInteger(java) || !allowed.includes(java))
          throw invalid(`runtime ${runtime} runs on Java ${allowed.join(', ')}; not on ${version}`);
      }),
      skus: up(
        'a SKU migration',
        (_h, c, req) => {
          if (c.doc.cloudPlatform !== 'AZURE')
            throw failedPrecondition(`cluster ${c.doc.clusterName} runs on ${c.doc.cloudPlatform}; SKU migration is for Azure`);
          if ((c.doc.lbSku ?? 'BASIC') === 'STANDARD' && !bool(req.force))
            throw failedPrecondition(`cluster ${c.doc.clusterName} already uses the standard SKU; --force migrates without this check`);
        },
        ['AVAILABLE'],
      ),
      prepare: up('preparing an upgrade', (h, c, req) => void preparedFor(h, c, req), ['AVAILABLE']),
      restart: instanceWork((c, req) => {
        for (const { instance: x } of instancesNamed(c, strings(req.instances)))
          if (x.stopped)
            throw failedPrecondition(`instance ${x.id} is stopped; start it (\`datahub instances start\`) rather than restart it`);
      }),
      stopinstances: instanceWork((c, req) => {
        for (const { group, instance: x } of instancesNamed(c, strings(req.instanceIds))) {
          if (group.type === 'GATEWAY') throw invalid(`instance ${x.id} is in instance group ${group.name}, which holds Cloudera Manager`);
          if (x.stopped) throw failedPrecondition(`instance ${x.id} is already stopped`);
        }
      }),
      startinstances: instanceWork((c, req) => void toStart(c, req)),
      kraft: up(
        'the KRaft migration',
        (_h, c) => {
          kafka(c);
          const runtime = c.doc.runtime ?? '7.2.18';
          if (compareVersions(runtime, KRAFT_RUNTIME) < 0)
            throw failedPrecondition(
              `cluster ${c.doc.clusterName} runs runtime ${runtime}; KRaft needs ${KRAFT_RUNTIME} or newer (upgrade it first)`,
            );
          if (c.doc.kraft !== 'ZOOKEEPER')
            throw failedPrecondition(
              `the Kafka brokers of cluster ${c.doc.clusterName} are already ${c.doc.kraft === 'KRAFT' ? 'on KRaft' : 'migrated, waiting to be finalized or rolled back'}`,
            );
        },
        ['AVAILABLE'],
      ),
      finalize: up('finalizing the KRaft migration', migrated('finalize')),
      rollback: up('rolling back the KRaft migration', migrated('roll back')),
      diagnostics: up('a diagnostics collection', collection),
      cmdiagnostics: up('a Cloudera Manager diagnostics collection', collection),
    },
    effect: {
      renew: reissued,
      rotate: reissued,
      imds: (h) => ({ imds: imdsVersion(h) }),
      java: (_h, _c, req) => ({ javaVersion: Number(str(req.javaVersion)) }),
      skus: () => ({ lbSku: 'STANDARD' }),
      prepare: (h, c, req) => ({ prepared: preparedFor(h, asCluster(c), req).imageId }),
      stopinstances: (_h, c, req) => marked(asCluster(c), strings(req.instanceIds), true),
      startinstances: (_h, c, req) => marked(asCluster(c), toStart(asCluster(c), req), false),
      kraft: () => ({ kraft: 'MIGRATED' }),
      finalize: () => ({ kraft: 'KRAFT' }),
      rollback: () => ({ kraft: 'ZOOKEEPER' }),
    },
  },
};

/** A step of the KRaft migration answers its operation and what it does. */
export const kraftStep =
  (message: string) =>
  (h: DatahubHook, rec: Readonly<EngineRecord>): Doc => ({ operationId: newestWork(h, rec)?.id, message });

/** rotateSaltPassword is a secret rotation of the salt password. */
export const saltPassword = (_h: DatahubHook, sent: Doc): Doc => ({ ...sent, secretTypes: ['SALT_PASSWORD'] });

/** An upgrade preparation answers the image it readies the cluster for beside the current one. */
export function upgradePrepared(h: DatahubHook, rec: Readonly<EngineRecord>, req: Doc): Doc {
  const c = asCluster(rec);
  const catalog = c.doc.catalogName;
  return {
    current: imageInfo(imageOf(c), catalog),
    upgradeCandidates: [imageInfo(preparedFor(h, c, req), catalog)],
    operationId: newestWork(h, rec)?.id,
  };
}

/** The cluster's diagnostics collections, newest first. */
export function collections(h: DatahubHook, c: ClusterRec): EngineRecord[] {
  return h
    .records('work')
    .all(c.id)
    .filter((w) => w.activity.action === 'diagnostics' || w.activity.action === 'cmdiagnostics')
    .reverse();
}

/** Cancels the cluster's running collections (and their operation records). */
export function cancelCollections(h: DatahubHook, c: ClusterRec): void {
  const works = h.records('work');
  for (const w of collections(h, c)) {
    if (works.progress(w).done) continue;
    w.activity.cancelledAt = h.ctx.clock.now();
    w.delivered = true;
    works.save(w);
    works.operations().cancel(w.id);
  }
}
