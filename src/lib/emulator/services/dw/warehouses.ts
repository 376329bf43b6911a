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
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { stableUuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { docs, num, obj, optBool, str, strings, text } from '../../values.js';
import { setting } from './account.js';
import * as catalogue from './catalogue.js';
import { NEWEST_RELEASE, rank, release, releaseOf, versionOf, VIZ_RELEASES, type Release } from './catalogue.js';
import { actor, all, cloudOf, clusterOf, entityId, requireRunningCluster, statusSince, type R } from './common.js';
import { applyServiceConfig, changeConfig, currentConfigId, initialConfig, recordConfig } from './configs.js';
import { defaultTemplate, templateById, templateByName, templateResources } from './templates.js';

/**
 * The emulated minutes of a catalog's and a warehouse's actions (their
 * states are the model's): accepted in half a minute and created in 4.5
 * more, an update likewise, a rebuild restarts for a minute and creates for
 * four.
 */
const WORKLOAD_MINUTES = { create: [0.5, 4.5], update: [0.5, 2.5], suspend: 2, start: 3, upgrade: 6, rebuild: [1, 4], delete: 2 } as const;

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

/** `dbcs upgrade-versions`: the newest release. */
export const dbcUpgradeVersions = (_h: Hook, rec: EngineRecord): Doc => upgradeVersions(versionOf(rec), NEWEST_RELEASE.version);

/** `vws upgrade-versions`: the newest release, and the newest its catalog allows (its catalog's). */
export const vwUpgradeVersions = (h: Hook, rec: EngineRecord): Doc =>
  upgradeVersions(versionOf(rec), versionOf(h.records('dbc').byId(String(rec.doc.dbcId)) ?? rec));

/** `data-visualizations upgrade-version`: the newest Data Visualization release. */
export const vizUpgradeVersion = (): Doc => ({ upgradeVersions: { latestVersion: VIZ_RELEASES[VIZ_RELEASES.length - 1] } });

/** A pool of a private cloud cluster: the one asked for, else the cluster's (none on AWS and Azure). */
const poolOf = (cluster: EngineRecord, asked?: unknown): Doc =>
  cloudOf(cluster) ? {} : { resourcePool: str(asked) ?? String(cluster.doc.resourcePool ?? 'root.default') };

/** What starting, upgrading and rebuilding a catalog or warehouse need, by action: a Running cluster (and, for a warehouse, catalog). */
const needsRunning = (noun: string) =>
  Object.fromEntries(
    Object.entries({ start: 'starting', upgrade: 'upgrading', rebuild: 'rebuilding' }).map(([action, doing]) => [
      action,
      (h: Hook, rec: EngineRecord): void => {
        requireRunningCluster(h, clusterOf(h, rec), `${doing} a ${noun}`);
        const catalog = noun === 'Virtual Warehouse' ? h.records('dbc').byId(String(rec.doc.dbcId)) : undefined;
        if (catalog) h.records('dbc').require(catalog, ['Running'], `${doing} a ${noun} on it`);
      },
    ]),
  );

/** The release an upgrade of a catalog or warehouse goes to: one newer than it runs. */
function upgradeTo(rec: EngineRecord, noun: string, version: string): Release {
  const to = release(version);
  if (rank(to.version) <= rank(versionOf(rec)))
    throw failedPrecondition(`${noun} ${nameOf(rec)} runs ${versionOf(rec)}; ${to.version} is not newer`);
  return to;
}

// ---- Database Catalogs -----------------------------------------------------------

/** The catalog fields a new catalog is given (returned): its template, version and creator; its first configuration is recorded. */
function catalogFields(h: Hook, rec: Omit<EngineRecord, 'activity' | 'createdAt'>, cluster: EngineRecord, req: Doc): Doc {
  const templateId = str(req.resourceTemplateId);
  const t = templateId ? templateById(h, templateId, 'dbc') : defaultTemplate(h, 'dbc');
  const imageVersion = str(req.imageVersion) ? release(text(req.imageVersion)).version : catalogue.DEFAULT_RELEASE.version;
  recordConfig(h, cluster, rec, initialConfig('dbc'));
  return { resourceTemplateId: t.id, creator: actor(h), resources: templateResources(t), imageVersion, ...poolOf(cluster) };
}

/** The default catalog an activation makes: named after the environment, gone only with its cluster. */
export function makeDefaultCatalog(h: Hook, cluster: Omit<EngineRecord, 'activity' | 'createdAt'>): void {
  const id = entityId(h, 'warehouse');
  const name = `${String(cluster.doc.name ?? cluster.id)}-default`;
  const crn = h.crn('dbc', id);
  const doc = { id, name, crn, creationDate: new Date(h.ctx.clock.now()).toISOString() };
  const rec = { id, name, crn, scope: cluster.id, ...(cluster.env ? { env: cluster.env } : {}), doc, data: { isDefault: true } };
  Object.assign(rec.doc, catalogFields(h, rec, cluster as EngineRecord, {}));
  h.records('dbc').create(rec);
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
        if (req.component !== undefined) return changeConfig(h, rec, req, 'dbc', `Database Catalog ${nameOf(rec)}`);
        const templateId = str(req.resourceTemplateId);
        if (templateId) {
          const t = templateById(h, templateId, 'dbc');
          Object.assign(rec.doc, { resourceTemplateId: t.id, resources: templateResources(t) });
        }
        changeConfig(h, rec, req, 'dbc', `Database Catalog ${nameOf(rec)}`);
      },
      ...needsRunning('Database Catalog'),
      delete: (h, rec) => {
        if (rec.data?.isDefault === true)
          throw failedPrecondition(
            `Database Catalog ${nameOf(rec)} is the default one of its cluster; it goes when the cluster is deleted`,
          );
        const on = all(h, 'vw', rec.scope).filter((v) => v.doc.dbcId === rec.id);
        if (on.length > 0)
          throw failedPrecondition(
            `Database Catalog ${nameOf(rec)} still has ${on.map((v) => `Virtual Warehouse ${nameOf(v)}`).join(', ')}; delete them first`,
          );
      },
    },
    fill: (h, rec: EngineRecord, req) => catalogFields(h, rec, clusterOf(h, rec), req),
    effect: {
      // A catalog's upgrade goes to a newer release.
      upgrade: (_h, rec: EngineRecord, req) => ({ imageVersion: upgradeTo(rec, 'Database Catalog', text(req.imageVersion)).version }),
    },
    show: (h, rec) => ({ statusChangedAt: statusSince(h, rec) }),
  },
};

// ---- Virtual Warehouses ----------------------------------------------------------------

type WarehouseType = 'hive' | 'impala';
const typeOf = (rec: { doc: Doc }): WarehouseType => (rec.doc.vwType === 'impala' ? 'impala' : 'hive');

/**
 * Where a warehouse answers: its hosts under the environment's Data Warehouse
 * domain. In VwSummaryEndpoints' field order, so that the stored document is
 * its own answer (the engine's conformer takes a kept value that conforms as
 * it is; a describe polled by a waiter then walks none of it).
 */
function endpoints(rec: EngineRecord, cluster: EngineRecord, jwt: boolean): Doc {
  const name = nameOf(rec);
  const domain = `dw-${String(cluster.doc.name ?? cluster.id)}.${cluster.id}.emulator.invalid`;
  const hue = `https://hue-${name}.${domain}/`;
  const jwtUrl = `https://${domain}/jwt/token`;
  if (typeOf(rec) === 'impala') {
    const host = `coordinator-${name}.${domain}`;
    const jdbc = (mech: number) => `jdbc:impala://${host}:443/default;AuthMech=${mech};transportMode=http;httpPath=cliservice;ssl=1`;
    return {
      impalaJdbc: jdbc(3),
      impalaKerberosJdbc: jdbc(1),
      impalaShell: `impala-shell --protocol='hs2-http' --ssl -i '${host}:443' -l`,
      kerberosImpalaShell: `impala-shell --protocol='hs2-http' --ssl -i '${host}:443' -k`,
      hue,
      hostname: host,
      port: 443,
      ...(jwt ? { jwtConnectionString: jdbc(14), jwtTokenGenUrl: jwtUrl } : {}),
    };
  }
  const host = `hs2-${name}.${domain}`;
  const jdbc = `jdbc:hive2://${host}/default;transportMode=http;httpPath=cliservice`;
  return {
    hiveJdbc: `${jdbc};socketTimeout=60;ssl=true;retries=3;`,
    hiveKerberosJdbc: `${jdbc};ssl=true;retries=3;kerberosEnableCanonicalHostnameCheck=false;principal=hive/_HOST@EXAMPLE.INVALID`,
    hue,
    das: `https://das-${name}.${domain}/`,
    hostname: host,
    port: 443,
    ...(jwt ? { jwtConnectionString: `${jdbc};ssl=true;auth=jwt`, jwtTokenGenUrl: jwtUrl } : {}),
  };
}

/** The executor group sets of a request, as the warehouse shows them. */
function groupSets(raw: unknown): Doc | undefined {
  const sets = Object.entries(obj(raw));
  return sets.length === 0 ? undefined : Object.fromEntries(sets.map(([name, s]) => [name, { ...obj(s), groupSetPrefix: name }]));
}

const checkClusters = (min: unknown, max: unknown): void => {
  if (Number(min) > Number(max)) throw invalid(`autoscaling: minClusters ${String(min)} is more than maxClusters ${String(max)}`);
};

/** Autoscaling as a warehouse keeps it, from a create request. */
function autoscalingOf(type: WarehouseType, raw: unknown): Doc {
  const a = obj(raw);
  const [minClusters, maxClusters] = [num(a.minClusters) ?? 1, num(a.maxClusters) ?? 5];
  checkClusters(minClusters, maxClusters);
  const common = {
    minClusters,
    maxClusters,
    disableAutoSuspend: a.disableAutoSuspend === true,
    autoSuspendTimeoutSeconds: num(a.autoSuspendTimeoutSeconds) ?? 300,
  };
  const wait = num(a.hiveScaleWaitTimeSeconds);
  if (type === 'hive')
    return {
      ...common,
      hiveScaleWaitTimeSeconds: wait ?? 60,
      hiveDesiredFreeCapacity: wait !== undefined ? 0 : (num(a.hiveDesiredFreeCapacity) ?? 1),
    };
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
  const mode = str(ha.highAvailabilityMode) ?? str(obj(req.autoscaling).impalaHighAvailabilityMode) ?? 'ACTIVE_PASSIVE';
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

/** Cores and memory of a warehouse of so many nodes of an instance type (a private cloud's node without one). */
function capacity(nodes: number, instanceType: string | undefined): Doc {
  const size = catalogue.INSTANCE_SIZES[instanceType ?? ''] ?? catalogue.PRIVATE_NODE;
  return { nodeCount: nodes, numOfCores: nodes * size.cores, memoryCapacity: nodes * size.memoryMb };
}

/** The nodes of a warehouse: as many as asked for, else its t-shirt size's. */
const nodesOf = (req: Doc, otherwise: number): number =>
  (num(req.nodeCount) ?? 0) > 0
    ? Number(req.nodeCount)
    : str(req.tShirtSize)
      ? (catalogue.T_SHIRT_NODES[text(req.tShirtSize)] ?? 2)
      : otherwise;

/** The instance type a warehouse runs on: the one asked for (allowed on the cloud for the engine), or the default. */
function instanceTypeFor(cluster: EngineRecord, type: WarehouseType, asked: string | undefined): string | undefined {
  const cloud = cloudOf(cluster);
  if (!cloud) {
    if (asked) throw invalid('instance types are chosen on AWS and Azure clusters; this is a private cloud cluster');
    return undefined;
  }
  const allowed = catalogue.INSTANCE_TYPES[cloud][type];
  if (asked && !allowed.includes(asked))
    throw invalid(
      `instance type ${asked} is not allowed for ${type} on ${cloud}; allowed: ${allowed.join(', ')} (see \`dw instance-types describe\`)`,
    );
  return asked ?? allowed[0];
}

/** The fields of a create request that only some clouds and engines take; the zone a warehouse runs in on AWS (asked for, else one of the cluster's). */
function zoneFor(cluster: EngineRecord, type: WarehouseType, rec: { id: string }, req: Doc): string | undefined {
  const cloud = cloudOf(cluster);
  if (req.ebsLLAPSpillGB !== undefined && (type !== 'hive' || cloud !== 'AWS'))
    throw invalid('ebsLLAPSpillGB is for Hive Virtual Warehouses on AWS');
  const zone = str(req.availabilityZone);
  const zones = strings(obj(cluster.doc.awsOptions).availabilityZones);
  if (zone && cloud !== 'AWS') throw invalid('availabilityZone is for AWS clusters');
  if (zone && !zones.includes(zone)) throw invalid(`availability zone ${zone} is not one of the cluster's: ${zones.join(', ')}`);
  const spill = str(obj(req.impalaOptions).spillToS3Uri);
  if (spill && cloud === 'AZURE') throw invalid('spilling to a remote storage is not supported on Azure; use scratchSpaceLimit');
  if (spill && !/^s3a?:\/\/[^/]+/.test(spill)) throw invalid(`impalaOptions: spillToS3Uri ${spill} is not an s3://bucket/path URI`);
  if (str(req.hiveServerHaMode) && cloud) throw invalid('hiveServerHaMode is for private cloud clusters');
  if (cloud !== 'AWS') return undefined;
  return zone ?? zones[parseInt(stableUuid(rec.id).slice(0, 2), 16) % Math.max(1, zones.length)];
}

/** The replicas a warehouse has scheduled and ready in its status. */
function replicas(rec: EngineRecord, status: string): Doc {
  const nodes = Number(rec.doc.nodeCount ?? 0) * Number(obj(rec.doc.autoscalingOptions).minClusters ?? 1);
  const ha = obj(rec.doc.impalaHaSettingsOptions);
  const impalaCoordinators = ha.highAvailabilityMode === 'DISABLED' ? 1 : Math.max(2, Number(ha.numOfActiveCoordinators ?? 1));
  const coordinators = typeOf(rec) === 'impala' ? impalaCoordinators : rec.doc.hiveServerHaMode === 'ACTIVE_PASSIVE' ? 2 : 1;
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
  const f = obj(req.filter);
  const fields = ['vwType', 'dbcId', 'compactor', 'viz'].filter((k) => f[k] !== undefined);
  return all(h, 'vw', h.locate('cluster', req).id).filter((v) => fields.every((k) => v.doc[k] === f[k]));
}

/** A new warehouse: a Running catalog of a Running cluster, a release no newer than its catalog's, its size and endpoints. */
function fillWarehouse(h: Hook, rec: EngineRecord, req: Doc): Doc {
  const cluster = clusterOf(h, rec);
  requireRunningCluster(h, cluster, 'a new Virtual Warehouse');
  const catalog = h.records('dbc').get(text(req.dbcId), cluster.id, `cluster ${cluster.id}`);
  h.records('dbc').require(catalog, ['Running'], 'a new Virtual Warehouse on it');
  const type = typeOf({ doc: req });
  const zone = zoneFor(cluster, type, rec, req);
  const version = str(req.imageVersion) ? release(text(req.imageVersion)) : releaseOf(versionOf(catalog));
  if (!version || rank(version.version) > rank(versionOf(catalog)))
    throw failedPrecondition(
      `Database Catalog ${nameOf(catalog)} runs ${versionOf(catalog)}; a Virtual Warehouse on it runs that release or an older one`,
    );
  const instanceType = instanceTypeFor(cluster, type, str(req.instanceType));
  const jwt = req.platformJwtAuth === true;
  const config = applyServiceConfig(initialConfig(type), req.config ?? {}, type, `Virtual Warehouse ${nameOf(rec)}`, true);
  recordConfig(h, cluster, rec, config);
  const isolation = obj(req.queryIsolationOptions);
  return {
    vwType: type,
    dbcId: catalog.id,
    creator: actor(h),
    imageVersion: version.version,
    cdhVersion: version.runtime,
    ...(instanceType ? { instanceType } : {}),
    ...capacity(nodesOf(req, catalogue.T_SHIRT_NODES.xsmall ?? 2), instanceType),
    ...(zone ? { availabilityZone: zone } : {}),
    endpoints: endpoints(rec, cluster, jwt),
    supportedAuthMethods: { ldap: true, jwt, sso: config.enableSSO },
    ...(jwt ? { jwtAuth: { provider: 'CDP' } } : {}),
    tags: docs(req.tags),
    compactor: false,
    viz: false,
    autoscalingOptions: autoscalingOf(type, req.autoscaling),
    queryIsolationOptions: { maxQueries: num(isolation.maxQueries) ?? 0, maxNodesPerQuery: num(isolation.maxNodesPerQuery) ?? 0 },
    resources: templateResources(defaultTemplate(h, type)),
    ...(type === 'impala'
      ? {
          impalaHaSettingsOptions: haOf(req),
          impalaOptions: obj(req.impalaOptions),
          impalaQueryLog: optBool(req.impalaQueryLog) ?? setting(h, 'dwx.impala.query.log'),
        }
      : { logHiveQueries: optBool(req.logHiveQueries) ?? setting(h, 'dwx.hive.query.history') }),
    ...(cloudOf(cluster) ? {} : { ...poolOf(cluster, req.resourcePool), hiveServerHaMode: str(req.hiveServerHaMode) ?? 'DISABLED' }),
  };
}

/** Autoscaling after an update: what it gives over what it was (zero leaves the number of executor groups as it is). */
function autoscalingUpdated(was: Doc, a: Doc): Doc {
  const next: Doc = { ...was };
  for (const [k, v] of Object.entries(a)) if (k !== 'impalaExecutorGroupSets' && v !== undefined) next[k] = v;
  if (!num(a.minClusters)) next.minClusters = was.minClusters;
  if (!num(a.maxClusters)) next.maxClusters = was.maxClusters;
  if (num(a.hiveScaleWaitTimeSeconds) !== undefined) next.hiveDesiredFreeCapacity = 0;
  const sets = groupSets(a.impalaExecutorGroupSets);
  if (sets) {
    const kept = { ...obj(was.impalaExecutorGroupSets), ...sets };
    for (const [k, s] of Object.entries(sets)) if (obj(s).deleteGroupSet === true) delete kept[k];
    next.impalaExecutorGroupSets = kept;
  }
  checkClusters(next.minClusters, next.maxClusters);
  return next;
}

/** What an update of a warehouse changes beyond its fields: size, autoscaling, high availability, JWT, connectors, configuration. */
function updateWarehouse(h: Hook, rec: EngineRecord, req: Doc): void {
  const what = `Virtual Warehouse ${nameOf(rec)}`;
  if (req.component !== undefined) return changeConfig(h, rec, req, typeOf(rec), what);
  const cluster = clusterOf(h, rec);
  // As it is now: the request's own fields are already on rec.doc.
  const before = h.records('vw').byId(rec.id)?.doc ?? rec.doc;
  Object.assign(rec.doc, capacity(nodesOf(req, Number(before.nodeCount ?? 2)), str(before.instanceType)));
  const a = obj(req.autoscaling);
  if (Object.keys(a).length > 0) rec.doc.autoscalingOptions = autoscalingUpdated(obj(before.autoscalingOptions), a);
  const ha = obj(req.impalaHaSettings);
  if (Object.keys(ha).length > 0 && typeOf(rec) === 'impala') {
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
  // The connectors a warehouse is given (by name), each of its cluster.
  if (req.associatedConnectors !== undefined)
    rec.doc.associatedConnectors = Object.fromEntries(
      Object.entries(obj(req.associatedConnectors)).map(([key, c]) => {
        const name = str(obj(c).name) ?? key;
        const found = h.records('connector').get(name, cluster.id, `cluster ${cluster.id}`);
        return [key, { name: found.name ?? name, configId: str(obj(c).configId) ?? found.id }];
      }),
    );
  changeConfig(h, rec, req, typeOf(rec), what);
}

/** A warehouse's upgrade: on its catalog, to a newer release no newer than the catalog's. */
function upgradeWarehouse(h: Hook, rec: EngineRecord, req: Doc): Doc {
  const catalog = h.records('dbc').byId(String(rec.doc.dbcId));
  if (text(req.dbcId) !== rec.doc.dbcId)
    throw invalid(`Virtual Warehouse ${nameOf(rec)} is on Database Catalog ${String(rec.doc.dbcId)}, not ${text(req.dbcId)}`);
  const to = upgradeTo(rec, 'Virtual Warehouse', text(req.imageVersion));
  if (catalog && rank(to.version) > rank(versionOf(catalog)))
    throw failedPrecondition(
      `Database Catalog ${nameOf(catalog)} runs ${versionOf(catalog)}; upgrade it to ${to.version} before its Virtual Warehouses`,
    );
  return { imageVersion: to.version, cdhVersion: to.runtime, ...(str(req.resourcePool) ? { resourcePool: str(req.resourcePool) } : {}) };
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
      ...needsRunning('Virtual Warehouse'),
    },
    effect: { upgrade: upgradeWarehouse },
    show: (h, rec, view) => ({
      statusChangedAt: statusSince(h, rec),
      replicaStatus: replicas(rec, String(view.status ?? '')),
      configId: currentConfigId(h, rec),
    }),
  },
};

// ---- Data Visualizations ---------------------------------------------------------------

/** INVALID_ARGUMENT unless a version is a Data Visualization release. */
function vizRelease(version: string): string {
  if (!VIZ_RELEASES.includes(version))
    throw invalid(`image version ${version} is not a Data Visualization release; releases: ${VIZ_RELEASES.join(', ')}`);
  return version;
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
    // In a Running cluster, of a Data Visualization release, sized by a viz template (by name).
    fill: (h, rec: EngineRecord, req) => {
      const cluster = clusterOf(h, rec);
      requireRunningCluster(h, cluster, 'a new Data Visualization');
      const version = str(req.imageVersion) ? vizRelease(text(req.imageVersion)) : catalogue.DEFAULT_VIZ_RELEASE;
      const t = str(req.resourceTemplate) ? templateByName(h, text(req.resourceTemplate), 'viz') : defaultTemplate(h, 'viz');
      const config = obj(req.config);
      const groups = { userGroups: strings(config.userGroups), adminGroups: strings(config.adminGroups) };
      return { imageVersion: version, size: t.name, ...groups, ...poolOf(cluster, req.resourcePool) };
    },
    check: {
      update: (_h, rec, req) => {
        const config = obj(req.config);
        if (Array.isArray(config.userGroups)) rec.doc.userGroups = strings(config.userGroups);
        if (Array.isArray(config.adminGroups)) rec.doc.adminGroups = strings(config.adminGroups);
      },
      upgrade: (h, rec: EngineRecord) => requireRunningCluster(h, clusterOf(h, rec), 'upgrading a Data Visualization'),
    },
    effect: {
      // To a newer Data Visualization release.
      upgrade: (_h, rec: EngineRecord, req) => {
        const to = vizRelease(text(req.imageVersion));
        if (VIZ_RELEASES.indexOf(to) <= VIZ_RELEASES.indexOf(String(rec.doc.imageVersion)))
          throw failedPrecondition(`Data Visualization ${nameOf(rec)} runs ${String(rec.doc.imageVersion)}; ${to} is not newer`);
        return { imageVersion: to, ...(str(req.resourcePool) ? { resourcePool: str(req.resourcePool) } : {}) };
      },
    },
  },
};
