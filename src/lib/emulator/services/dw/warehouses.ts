/**
 * Database Catalogs, Virtual Warehouses and Data Visualizations: what each
 * needs of the others and computes from them. A catalog lives in a Running
 * cluster (activation makes its default one, which goes only with the
 * cluster); a warehouse queries a Running catalog of its cluster, runs a
 * release no newer than its catalog's (so a catalog is upgraded first),
 * starts only while its catalog runs, and is sized by its t-shirt size and
 * instance type; a catalog is deleted only once it has no warehouses.
 * Everything a describe shows is computed here once (endpoints, cores and
 * memory, autoscaling, high availability) or on every read (replicas, when
 * the status changed, the configuration in use).
 */
import { failedPrecondition, invalid } from '../../errors.js';
import type { Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { stableUuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { docs, num, obj, optBool, str, strings, text } from '../../values.js';
import {
  DEFAULT_RELEASE,
  DEFAULT_T_SHIRT,
  DEFAULT_VIZ_RELEASE,
  INSTANCE_SIZES,
  INSTANCE_TYPES,
  NEWEST_RELEASE,
  PRIVATE_NODE,
  rank,
  RELEASES,
  releaseOf,
  T_SHIRT_NODES,
  VIZ_RELEASES,
} from './catalogue.js';
import { setting } from './account.js';
import { actor, cloudOf, clusterOf, entityId, requireRunningCluster, statusSince, type R } from './common.js';
import {
  applyComponentSet,
  applyServiceConfig,
  currentConfig,
  initialConfig,
  currentConfigId,
  recordConfig,
  versionsOf,
  type ConfigKind,
} from './configs.js';
import { defaultTemplate, templateById, templateByName, templateResources } from './templates.js';

/**
 * The emulated minutes of a catalog's and a warehouse's actions (their
 * states are the model's): accepted in half a minute and created in 4.5
 * more, an update likewise, a rebuild restarts for a minute and creates for
 * four.
 */
const WORKLOAD_MINUTES = {
  create: [0.5, 4.5],
  update: [0.5, 2.5],
  suspend: 2,
  start: 3,
  upgrade: 6,
  rebuild: [1, 4],
  delete: 2,
} as const;

/** The release a version names, or INVALID_ARGUMENT listing those there are. */
function release(version: string): { version: string; runtime: string } {
  const r = releaseOf(version);
  if (!r) throw invalid(`image version ${version} is not a Data Warehouse release; releases: ${RELEASES.map((x) => x.version).join(', ')}`);
  return r;
}

export const versionOf = (rec: EngineRecord): string => String(rec.doc.imageVersion ?? DEFAULT_RELEASE.version);

/** What an upgrade can go to: the newest release, and the newest one no newer than `ceiling` (what it is compatible with). */
function upgradeVersions(current: string, ceiling: string): Doc {
  const compatible = releaseOf(rank(ceiling) > rank(current) ? ceiling : current) ?? NEWEST_RELEASE;
  return {
    latestVersion: NEWEST_RELEASE.version,
    compatibleVersion: compatible.version,
    latestCDPVersion: NEWEST_RELEASE.runtime,
    compatibleCDPVersion: compatible.runtime,
  };
}

/** `dbcs|vws config describe`: the configuration a catalog or warehouse runs with. */
export const configNow = (h: Hook, rec: EngineRecord): Doc => ({ config: currentConfig(h, rec.scope, rec.id).config });

/** `dbcs|vws config history`: its configuration's versions, newest first. */
export const configHistory = (h: Hook, rec: EngineRecord): Doc => ({ configHistory: versionsOf(h, rec.scope, rec.id).map((c) => c.doc) });

/** `dbcs upgrade-versions`: the newest release. */
export const dbcUpgradeVersions = (_h: Hook, rec: EngineRecord): Doc => upgradeVersions(versionOf(rec), NEWEST_RELEASE.version);

/** `vws upgrade-versions`: the newest release, and the newest its catalog allows. */
export const vwUpgradeVersions = (h: Hook, rec: EngineRecord): Doc => upgradeVersions(versionOf(rec), compatibleVersion(h, rec));

/** `data-visualizations upgrade-version`: the newest Data Visualization release. */
export const vizUpgradeVersion = (): Doc => ({ upgradeVersions: { latestVersion: VIZ_RELEASES[VIZ_RELEASES.length - 1] } });

// ---- Database Catalogs -----------------------------------------------------------

/** The catalog fields a new catalog is given (returned): its template, version and creator; its first configuration is recorded. */
function catalogFields(h: Hook, rec: Omit<EngineRecord, 'activity' | 'createdAt'>, cluster: EngineRecord, req: Doc): Doc {
  const templateId = str(req.resourceTemplateId);
  const t = templateId ? templateById(h, templateId, 'dbc') : defaultTemplate(h, 'dbc');
  const version = str(req.imageVersion) ? release(text(req.imageVersion)).version : DEFAULT_RELEASE.version;
  recordConfig(h, cluster, rec, initialConfig('dbc'));
  return {
    resourceTemplateId: t.id,
    creator: actor(h),
    resources: templateResources(t),
    imageVersion: version,
    ...(cloudOf(cluster) ? {} : { resourcePool: String(cluster.doc.resourcePool ?? 'root.default') }),
  };
}

/** The default catalog an activation makes: named after the environment, gone only with its cluster. */
export function makeDefaultCatalog(h: Hook, cluster: Omit<EngineRecord, 'activity' | 'createdAt'>): void {
  const id = entityId(h, 'warehouse');
  const name = `${String(cluster.doc.name ?? cluster.id)}-default`;
  const recCrn = h.crn('dbc', id);
  const rec = {
    id,
    name,
    crn: recCrn,
    scope: cluster.id,
    ...(cluster.env ? { env: cluster.env } : {}),
    doc: { id, name, crn: recCrn, creationDate: new Date(h.ctx.clock.now()).toISOString() },
    data: { isDefault: true },
  };
  Object.assign(rec.doc, catalogFields(h, rec, cluster as EngineRecord, {}));
  h.records('dbc').create(rec);
}

/** The warehouses that query a catalog. */
const warehousesOn = (h: Hook, dbc: EngineRecord): EngineRecord[] =>
  h
    .records('vw')
    .all(dbc.scope)
    .filter((v) => v.doc.dbcId === dbc.id);

/** What starting, upgrading and rebuilding a catalog or warehouse need: a Running cluster (and catalog). */
const doing: Readonly<Record<string, string>> = { start: 'starting', upgrade: 'upgrading', rebuild: 'rebuilding' };

function checkCatalogAction(action: string) {
  return (h: Hook, rec: EngineRecord): void => requireRunningCluster(h, clusterOf(h, rec), `${doing[action] ?? action} a Database Catalog`);
}

/** A catalog's upgrade goes to a newer release. */
function upgradeCatalog(_h: Hook, rec: EngineRecord, req: Doc): Doc {
  const to = release(text(req.imageVersion));
  if (rank(to.version) <= rank(versionOf(rec)))
    throw failedPrecondition(`Database Catalog ${rec.name ?? rec.id} runs ${versionOf(rec)}; ${to.version} is not newer`);
  return { imageVersion: to.version };
}

/** A Database Catalog: its id `warehouse-<seconds>-<4>`; the default one goes only with its cluster. */
export const dbc: Resource<R> = {
  noun: 'Database Catalog',
  keys: ['dbcId'],
  lives: { in: 'parent', parent: 'cluster', part: 'data.isDefault' },
  ids: { style: 'stamped', prefix: 'warehouse' },
  idempotent: ['suspend', 'start'],
  minutes: WORKLOAD_MINUTES,
  hooks: {
    check: {
      create: (h, rec, req) => {
        requireRunningCluster(h, clusterOf(h, rec), 'a new Database Catalog');
        if (req.isDefault === true)
          throw invalid('creating a default Database Catalog is no longer allowed: activating the cluster made its default one');
      },
      update: (h, rec: EngineRecord, req) => {
        const cluster = clusterOf(h, rec);
        const what = `Database Catalog ${rec.name ?? rec.id}`;
        const current = currentConfig(h, cluster.id, rec.id).config;
        if (req.component !== undefined) {
          recordConfig(h, cluster, rec, applyComponentSet(current, text(req.component), req.set, 'dbc', what));
          return;
        }
        const templateId = str(req.resourceTemplateId);
        if (templateId) {
          const t = templateById(h, templateId, 'dbc');
          Object.assign(rec.doc, { resourceTemplateId: t.id, resources: templateResources(t) });
        }
        if (req.config !== undefined) recordConfig(h, cluster, rec, applyServiceConfig(current, req.config, 'dbc', what));
      },
      start: checkCatalogAction('start'),
      upgrade: checkCatalogAction('upgrade'),
      rebuild: checkCatalogAction('rebuild'),
      delete: (h, rec) => {
        if (rec.data?.isDefault === true)
          throw failedPrecondition(
            `Database Catalog ${rec.name ?? rec.id} is the default one of its cluster; it goes when the cluster is deleted`,
          );
        const on = warehousesOn(h, rec);
        if (on.length > 0)
          throw failedPrecondition(
            `Database Catalog ${rec.name ?? rec.id} still has ${on.map((v) => `Virtual Warehouse ${v.name ?? v.id}`).join(', ')}; delete them first`,
          );
      },
    },
    fill: (h, rec: EngineRecord, req) => catalogFields(h, rec, clusterOf(h, rec), req),
    effect: { upgrade: upgradeCatalog },
    show: (h, rec) => ({ statusChangedAt: statusSince(h, rec) }),
  },
};

// ---- Virtual Warehouses ----------------------------------------------------------------

type WarehouseType = 'hive' | 'impala';
const typeOf = (rec: EngineRecord): WarehouseType => (rec.doc.vwType === 'impala' ? 'impala' : 'hive');

/**
 * Where a warehouse answers: its hosts under the environment's Data Warehouse
 * domain. In VwSummaryEndpoints' field order, so that the stored document is
 * its own answer (the engine's conformer takes a kept value that conforms as
 * it is; a describe polled by a waiter then walks none of it).
 */
function endpoints(rec: EngineRecord, cluster: EngineRecord, jwt: boolean): Doc {
  const name = rec.name ?? rec.id;
  const domain = `dw-${String(cluster.doc.name ?? cluster.id)}.${cluster.id}.emulator.invalid`;
  const hue = `https://hue-${name}.${domain}/`;
  if (typeOf(rec) === 'impala') {
    const host = `coordinator-${name}.${domain}`;
    return {
      impalaJdbc: `jdbc:impala://${host}:443/default;AuthMech=3;transportMode=http;httpPath=cliservice;ssl=1`,
      impalaKerberosJdbc: `jdbc:impala://${host}:443/default;AuthMech=1;transportMode=http;httpPath=cliservice;ssl=1`,
      impalaShell: `impala-shell --protocol='hs2-http' --ssl -i '${host}:443' -l`,
      kerberosImpalaShell: `impala-shell --protocol='hs2-http' --ssl -i '${host}:443' -k`,
      hue,
      hostname: host,
      port: 443,
      ...(jwt ? { jwtConnectionString: `jdbc:impala://${host}:443/default;AuthMech=14;transportMode=http;httpPath=cliservice;ssl=1` } : {}),
      ...(jwt ? { jwtTokenGenUrl: `https://${domain}/jwt/token` } : {}),
    };
  }
  const host = `hs2-${name}.${domain}`;
  return {
    hiveJdbc: `jdbc:hive2://${host}/default;transportMode=http;httpPath=cliservice;socketTimeout=60;ssl=true;retries=3;`,
    hiveKerberosJdbc: `jdbc:hive2://${host}/default;transportMode=http;httpPath=cliservice;ssl=true;retries=3;kerberosEnableCanonicalHostnameCheck=false;principal=hive/_HOST@EXAMPLE.INVALID`,
    hue,
    das: `https://das-${name}.${domain}/`,
    hostname: host,
    port: 443,
    ...(jwt ? { jwtConnectionString: `jdbc:hive2://${host}/default;transportMode=http;httpPath=cliservice;ssl=true;auth=jwt` } : {}),
    ...(jwt ? { jwtTokenGenUrl: `https://${domain}/jwt/token` } : {}),
  };
}

/** The executor group sets of a request, as the warehouse shows them. */
function groupSets(raw: unknown): Doc | undefined {
  const sets = obj(raw);
  if (Object.keys(sets).length === 0) return undefined;
  return Object.fromEntries(Object.entries(sets).map(([name, s]) => [name, { ...obj(s), groupSetPrefix: name }]));
}

/** Autoscaling as a warehouse keeps it, from a create request. */
function autoscalingOf(type: WarehouseType, raw: unknown): Doc {
  const a = obj(raw);
  const min = num(a.minClusters) ?? 1;
  const max = num(a.maxClusters) ?? 5;
  if (min > max) throw invalid(`autoscaling: minClusters ${min} is more than maxClusters ${max}`);
  const common = {
    minClusters: min,
    maxClusters: max,
    disableAutoSuspend: a.disableAutoSuspend === true,
    autoSuspendTimeoutSeconds: num(a.autoSuspendTimeoutSeconds) ?? 300,
  };
  if (type === 'hive') {
    const wait = num(a.hiveScaleWaitTimeSeconds);
    return {
      ...common,
      hiveScaleWaitTimeSeconds: wait ?? 60,
      hiveDesiredFreeCapacity: wait !== undefined ? 0 : (num(a.hiveDesiredFreeCapacity) ?? 1),
    };
  }
  const sets = groupSets(a.impalaExecutorGroupSets);
  return {
    ...common,
    impalaScaleUpDelaySeconds: num(a.impalaScaleUpDelaySeconds) ?? 20,
    impalaScaleDownDelaySeconds: num(a.impalaScaleDownDelaySeconds) ?? 300,
    ...(sets ? { impalaExecutorGroupSets: sets } : {}),
  };
}

/** Impala high availability of a create request (the top-level settings win over the deprecated autoscaling ones). */
function haOf(req: Doc): Doc {
  const ha = obj(req.impalaHaSettings);
  const legacy = obj(req.autoscaling);
  const mode = str(ha.highAvailabilityMode) ?? str(legacy.impalaHighAvailabilityMode) ?? 'ACTIVE_PASSIVE';
  return {
    highAvailabilityMode: mode,
    enableShutdownOfCoordinator: optBool(ha.enableShutdownOfCoordinator) ?? false,
    shutdownOfCoordinatorDelaySeconds: num(ha.shutdownOfCoordinatorDelaySeconds) ?? 360,
    numOfActiveCoordinators: num(ha.numOfActiveCoordinators) ?? (mode === 'ACTIVE_ACTIVE' ? 2 : 1),
    enableCatalogHighAvailability: optBool(ha.enableCatalogHighAvailability) ?? mode !== 'DISABLED',
    enableStatestoreHighAvailability: optBool(ha.enableStatestoreHighAvailability) ?? mode !== 'DISABLED',
    impalaEnableGlobalAdmissionController: ha.impalaEnableGlobalAdmissionController === true,
  };
}

/** Cores and memory of a warehouse of so many nodes of an instance type. */
function capacity(nodes: number, instanceType: string | undefined): Doc {
  const size = (instanceType ? INSTANCE_SIZES[instanceType] : undefined) ?? PRIVATE_NODE;
  return { nodeCount: nodes, numOfCores: nodes * size.cores, memoryCapacity: nodes * size.memoryMb };
}

/** The instance type a warehouse runs on: the one asked for (allowed on the cloud for the engine), or the default. */
function instanceTypeFor(cluster: EngineRecord, type: WarehouseType, asked: string | undefined): string | undefined {
  const cloud = cloudOf(cluster);
  if (!cloud) {
    if (asked) throw invalid('instance types are chosen on AWS and Azure clusters; this is a private cloud cluster');
    return undefined;
  }
  const allowed = INSTANCE_TYPES[cloud][type];
  if (asked && !allowed.includes(asked))
    throw invalid(
      `instance type ${asked} is not allowed for ${type} on ${cloud}; allowed: ${allowed.join(', ')} (see \`dw instance-types describe\`)`,
    );
  return asked ?? allowed[0];
}

function checkCreate(cluster: EngineRecord, type: WarehouseType, req: Doc): void {
  const cloud = cloudOf(cluster);
  if (req.ebsLLAPSpillGB !== undefined && (type !== 'hive' || cloud !== 'AWS'))
    throw invalid('ebsLLAPSpillGB is for Hive Virtual Warehouses on AWS');
  const zone = str(req.availabilityZone);
  if (zone) {
    if (cloud !== 'AWS') throw invalid('availabilityZone is for AWS clusters');
    const zones = strings(obj(cluster.doc.awsOptions).availabilityZones);
    if (!zones.includes(zone)) throw invalid(`availability zone ${zone} is not one of the cluster's: ${zones.join(', ')}`);
  }
  const spill = str(obj(req.impalaOptions).spillToS3Uri);
  if (spill && cloud === 'AZURE') throw invalid('spilling to a remote storage is not supported on Azure; use scratchSpaceLimit');
  if (spill && !/^s3a?:\/\/[^/]+/.test(spill)) throw invalid(`impalaOptions: spillToS3Uri ${spill} is not an s3://bucket/path URI`);
  if (str(req.hiveServerHaMode) && cloud) throw invalid('hiveServerHaMode is for private cloud clusters');
}

/** The zone a warehouse runs in on AWS: the one asked for, else one of the cluster's. */
function zoneFor(cluster: EngineRecord, rec: { id: string }, asked: string | undefined): string | undefined {
  if (cloudOf(cluster) !== 'AWS') return undefined;
  const zones = strings(obj(cluster.doc.awsOptions).availabilityZones);
  return asked ?? zones[parseInt(stableUuid(rec.id).slice(0, 2), 16) % Math.max(1, zones.length)];
}

/** The connectors a warehouse is given (by name), each of its cluster. */
function connectorsFor(h: Hook, cluster: EngineRecord, raw: unknown): Doc {
  const out: Doc = {};
  for (const [key, c] of Object.entries(obj(raw))) {
    const name = str(obj(c).name) ?? key;
    const found = h.records('connector').get(name, cluster.id, `cluster ${cluster.id}`);
    out[key] = { name: found.name ?? name, configId: str(obj(c).configId) ?? found.id };
  }
  return out;
}

/** The replicas a warehouse has scheduled and ready in its status. */
function replicas(rec: EngineRecord, status: string): Doc {
  const nodes = Number(rec.doc.nodeCount ?? 0) * Number(obj(rec.doc.autoscalingOptions).minClusters ?? 1);
  const ha = obj(rec.doc.impalaHaSettingsOptions);
  const coordinators =
    typeOf(rec) === 'impala'
      ? ha.highAvailabilityMode === 'DISABLED'
        ? 1
        : Math.max(2, Number(ha.numOfActiveCoordinators ?? 1))
      : rec.doc.hiveServerHaMode === 'ACTIVE_PASSIVE'
        ? 2
        : 1;
  const up = ['Running', 'Updating', 'PreUpdate', 'Upgrading'].includes(status);
  const scheduled = status !== 'Stopped';
  return {
    totalExecutorReplicas: scheduled ? nodes : 0,
    readyExecutorReplicas: up ? nodes : 0,
    totalCoordinatorReplicas: scheduled ? coordinators : 0,
    readyCoordinatorReplicas: up ? coordinators : 0,
  };
}

/** `vws list`: the warehouses of a cluster, by the filter's type, catalog, compactor and visualization. */
export function listVws(h: Hook, req: Doc): EngineRecord[] {
  const cluster = h.locate('cluster', req);
  const f = obj(req.filter);
  return h
    .records('vw')
    .all(cluster.id)
    .filter(
      (v) =>
        (f.vwType === undefined || v.doc.vwType === f.vwType) &&
        (f.dbcId === undefined || v.doc.dbcId === f.dbcId) &&
        (f.compactor === undefined || v.doc.compactor === f.compactor) &&
        (f.viz === undefined || v.doc.viz === f.viz),
    );
}

/** A new warehouse: a Running catalog of a Running cluster, a release no newer than its catalog's, its size and endpoints. */
function fillWarehouse(h: Hook, rec: EngineRecord, req: Doc): Doc {
  const cluster = clusterOf(h, rec);
  requireRunningCluster(h, cluster, 'a new Virtual Warehouse');
  const catalog = h.records('dbc').get(text(req.dbcId), cluster.id, `cluster ${cluster.id}`);
  h.records('dbc').require(catalog, ['Running'], 'a new Virtual Warehouse on it');
  const type: WarehouseType = req.vwType === 'impala' ? 'impala' : 'hive';
  checkCreate(cluster, type, req);
  const version = str(req.imageVersion) ? release(text(req.imageVersion)) : releaseOf(versionOf(catalog));
  if (!version || rank(version.version) > rank(versionOf(catalog)))
    throw failedPrecondition(
      `Database Catalog ${catalog.name ?? catalog.id} runs ${versionOf(catalog)}; a Virtual Warehouse on it runs that release or an older one`,
    );
  const instanceType = instanceTypeFor(cluster, type, str(req.instanceType));
  const nodes = (num(req.nodeCount) ?? 0) > 0 ? Number(req.nodeCount) : (T_SHIRT_NODES[str(req.tShirtSize) ?? DEFAULT_T_SHIRT] ?? 2);
  const jwt = req.platformJwtAuth === true;
  const config = applyServiceConfig(
    initialConfig(type as ConfigKind),
    req.config ?? {},
    type,
    `Virtual Warehouse ${rec.name ?? rec.id}`,
    true,
  );
  const zone = zoneFor(cluster, rec, str(req.availabilityZone));
  recordConfig(h, cluster, rec, config);
  return {
    vwType: type,
    dbcId: catalog.id,
    creator: actor(h),
    imageVersion: version.version,
    cdhVersion: version.runtime,
    ...(instanceType ? { instanceType } : {}),
    ...capacity(nodes, instanceType),
    ...(zone ? { availabilityZone: zone } : {}),
    endpoints: endpoints(rec as EngineRecord, cluster, jwt),
    supportedAuthMethods: { ldap: true, jwt, sso: config.enableSSO },
    ...(jwt ? { jwtAuth: { provider: 'CDP' } } : {}),
    tags: docs(req.tags),
    compactor: false,
    viz: false,
    autoscalingOptions: autoscalingOf(type, req.autoscaling),
    queryIsolationOptions: {
      maxQueries: num(obj(req.queryIsolationOptions).maxQueries) ?? 0,
      maxNodesPerQuery: num(obj(req.queryIsolationOptions).maxNodesPerQuery) ?? 0,
    },
    resources: templateResources(defaultTemplate(h, type)),
    ...(type === 'impala'
      ? {
          impalaHaSettingsOptions: haOf(req),
          impalaOptions: obj(req.impalaOptions),
          impalaQueryLog: optBool(req.impalaQueryLog) ?? setting(h, 'dwx.impala.query.log'),
        }
      : { logHiveQueries: optBool(req.logHiveQueries) ?? setting(h, 'dwx.hive.query.history') }),
    ...(cloudOf(cluster)
      ? {}
      : {
          resourcePool: str(req.resourcePool) ?? String(cluster.doc.resourcePool ?? 'root.default'),
          hiveServerHaMode: str(req.hiveServerHaMode) ?? 'DISABLED',
        }),
  };
}

/** What an update of a warehouse changes beyond its fields: size, autoscaling, high availability, JWT, connectors, configuration. */
function updateWarehouse(h: Hook, rec: EngineRecord, req: Doc): void {
  const cluster = clusterOf(h, rec);
  const type = typeOf(rec);
  const what = `Virtual Warehouse ${rec.name ?? rec.id}`;
  const current = currentConfig(h, cluster.id, rec.id).config;
  if (req.component !== undefined) {
    recordConfig(h, cluster, rec, applyComponentSet(current, text(req.component), req.set, type, what));
    return;
  }
  // As it is now: the request's own fields are already on rec.doc.
  const before = h.records('vw').byId(rec.id)?.doc ?? rec.doc;
  const size = str(req.tShirtSize);
  const nodes = (num(req.nodeCount) ?? 0) > 0 ? Number(req.nodeCount) : size ? (T_SHIRT_NODES[size] ?? 2) : Number(before.nodeCount ?? 2);
  Object.assign(rec.doc, capacity(nodes, str(before.instanceType)));
  const a = obj(req.autoscaling);
  if (Object.keys(a).length > 0) {
    const was = obj(before.autoscalingOptions);
    const next: Doc = { ...was };
    for (const [k, v] of Object.entries(a)) if (k !== 'impalaExecutorGroupSets' && v !== undefined) next[k] = v;
    // Zero leaves the number of executor groups as it is.
    if (!num(a.minClusters)) next.minClusters = was.minClusters;
    if (!num(a.maxClusters)) next.maxClusters = was.maxClusters;
    if (num(a.hiveScaleWaitTimeSeconds) !== undefined) next.hiveDesiredFreeCapacity = 0;
    const sets = groupSets(a.impalaExecutorGroupSets);
    if (sets) {
      const all = { ...obj(was.impalaExecutorGroupSets), ...sets };
      for (const [k, s] of Object.entries(sets)) if (obj(s).deleteGroupSet === true) delete all[k];
      next.impalaExecutorGroupSets = all;
    }
    if (Number(next.minClusters) > Number(next.maxClusters))
      throw invalid(`autoscaling: minClusters ${String(next.minClusters)} is more than maxClusters ${String(next.maxClusters)}`);
    rec.doc.autoscalingOptions = next;
  }
  const ha = obj(req.impalaHaSettings);
  if (Object.keys(ha).length > 0 && type === 'impala') {
    const was = obj(before.impalaHaSettingsOptions);
    if (ha.impalaEnableGlobalAdmissionController === true && was.highAvailabilityMode !== 'ACTIVE_ACTIVE')
      throw failedPrecondition(
        `the global admission controller needs high availability mode ACTIVE_ACTIVE; ${what} runs ${String(was.highAvailabilityMode)}`,
      );
    rec.doc.impalaHaSettingsOptions = { ...was, ...ha };
  }
  if (req.platformJwtAuth !== undefined) {
    const jwt = req.platformJwtAuth === true;
    rec.doc.endpoints = endpoints(rec, cluster, jwt);
    rec.doc.supportedAuthMethods = { ...obj(before.supportedAuthMethods), jwt };
    if (jwt) rec.doc.jwtAuth = { provider: 'CDP' };
  }
  if (req.associatedConnectors !== undefined) rec.doc.associatedConnectors = connectorsFor(h, cluster, req.associatedConnectors);
  if (req.config !== undefined) recordConfig(h, cluster, rec, applyServiceConfig(current, req.config, type, what));
}

/** Starting, upgrading and rebuilding a warehouse need its cluster and its catalog Running. */
function checkWarehouseAction(action: string) {
  return (h: Hook, rec: EngineRecord): void => {
    requireRunningCluster(h, clusterOf(h, rec), `${doing[action] ?? action} a Virtual Warehouse`);
    const catalog = h.records('dbc').byId(String(rec.doc.dbcId));
    if (catalog) h.records('dbc').require(catalog, ['Running'], `${doing[action] ?? action} a Virtual Warehouse on it`);
  };
}

/** A warehouse's upgrade: on its catalog, to a newer release no newer than the catalog's. */
function upgradeWarehouse(h: Hook, rec: EngineRecord, req: Doc): Doc {
  const catalog = h.records('dbc').byId(String(rec.doc.dbcId));
  if (text(req.dbcId) !== rec.doc.dbcId)
    throw invalid(`Virtual Warehouse ${rec.name ?? rec.id} is on Database Catalog ${String(rec.doc.dbcId)}, not ${text(req.dbcId)}`);
  const to = release(text(req.imageVersion));
  if (rank(to.version) <= rank(versionOf(rec)))
    throw failedPrecondition(`Virtual Warehouse ${rec.name ?? rec.id} runs ${versionOf(rec)}; ${to.version} is not newer`);
  if (catalog && rank(to.version) > rank(versionOf(catalog)))
    throw failedPrecondition(
      `Database Catalog ${catalog.name ?? catalog.id} runs ${versionOf(catalog)}; upgrade it to ${to.version} before its Virtual Warehouses`,
    );
  return {
    imageVersion: to.version,
    cdhVersion: to.runtime,
    ...(str(req.resourcePool) ? { resourcePool: str(req.resourcePool) } : {}),
  };
}

/** A Virtual Warehouse: its id tells its engine (`impala-...`, `compute-...` for Hive). */
export const vw: Resource<R> = {
  noun: 'Virtual Warehouse',
  keys: ['vwId'],
  lives: { in: 'parent', parent: 'cluster' },
  ids: { style: 'stamped', prefix: { field: 'vwType', map: { impala: 'impala' }, otherwise: 'compute' } },
  idempotent: ['suspend', 'start'],
  minutes: WORKLOAD_MINUTES,
  hooks: {
    fill: fillWarehouse,
    check: {
      update: updateWarehouse,
      start: checkWarehouseAction('start'),
      upgrade: checkWarehouseAction('upgrade'),
      rebuild: checkWarehouseAction('rebuild'),
    },
    effect: { upgrade: upgradeWarehouse },
    show: (h, rec, view) => ({
      statusChangedAt: statusSince(h, rec),
      replicaStatus: replicas(rec, String(view.status ?? '')),
      configId: currentConfigId(h, rec),
    }),
  },
};

/** The newest release a warehouse can go to: its catalog's. */
function compatibleVersion(h: Hook, rec: EngineRecord): string {
  const catalog = h.records('dbc').byId(String(rec.doc.dbcId));
  return catalog ? versionOf(catalog) : versionOf(rec);
}

// ---- Data Visualizations ---------------------------------------------------------------

/** A new visualization: in a Running cluster, of a Data Visualization release, sized by a viz template (by name). */
function fillVisualization(h: Hook, rec: EngineRecord, req: Doc): Doc {
  const cluster = clusterOf(h, rec);
  requireRunningCluster(h, cluster, 'a new Data Visualization');
  const asked = str(req.imageVersion);
  if (asked && !VIZ_RELEASES.includes(asked))
    throw invalid(`image version ${asked} is not a Data Visualization release; releases: ${VIZ_RELEASES.join(', ')}`);
  const t = str(req.resourceTemplate) ? templateByName(h, text(req.resourceTemplate), 'viz') : defaultTemplate(h, 'viz');
  const config = obj(req.config);
  return {
    imageVersion: asked ?? DEFAULT_VIZ_RELEASE,
    size: t.name,
    userGroups: strings(config.userGroups),
    adminGroups: strings(config.adminGroups),
    ...(cloudOf(cluster) ? {} : { resourcePool: str(req.resourcePool) ?? String(cluster.doc.resourcePool ?? 'root.default') }),
  };
}

/** A visualization's upgrade goes to a newer Data Visualization release. */
function upgradeVisualization(_h: Hook, rec: EngineRecord, req: Doc): Doc {
  const to = text(req.imageVersion);
  const at = VIZ_RELEASES.indexOf(String(rec.doc.imageVersion));
  if (!VIZ_RELEASES.includes(to))
    throw invalid(`image version ${to} is not a Data Visualization release; releases: ${VIZ_RELEASES.join(', ')}`);
  if (VIZ_RELEASES.indexOf(to) <= at)
    throw failedPrecondition(`Data Visualization ${rec.name ?? rec.id} runs ${String(rec.doc.imageVersion)}; ${to} is not newer`);
  return { imageVersion: to, ...(str(req.resourcePool) ? { resourcePool: str(req.resourcePool) } : {}) };
}

/**
 * A Data Visualization: its id `viz-<seconds>-<4>`. A cluster is kept only
 * by its catalogs and warehouses (see its delete's force); visualizations
 * go with it. Its upgrade is half a minute of PreUpgrade, then Upgrading.
 */
export const dataVisualization: Resource<R> = {
  noun: 'Data Visualization',
  keys: ['dataVisualizationId'],
  lives: { in: 'parent', parent: 'cluster', part: true },
  ids: { style: 'stamped', prefix: 'viz' },
  minutes: { create: [0.5, 4.5], update: [0.5, 2.5], upgrade: [0.5, 5.5], delete: 2 },
  hooks: {
    fill: fillVisualization,
    check: {
      update: (_h, rec, req) => {
        const config = obj(req.config);
        if (Array.isArray(config.userGroups)) rec.doc.userGroups = strings(config.userGroups);
        if (Array.isArray(config.adminGroups)) rec.doc.adminGroups = strings(config.adminGroups);
      },
      upgrade: (h, rec: EngineRecord) => requireRunningCluster(h, clusterOf(h, rec), 'upgrading a Data Visualization'),
    },
    effect: { upgrade: upgradeVisualization },
  },
};
