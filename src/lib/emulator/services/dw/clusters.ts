/**
 * Data Warehouse clusters: the activation of the service in one
 * environment (one cluster each), on AWS, Azure or a private cloud. The
 * environment must be AVAILABLE and on the cloud the activation is for; the
 * subnets asked for must be the environment's. Activation makes the
 * cluster's default Database Catalog. A cluster with other catalogs or with
 * Virtual Warehouses is deleted only with `force`, which removes them with
 * it and goes on past a failing step. Its kubeconfig, the latest versions
 * of what runs on it, and a backup of its settings (restorable into it or
 * into another environment) are computed from its records.
 */
import { createHash } from 'node:crypto';
import { alreadyExists, failedPrecondition, invalid } from '../../errors.js';
import type { Hook, Resource } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { uuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { b64, docs, iso, obj, str, strings, text } from '../../values.js';
import { kubeconfig as kubeconfigDocument, type KubeconfigSpec } from '../../shared/kubeconfig.js';
import type { EnvironmentView } from '../../world/contracts.js';
import { DEFAULT_RELEASE, INSTANCE_TYPES, NEWEST_RELEASE, rank, versionOf } from './catalogue.js';
import { actor, cloudOf, type R } from './common.js';
import { applyServiceConfig, configDiff, currentConfig, type ServiceConfig } from './configs.js';
import { logEvent } from './events.js';
import { templatesOf } from './templates.js';
import { makeDefaultCatalog } from './warehouses.js';

type Form = 'AWS' | 'AZURE' | 'PRIVATE';

/** Which kind of activation a request is, checked against its environment's cloud. */
function formOf(op: string, env: EnvironmentView, req: Doc): Form {
  if (op === 'createPrivateCluster' || (op === 'createCluster' && req.privateCloudOptions !== undefined)) return 'PRIVATE';
  if (env.cloudPlatform === 'GCP')
    throw invalid(`environment ${env.environmentName} is on GCP; the Data Warehouse is activated in AWS and Azure environments`);
  const want: Form = op === 'createAwsCluster' ? 'AWS' : op === 'createAzureCluster' ? 'AZURE' : env.cloudPlatform;
  if (want !== env.cloudPlatform)
    throw invalid(
      `environment ${env.environmentName} is on ${env.cloudPlatform}; activate it with \`dw clusters create ${env.cloudPlatform === 'AWS' ? 'aws' : 'azure'}\``,
    );
  const [other, otherCloud, cloud] = want === 'AWS' ? ['azureOptions', 'Azure', 'AWS'] : ['awsOptions', 'AWS', 'Azure'];
  if (op === 'createCluster' && req[other] !== undefined)
    throw invalid(`${other} are for ${otherCloud} environments; ${env.environmentName} is on ${cloud}`);
  return want;
}

/** The fields of a request that are strings other than empty, as they are. */
const optional = (o: Doc, ...fields: string[]): Doc => Object.fromEntries(fields.flatMap((f) => (str(o[f]) ? [[f, str(o[f])]] : [])));

const CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;

/** CIDRs as the cluster shows them (one comma-separated string), each checked. */
function cidrs(list: readonly string[], field: string): string {
  for (const c of list) {
    const m = CIDR.exec(c.trim());
    if (!m || m.slice(1, 5).some((x) => Number(x) > 255) || Number(m[5]) > 32)
      throw invalid(`${field}: ${c} is not an IP address CIDR such as 203.0.113.0/24`);
  }
  return list.map((c) => c.trim()).join(',');
}

/** A CIDR list field of the cluster, when it has any. */
const allowed = (field: string, list: readonly string[]): Doc => (list.length > 0 ? { [field]: cidrs(list, field) } : {});

/** The environment's subnets a request names, each checked to be one of them. */
function subnetsIn(env: EnvironmentView, asked: readonly string[], field: string): string[] {
  const own = env.network.subnetIds;
  for (const s of asked)
    if (!own.includes(s))
      throw invalid(`${field}: ${s} is not a subnet of environment ${env.environmentName}; its subnets are ${own.join(', ')}`);
  return [...asked];
}

/** The availability zones subnets are in: the environment's region and the zone letter the subnet's name ends with. */
function zonesOf(env: EnvironmentView, subnets: readonly string[]): string[] {
  const letters = subnets.map((s, i) => /-([a-f])$/.exec(s)?.[1] ?? 'abc'.charAt(i % 3));
  return [...new Set(letters)].map((l) => `${env.region}${l}`);
}

function awsOptions(env: EnvironmentView, op: string, req: Doc): { options: Doc; spot: boolean } {
  const o = op === 'createCluster' ? obj(req.awsOptions) : req;
  const workers = subnetsIn(env, strings(o.workerSubnetIds), 'workerSubnetIds');
  const lbs = subnetsIn(env, strings(o.lbSubnetIds), 'lbSubnetIds');
  const used = workers.length > 0 ? workers : env.network.subnetIds;
  const proxy = obj(o.nonTransparentProxy);
  return {
    spot: o.enableSpotInstances === true,
    options: {
      subnetIds: [...new Set([...used, ...lbs])],
      workerSubnetIds: used,
      lbSubnetIds: lbs.length > 0 ? lbs : used,
      availabilityZones: zonesOf(env, used),
      ...optional(o, 'customAmiId'),
      reducedPermissionMode: o.reducedPermissionMode === true,
      ...(Object.keys(proxy).length > 0
        ? { nonTransparentProxy: { use: proxy.use === true, bypassedDomains: strings(proxy.bypassedDomains) } }
        : {}),
    },
  };
}

const IDENTITY = /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+\/providers\/Microsoft\.ManagedIdentity\/userAssignedIdentities\/[^/]+$/i;

function azureOptions(env: EnvironmentView, op: string, req: Doc): { options: Doc; spot: boolean } {
  const generic = op === 'createCluster';
  const o = generic ? obj(req.azureOptions) : req;
  const identity = str(o.userAssignedManagedIdentity);
  if (!identity) throw invalid('an Azure activation needs userAssignedManagedIdentity: the managed identity AKS runs as');
  if (!IDENTITY.test(identity))
    throw invalid(
      `userAssignedManagedIdentity ${identity} is not the resource id of a managed identity (/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.ManagedIdentity/userAssignedIdentities/<name>)`,
    );
  const subnet = str(generic ? o.subnetId : req.subnetName);
  if (!subnet) throw invalid(`an Azure activation needs ${generic ? 'subnetId' : 'subnetName'}: the subnet to deploy the cluster in`);
  const name = subnet.split('/').pop() ?? subnet;
  subnetsIn(env, [name], generic ? 'subnetId' : 'subnetName');
  if (o.enablePrivateSQL === true && !str(o.privateSQLSubnetName))
    throw invalid('enablePrivateSQL needs privateSQLSubnetName: the delegated subnet of the private PostgreSQL server');
  if (str(o.aksPodCIDR)) cidrs([text(o.aksPodCIDR)], 'aksPodCIDR');
  return {
    spot: o.enableSpotInstances === true,
    options: {
      subnetId: subnet.includes('/') ? subnet : `${String(env.network.azure?.networkId ?? env.network.networkName)}/subnets/${subnet}`,
      enableAZ: o.enableAZ === true,
      outboundType: str(o.outboundType) ?? 'LoadBalancer',
      ...optional(o, 'aksPodCIDR', 'logAnalyticsWorkspaceId', 'privateSQLSubnetName', 'privateDNSZoneSQL'),
      enablePrivateSQL: o.enablePrivateSQL === true,
      ...optional(o, 'privateDNSZoneAKS'),
      enablePrivateAKS: o.enablePrivateAks === true,
      userAssignedManagedIdentity: identity,
    },
  };
}

function checkPrivate(op: string, req: Doc): void {
  const o = op === 'createCluster' ? obj(req.privateCloudOptions) : req;
  if (o.dbClientCredentials === undefined) return;
  const creds = obj(o.dbClientCredentials);
  if (!/-----BEGIN [A-Z ]*CERTIFICATE-----/.test(text(creds.certificate)))
    throw invalid('dbClientCredentials: certificate must be the text of a PEM certificate (-----BEGIN CERTIFICATE-----)');
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text(creds.privateKey)))
    throw invalid('dbClientCredentials: privateKey must be the text of a PEM private key (-----BEGIN PRIVATE KEY-----)');
}

/** What an activation fills in: its rules checked, what it shows from them; it makes the default catalog. */
function activate(h: Hook, rec: EngineRecord, req: Doc): Doc {
  const env = h.world.environments.require(rec.env ?? '');
  const op = h.ctx.op.name;
  const form = formOf(op, env, req);
  if (env.status !== 'AVAILABLE')
    throw failedPrecondition(`environment ${env.environmentName} is ${env.status}; activating the Data Warehouse needs it AVAILABLE`);
  const existing = h.records('cluster').all(env.crn)[0];
  if (existing) throw alreadyExists(`environment ${env.environmentName} already has Data Warehouse cluster ${existing.id}`);
  const registry = obj(req.customRegistryOptions);
  const registryType = str(registry.registryType);
  if (registryType && ((registryType === 'ECR' && form !== 'AWS') || (registryType === 'ACR' && form !== 'AZURE')))
    throw invalid(`customRegistryOptions: ${registryType} registries are for ${registryType === 'ECR' ? 'AWS' : 'Azure'} clusters`);
  if (registryType && !str(registry.repositoryUrl)) throw invalid('customRegistryOptions: give the repositoryUrl of the registry');
  const k8s = strings(req.whitelistK8sClusterAccessIpCIDRs);
  const workload = strings(req.whitelistWorkloadAccessIpCIDRs);
  const legacy = str(req.whitelistIpCIDRs)?.split(',') ?? [];
  if (form === 'PRIVATE') checkPrivate(op, req);
  const { options, spot } =
    form === 'AWS' ? awsOptions(env, op, req) : form === 'AZURE' ? azureOptions(env, op, req) : { options: {}, spot: false };
  const expiryDate = iso(h.ctx.clock.now() + 365 * 86_400_000);
  const fields: Doc = {
    name: env.environmentName,
    creator: actor(h),
    version: DEFAULT_RELEASE.version,
    productSupport: { status: 'COVERED', expiryDate, message: `Version ${DEFAULT_RELEASE.version} has active support` },
    ...allowed('whitelistK8sClusterAccessIpCIDRs', k8s.length > 0 ? k8s : legacy),
    ...allowed('whitelistWorkloadAccessIpCIDRs', workload.length > 0 ? workload : legacy),
    useOverlayNetwork: req.useOverlayNetwork === true || req.useOverlayNetworking === true,
    enablePrivateLoadBalancer: req.usePrivateLoadBalancer === true || req.useInternalLoadBalancer === true,
    externalBuckets: [],
    ...(form === 'PRIVATE'
      ? { resourcePool: 'root.default' }
      : { cloudPlatform: form, enableSpotInstances: spot, [form === 'AWS' ? 'awsOptions' : 'azureOptions']: options }),
  };
  // The private key stays in the cluster; the record keeps no copy of it.
  const kept = obj(rec.data?.request);
  const creds = obj(obj(kept.privateCloudOptions).dbClientCredentials ?? kept.dbClientCredentials);
  delete creds.privateKey;
  // An environment named fail-... cannot be AVAILABLE; a custom subdomain can say fail- instead (what `failsBy` reads).
  rec.data = { ...rec.data, failsAs: str(req.customSubdomain) ?? env.environmentName };
  makeDefaultCatalog(h, { ...rec, doc: { ...rec.doc, ...fields } });
  return fields;
}

/** The changes of `clusters update` the engine cannot take as they are. */
function updateCluster(h: Hook, rec: EngineRecord, req: Doc): void {
  const cloud = cloudOf(rec);
  if (req.awsUpdate !== undefined && cloud !== 'AWS') throw invalid('awsUpdate is for AWS clusters');
  if (req.azureUpdate !== undefined && cloud !== 'AZURE') throw invalid('azureUpdate is for Azure clusters');
  const both = req.whitelistIpCIDRs;
  if (Array.isArray(both)) {
    if (rec.doc.whitelistK8sClusterAccessIpCIDRs !== rec.doc.whitelistWorkloadAccessIpCIDRs)
      throw failedPrecondition(
        'the cluster allows different CIDRs for Kubernetes and for workloads; change them with whitelistK8sClusterAccessIpCIDRs and whitelistWorkloadAccessIpCIDRs',
      );
    const joined = cidrs(strings(both), 'whitelistIpCIDRs');
    Object.assign(rec.doc, { whitelistK8sClusterAccessIpCIDRs: joined, whitelistWorkloadAccessIpCIDRs: joined });
  }
  for (const field of ['whitelistK8sClusterAccessIpCIDRs', 'whitelistWorkloadAccessIpCIDRs'])
    if (Array.isArray(req[field])) rec.doc[field] = cidrs(strings(req[field]), field);
  const buckets = obj(obj(req.awsUpdate).externalBuckets);
  if (Object.keys(buckets).length > 0) {
    const list = docs(rec.doc.externalBuckets).filter((b) => !(String(b.name) in buckets));
    for (const [name, info] of Object.entries(buckets))
      list.push({ name, accessInfo: { accessMode: str(obj(info).accessMode) ?? 'READ', ...optional(obj(info), 'kmsCmkArn') } });
    rec.doc.externalBuckets = list;
  }
}

/** A kubeconfig for the Kubernetes cluster behind a Data Warehouse cluster (the shared document: shared/kubeconfig.ts). */
export function kubeconfig(h: Hook, rec: EngineRecord): Doc {
  h.records('cluster').require(rec, ['Running', 'PreUpdate', 'Updating', 'Stopped'], 'a kubeconfig');
  const env = h.world.environments.require(rec.env ?? '');
  const exec = (command: string, ...args: string[]): KubeconfigSpec['auth'] => ({ exec: { command, args } });
  const by: Record<'AWS' | 'AZURE' | 'PRIVATE', [server: string, auth: KubeconfigSpec['auth']]> = {
    AWS: [`https://${rec.id}.eks.${env.region}.emulator.invalid`, exec('aws', 'eks', 'get-token', '--cluster-name', rec.id)],
    AZURE: [`https://${rec.id}-dns.hcp.${env.region}.azmk8s.emulator.invalid:443`, exec('kubelogin', 'get-token', '--login', 'azurecli')],
    PRIVATE: [`https://${env.environmentName}.k8s.emulator.invalid:6443`, { token: b64(`${rec.id}:${h.ctx.caller.actorCrn}`) }],
  };
  const [server, auth] = by[cloudOf(rec) ?? 'PRIVATE'];
  return { kubeconfig: kubeconfigDocument({ cluster: rec.id, server, ca: b64(`ca of ${rec.id}`), user: `${rec.id}-user`, auth }) };
}

/** The catalogs, warehouses and visualizations of a cluster. */
const holdings = (h: Hook, cluster: EngineRecord) => ({
  dbcs: h.records('dbc').all(cluster.id),
  vws: h.records('vw').all(cluster.id),
  vizzes: h.records('dataVisualization').all(cluster.id),
});

const BACKUP_FORMAT = 'cdw-cluster-backup/1';

/** A warehouse as the create request that makes it again. */
function warehouseRequest(v: EngineRecord): Doc {
  const { autoscalingOptions, impalaHaSettingsOptions, impalaQueryLog, logHiveQueries, instanceType } = v.doc;
  const mode = obj(impalaHaSettingsOptions).highAvailabilityMode;
  const dropped = ['impalaExecutorGroupSets', 'enableUnifiedAnalytics', 'impalaHighAvailabilityMode'];
  return {
    vwType: v.doc.vwType,
    nodeCount: v.doc.nodeCount,
    imageVersion: v.doc.imageVersion,
    ...(instanceType ? { instanceType } : {}),
    autoscaling: Object.fromEntries(Object.entries(obj(autoscalingOptions)).filter(([k]) => !dropped.includes(k))),
    ...(v.doc.vwType === 'impala' && mode ? { impalaHaSettings: { highAvailabilityMode: mode } } : {}),
    tags: docs(v.doc.tags),
    ...(impalaQueryLog !== undefined ? { impalaQueryLog } : {}),
    ...(logHiveQueries !== undefined ? { logHiveQueries } : {}),
  };
}

/** The settings of a cluster and of what runs on it (`clusters backup`'s data). */
function backupOf(h: Hook, rec: EngineRecord) {
  const { dbcs, vws, vizzes } = holdings(h, rec);
  const { description, whitelistK8sClusterAccessIpCIDRs, whitelistWorkloadAccessIpCIDRs, azureOptions } = rec.doc;
  return {
    format: BACKUP_FORMAT,
    clusterId: rec.id,
    environmentCrn: rec.env ?? '',
    ...(rec.doc.cloudPlatform ? { cloudPlatform: String(rec.doc.cloudPlatform) } : {}),
    settings: {
      ...(description ? { description } : {}),
      whitelistK8sClusterAccessIpCIDRs,
      whitelistWorkloadAccessIpCIDRs,
      ...(azureOptions ? { azureOptions } : {}),
    } as Doc,
    dbcs: dbcs.map((d) => ({
      ref: d.id,
      name: nameOf(d),
      isDefault: d.data?.isDefault === true,
      imageVersion: versionOf(d),
      ...(d.doc.resourceTemplateId ? { resourceTemplateId: String(d.doc.resourceTemplateId) } : {}),
      config: currentConfig(h, rec.id, d.id).config,
    })),
    vws: vws.map((v) => ({
      ref: v.id,
      name: nameOf(v),
      dbcRef: String(v.doc.dbcId),
      request: warehouseRequest(v),
      config: currentConfig(h, rec.id, v.id).config,
    })),
    dataVisualizations: vizzes.map((z) => ({
      ref: z.id,
      name: nameOf(z),
      request: {
        config: { userGroups: strings(z.doc.userGroups), adminGroups: strings(z.doc.adminGroups) },
        imageVersion: z.doc.imageVersion,
        resourceTemplate: z.doc.size,
      } as Doc,
    })),
  };
}
type ClusterBackup = Omit<ReturnType<typeof backupOf>, 'dataVisualizations'> &
  Partial<Pick<ReturnType<typeof backupOf>, 'dataVisualizations'>>;

/** `clusters backup`: the settings of a cluster and of what runs on it, as data `clusters restore` takes. */
export function backupCluster(h: Hook, rec: EngineRecord): Doc {
  h.records('cluster').require(rec, ['Running', 'Stopped'], 'a backup');
  const payload = backupOf(h, rec);
  const data = b64(JSON.stringify(payload));
  const operationId = uuid();
  const [dbcs, vws, vizzes] = [payload.dbcs.length, payload.vws.length, payload.dataVisualizations.length];
  const message = `backup of cluster ${rec.id}: ${dbcs} Database Catalog(s), ${vws} Virtual Warehouse(s), ${vizzes} Data Visualization(s)`;
  logEvent(h, { operationId, serviceId: rec.id, event: 'BackupCreated', message });
  const timestamp = new Date(h.ctx.clock.now()).toISOString();
  return { clusterId: rec.id, operationId, timestamp, data, md5: createHash('md5').update(data).digest('hex') };
}

function decodeBackup(data: string): ClusterBackup {
  try {
    const parsed = JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as Partial<ClusterBackup>;
    if (parsed.format === BACKUP_FORMAT && Array.isArray(parsed.dbcs) && Array.isArray(parsed.vws)) return parsed as ClusterBackup;
  } catch {
    // Not JSON: refused below, as anything else that is not a backup.
  }
  throw invalid('data is not what `dw clusters backup` gave back (its `data`, base64)');
}

/** A configuration as the ServiceConfigReq that applies it again (SSO stays as the warehouse was made). */
const configRequest = ({ commonConfigs, applicationConfigs, ldapGroups }: ServiceConfig): Doc => ({
  commonConfigs,
  applicationConfigs,
  ldapGroups,
});

type Plan = { ref: string; id?: string; action: 'Create' | 'Update' | 'Skip'; message: string };
const plan = (ref: string, action: Plan['action'], message: string, id?: string): Plan => ({ ref, ...(id ? { id } : {}), action, message });

/** Activates the Data Warehouse in an environment from a backup's settings. */
function activateFrom(h: Hook, env: EnvironmentView, backup: ClusterBackup): EngineRecord {
  const s = backup.settings;
  const cidr = (v: unknown): string[] => (typeof v === 'string' && v !== '' ? v.split(',') : []);
  const common = {
    environmentCrn: env.crn,
    whitelistK8sClusterAccessIpCIDRs: cidr(s.whitelistK8sClusterAccessIpCIDRs),
    whitelistWorkloadAccessIpCIDRs: cidr(s.whitelistWorkloadAccessIpCIDRs),
  };
  if (env.cloudPlatform !== 'AZURE') return h.records('cluster').get(text(h.perform('createAwsCluster', common).clusterId));
  const az = obj(s.azureOptions);
  if (!str(az.userAssignedManagedIdentity) || !str(az.subnetId))
    throw invalid(
      `the backup holds no Azure settings to activate ${env.environmentName} with; activate it with \`dw clusters create azure\` and restore into the cluster`,
    );
  const subnetName = text(az.subnetId).split('/').pop();
  const out = h.perform('createAzureCluster', { ...common, userAssignedManagedIdentity: az.userAssignedManagedIdentity, subnetName });
  return h.records('cluster').get(text(out.clusterId));
}

/** `clusters restore`: recreates what a backup holds that the cluster does not have (by name); the default catalog gets its configuration. */
export function restoreCluster(h: Hook, req: Doc): Doc {
  const backup = decodeBackup(text(req.data));
  const target = text(req.clusterId);
  const [clusters, catalogs] = [h.records('cluster'), h.records('dbc')];
  const env = target.startsWith('crn:') ? h.world.environments.require(target) : undefined;
  const into = env ? clusters.all(env.crn)[0] : h.locate('cluster', { clusterId: target });
  // No cluster to restore into: the target is an environment without one.
  const cluster = into ?? activateFrom(h, env as EnvironmentView, backup);
  const action: Plan['action'] = into ? 'Skip' : 'Create';
  const message = !env
    ? `restoring into cluster ${cluster.id}`
    : into
      ? `environment ${env.environmentName} already has cluster ${into.id}; restoring into it`
      : `activating the Data Warehouse in environment ${env.environmentName} as cluster ${cluster.id}`;
  const operationId = uuid();
  const state = clusters.state(cluster);
  const later = (what: string): string => `${what} when the cluster is Running (it is ${state}): restore again then`;
  const running = state === 'Running';
  const { dbcs, vws, vizzes } = holdings(h, cluster);
  const byName = (list: EngineRecord[], name: string): EngineRecord | undefined =>
    list.find((r) => r.name?.toLowerCase() === name.toLowerCase());
  const dbcFor = new Map<string, EngineRecord>();

  const dbcPlans = backup.dbcs.map((b): Plan => {
    const there = b.isDefault ? dbcs.find((d) => d.data?.isDefault === true) : byName(dbcs, b.name);
    if (there) dbcFor.set(b.ref, there);
    if (!running) return plan(b.ref, 'Skip', later(b.isDefault ? 'configured' : 'created'), there?.id);
    if (there && !b.isDefault) return plan(b.ref, 'Skip', `Database Catalog ${b.name} already exists`, there.id);
    if (there && catalogs.state(there) !== 'Running')
      return plan(b.ref, 'Skip', `the default Database Catalog is ${catalogs.state(there)}; restore again once it is Running`, there.id);
    if (there) {
      const current = currentConfig(h, cluster.id, there.id).config;
      // A restore run again once the catalog is Running finds it configured: updating it again would put it back in
      // PreUpdate, and the warehouses on it would wait for ever.
      if (configDiff(current, applyServiceConfig(current, configRequest(b.config), 'dbc', nameOf(there))).isChanged !== true)
        return plan(b.ref, 'Skip', 'the default Database Catalog has the configuration of the backup already', there.id);
      h.perform('updateDbc', { clusterId: cluster.id, dbcId: there.id, config: configRequest(b.config) });
      return plan(b.ref, 'Update', 'the default Database Catalog gets the configuration of the backup', there.id);
    }
    const made = h.perform('createDbc', { clusterId: cluster.id, name: b.name, imageVersion: b.imageVersion });
    return plan(b.ref, 'Create', `Database Catalog ${b.name} created`, text(made.dbcId));
  });

  const vwPlans = backup.vws.map((b): Plan => {
    const there = byName(vws, b.name);
    if (there) return plan(b.ref, 'Skip', `Virtual Warehouse ${b.name} already exists`, there.id);
    if (!running) return plan(b.ref, 'Skip', later('created'));
    // As the catalog plans above left it: an update of the default catalog moved it out of Running.
    const known = dbcFor.get(b.dbcRef);
    const catalog = known && (catalogs.byId(known.id) ?? known);
    const catalogState = catalog ? catalogs.state(catalog) : 'not in the cluster';
    if (!catalog || catalogState !== 'Running')
      return plan(b.ref, 'Skip', `its Database Catalog is ${catalogState}; restore again once it is Running`);
    const cloud = cloudOf(cluster);
    const config = { ...configRequest(b.config), enableSSO: b.config.enableSSO };
    const request: Doc = { ...b.request, clusterId: cluster.id, dbcId: catalog.id, name: b.name, config };
    // What the target cannot take is left to its defaults: another cloud's instance type, a release newer than the catalog's.
    if (!cloud || !INSTANCE_TYPES[cloud][b.request.vwType === 'impala' ? 'impala' : 'hive'].includes(String(request.instanceType)))
      delete request.instanceType;
    if (rank(String(request.imageVersion)) > rank(versionOf(catalog))) delete request.imageVersion;
    return plan(b.ref, 'Create', `Virtual Warehouse ${b.name} created`, text(h.perform('createVw', request).vwId));
  });
  const impala = backup.vws.map((b) => b.request.vwType === 'impala');

  // decodeBackup checks only a backup's catalogs and warehouses: one without visualizations restores none.
  const vizPlans = (backup.dataVisualizations ?? []).map((b): Plan => {
    const there = byName(vizzes, b.name);
    if (there) return plan(b.ref, 'Skip', `Data Visualization ${b.name} already exists`, there.id);
    if (!running) return plan(b.ref, 'Skip', later('created'));
    const template = str(b.request.resourceTemplate);
    const request: Doc = { ...b.request, clusterId: cluster.id, name: b.name };
    if (!template || !templatesOf(h, 'viz').some((t) => t.name === template)) delete request.resourceTemplate;
    const made = h.perform('createDataVisualization', request);
    return plan(b.ref, 'Create', `Data Visualization ${b.name} created`, text(made.dataVisualizationId));
  });

  logEvent(h, { operationId, serviceId: cluster.id, event: action === 'Create' ? 'RestoreActivation' : 'RestoreStarted', message });
  for (const p of [...dbcPlans, ...vwPlans, ...vizPlans])
    logEvent(h, { operationId, serviceId: p.id ?? cluster.id, event: `Restore${p.action}`, message: p.message });
  return {
    clusterId: cluster.id,
    operationId,
    action,
    message,
    dbcRestorePlans: dbcPlans,
    hiveRestorePlans: vwPlans.filter((_, i) => !impala[i]),
    impalaRestorePlans: vwPlans.filter((_, i) => impala[i]),
    vizRestorePlans: vizPlans,
    hueRestorePlans: [],
    cdwHueRestorePlans: [],
    trinoRestorePlans: [],
    dwxSecretsRestorePlans: [],
  };
}

/** `clusters list`: the account's clusters, filtered by environment, id, name, status and cloud. */
export function listClusters(h: Hook, req: Doc): EngineRecord[] {
  const clusters = h.records('cluster');
  const name = str(req.name)?.toLowerCase();
  const asked = ['environmentCrn', 'clusterId', 'status', 'cloudPlatform'].filter((k) => str(req[k]));
  const shown = (c: EngineRecord): Doc => ({
    environmentCrn: c.env,
    clusterId: c.id,
    status: clusters.state(c),
    cloudPlatform: c.doc.cloudPlatform,
  });
  return clusters.all().filter((c) => (!name || String(c.doc.name).toLowerCase() === name) && asked.every((k) => shown(c)[k] === req[k]));
}

/** What `clusters update-ssh-key` answers: the environment's key pushed to the nodes. */
export function sshKeyPushed(h: Hook, rec: EngineRecord): Doc {
  const env = h.world.environments.require(rec.env ?? '');
  const key = env.authentication?.publicKeyId ?? (env.authentication?.publicKey ? 'its public key' : 'its SSH key');
  return {
    status: h.records('cluster').state(rec),
    message: `pushed ${key} of environment ${env.environmentName} to the nodes of cluster ${rec.id}`,
  };
}

/** `clusters latest-versions`: the newest release of each catalog and warehouse. */
export function latestVersions(h: Hook, rec: EngineRecord): Doc {
  const { dbcs, vws } = holdings(h, rec);
  return { idToLatestVersionsMap: Object.fromEntries([...dbcs, ...vws].map((r) => [r.id, NEWEST_RELEASE.version])) };
}

/** Certificates are renewed on public cloud clusters. */
function checkRenew(_h: Hook, rec: EngineRecord): void {
  if (!cloudOf(rec)) throw failedPrecondition('certificates are renewed on public cloud clusters; this is a private cloud cluster');
}

/**
 * A cluster: one per environment, its id `env-` and six characters. Its
 * actions' emulated minutes: accepted in half a minute, created in 14.5
 * more; an update, a renewal of certificates, a stop and start with its
 * environment; `sshKey` pushes the environment's key at once.
 */
export const cluster: Resource<R> = {
  noun: 'Data Warehouse cluster',
  keys: ['clusterId'],
  lives: { in: 'environment', by: ['environmentCrn'] },
  ids: { style: 'short', prefix: 'env', length: 6 },
  failsBy: 'data.failsAs',
  minutes: { create: [0.5, 14.5], update: [0.5, 2.5], renew: 3, stop: 3, start: 4, sshKey: 0, delete: 5 },
  hooks: { fill: activate, check: { update: updateCluster, renew: checkRenew } },
};
