/**
 * The rules and computed fields of AI registries (model registries) and AI
 * inference services (ML serving apps), for the declarations in index.ts.
 * An environment has at most one registry; an inference service runs on a
 * cluster it provisions or on an existing compute cluster of its
 * environment, reads models from the registries it is linked to, and may
 * authorize endpoints with the data lake's Ranger.
 */
import type { EnvironmentRecord } from '../../environments.js';
import type { EngineRecord, Hook } from '../../engine/index.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { crn, crnId } from '../../ids.js';
import type { Doc } from '../../types.js';
import { docs, hex, obj, str, text } from '../../values.js';
import { REGISTRY_RELEASES, SERVING_RELEASES, newer } from './catalogue.js';
import {
  environmentOf,
  groupsWithout,
  modifiedGroups,
  networkSettings,
  newGroups,
  provisionRequest,
  requireAvailable,
  requireRunningLake,
  sameEnvironment,
} from './clusters.js';
import { upgradeTarget } from './workbenches.js';

type Change = (h: Hook, rec: EngineRecord, req: Doc) => Doc | void;

const nameOf = (rec: EngineRecord): string => rec.name ?? rec.id;
const domainOf = (env: EnvironmentRecord): string => `${env.environmentName}.ml.emulator.invalid`;

/** The Kubernetes cluster behind a registry or inference service. */
export const clusterName = (rec: EngineRecord): string => `liftie-${hex(rec.id, 8)}`;

// ---- AI registries ----------------------------------------------------------------

/** A new registry: the only one of its environment, named by its namespace (default `<environment>-registry`). */
export function creatingRegistry(h: Hook, rec: EngineRecord, req: Doc): void {
  const env = environmentOf(h, rec);
  sameEnvironment(env, req.environmentName, 'environmentName');
  sameEnvironment(env, req.environmentCrn, 'environmentCrn');
  requireAvailable(env, 'a new model registry');
  const existing = h.resources('modelRegistry').all(rec.scope)[0];
  if (existing)
    throw alreadyExists(`environment ${env.environmentName} already has model registry ${nameOf(existing)}; an environment has one`);
  if (str(req.backupCrn)) h.resources('workspaceBackup').get(text(req.backupCrn));
  const network = networkSettings(env, req);
  const name = str(req.namespace) ?? `${env.environmentName}-registry`;
  rec.name = name;
  const { region, accountId } = h.ctx.info;
  Object.assign(rec.doc, {
    serviceName: name,
    namespace: str(req.namespace) ?? 'model-registry',
    version: REGISTRY_RELEASES.deployed,
    domain: `modelregistry-${hex(rec.id, 8)}.${domainOf(env)}`,
    endpointPublicAccess: req.usePublicLoadBalancer === true,
    creator: str(req.creatorCrn) ?? h.ctx.caller.actorCrn,
    machineUserCrn: crn(
      'iam',
      region,
      accountId,
      'machineUser',
      `srv_modelregistry_${hex(rec.id, 8)}/${crnId(rec.crn ?? rec.id)}`,
      'altus',
    ),
  });
  // Ozone storage is for the private cloud: shown only when the request gives it.
  if (!str(req.s3Endpoint)) delete rec.doc.s3Endpoint;
  rec.data = { ...rec.data, network, ...(str(req.backupCrn) ? { restoredFrom: req.backupCrn } : {}) };
}

/** Upgrades and their rollback (the acting hook, by operation). */
export const REGISTRY_ACTIONS: Readonly<Record<string, Change>> = {
  upgradeModelRegistry: (_h, rec) => {
    const running = text(rec.doc.version);
    const to = upgradeTarget(REGISTRY_RELEASES, running, undefined, `model registry ${nameOf(rec)}`);
    rec.data = { ...rec.data, versionBeforeUpgrade: running };
    return { version: to };
  },
  rollbackModelRegistryUpgrade: (_h, rec) => {
    const before = str(rec.data?.versionBeforeUpgrade);
    if (!before) throw failedPrecondition(`model registry ${nameOf(rec)} has no upgrade to roll back`);
    return { version: before };
  },
};

/** refreshAiRegistry: the registry a CRN names, or the registry of the environment of the workbench it names. */
export function registryOf(h: Hook, ref: string): EngineRecord {
  const registries = h.resources('modelRegistry');
  const own = registries.find(ref);
  if (own) return own;
  const ws = h.resources('workspace').find(ref);
  const ofEnv = ws ? registries.all(ws.scope)[0] : undefined;
  if (ofEnv) return ofEnv;
  throw notFound(
    ws
      ? `environment ${text(ws.doc.environmentName)} of workbench ${nameOf(ws)} has no model registry`
      : `no model registry or workbench has CRN ${ref.slice(0, 200)}`,
  );
}

// ---- AI inference services ----------------------------------------------------------------

/** An existing compute cluster of the environment to deploy on (as compute tells it, world/contracts.ts): running. */
function computeCluster(h: Hook, env: EnvironmentRecord, ref: string): Doc {
  const c = h.ctx.world.in(h.ctx).computeClusters.find(ref);
  if (!c) throw notFound(`compute cluster ${ref.slice(0, 200)} not found`);
  if (c.environmentCrn !== env.crn) throw invalid(`compute cluster ${ref} is not in environment ${env.environmentName}`);
  if (c.status !== 'RUNNING') throw failedPrecondition(`compute cluster ${c.name} is ${c.status}; an inference service needs it RUNNING`);
  return { clusterCrn: ref, clusterName: c.name };
}

/** The email of the caller, as iam has it. */
function ownerEmail(h: Hook): string | undefined {
  const who = h.ctx.store.getByCrn<{ email?: string }>(h.ctx.caller.actorCrn);
  return who?.kind === 'iam.user' ? str(who.doc.email) : undefined;
}

/** A new inference service: on a cluster it provisions, or on an existing compute cluster of its environment. */
export function creatingApp(h: Hook, rec: EngineRecord, req: Doc): void {
  const env = environmentOf(h, rec);
  requireAvailable(env, 'a new inference service');
  const provision = provisionRequest(env, req, 'environmentCrn');
  const existing = str(req.clusterCrn);
  if (!provision && !existing)
    throw invalid('give provisionK8sRequest (a cluster to provision) or clusterCrn (an existing compute cluster to deploy on)');
  if (provision && existing) throw invalid('give provisionK8sRequest or clusterCrn, not both');
  if (provision && docs(provision.instanceGroups).length === 0) throw invalid('provisionK8sRequest needs at least one instance group');
  const on = existing ? computeCluster(h, env, existing) : undefined;
  if (req.enableFineGrainedAccessControl === true) requireRunningLake(h, env, 'fine-grained access control (Ranger)');
  const network = networkSettings(env, req);
  const cluster = str(on?.clusterName) ?? clusterName(rec);
  const tags = docs(provision?.tags);
  const email = ownerEmail(h);
  Object.assign(rec.doc, {
    cloudPlatform: env.cloudPlatform,
    namespace: `serving-${nameOf(rec)}`,
    mlServingVersion: SERVING_RELEASES.deployed,
    isPrivateCluster: false,
    usePublicLoadBalancer: req.usePublicLoadBalancer === true,
    httpsEnabled: true,
    subnetsForLoadBalancers: network.subnetsForLoadBalancers,
    loadBalancerIPWhitelists: (network.loadBalancerIPWhitelists as string[]).join(','),
    ...(email ? { ownerEmail: email } : {}),
    cluster: {
      clusterName: cluster,
      domainName: `${str(req.staticSubdomain) ?? `serving-${hex(rec.id, 8)}`}.${domainOf(env)}`,
      liftieID: cluster,
      baseDomain: domainOf(env),
      subnets: env.network.subnetIds.join(','),
      authorizedIpRanges: '',
      authorizedIpRangesAllowList: false,
      tags,
      instanceGroups: provision ? newGroups(env, cluster, [], docs(provision.instanceGroups), tags) : [],
      // A cluster of the compute service only when it runs on one; a cluster it provisions is its own.
      ...(on ? { clusterCrn: on.clusterCrn } : {}),
    },
  });
  rec.data = { ...rec.data, ...(req.ozoneS3Creds ? { s3: { default: obj(req.ozoneS3Creds) } } : {}) };
}

const appCluster = (rec: EngineRecord): Doc => obj(rec.doc.cluster);
const appGroups = (rec: EngineRecord): Doc[] => docs(appCluster(rec).instanceGroups);
const withGroups = (rec: EngineRecord, groups: Doc[]): Doc => ({ cluster: { ...appCluster(rec), instanceGroups: groups } });

/** Instance group changes and upgrades (the acting hook, by operation). */
export const APP_ACTIONS: Readonly<Record<string, Change>> = {
  addInstanceGroupsMlServingApp: (h, rec, req) => {
    const env = environmentOf(h, rec);
    const cluster = text(appCluster(rec).clusterName);
    return withGroups(rec, [
      ...appGroups(rec),
      ...newGroups(env, cluster, appGroups(rec), docs(req.instanceGroups), docs(appCluster(rec).tags)),
    ]);
  },
  deleteInstanceGroupMlServingApp: (_h, rec, req) =>
    withGroups(rec, groupsWithout(appGroups(rec), text(req.instanceGroupName), `inference service ${nameOf(rec)}`)),
  modifyMlServingApp: (h, rec, req) =>
    withGroups(
      rec,
      modifiedGroups(environmentOf(h, rec), text(appCluster(rec).clusterName), appGroups(rec), req, `inference service ${nameOf(rec)}`),
    ),
  upgradeMlServingApp: (_h, rec) => ({
    mlServingVersion: upgradeTarget(SERVING_RELEASES, text(rec.doc.mlServingVersion), undefined, `inference service ${nameOf(rec)}`),
  }),
};

/** Changes made at once (the updating hook, by operation). */
export const APP_UPDATES: Readonly<Record<string, Change>> = {
  refreshAiInference: (h, rec) => {
    rec.data = { ...rec.data, trustRefreshedAt: h.ctx.clock.now() };
  },
  updateMlServingAppS3Creds: (_h, rec, req) => {
    const creds = obj(req.s3Creds);
    if (!str(creds.s3AccessID) || !str(creds.s3SecretAccessKey)) throw invalid('s3Creds needs s3AccessID and s3SecretAccessKey');
    const key = str(req.registryNamespace) ?? 'default';
    const link = { ...creds, linkRegistry: req.linkRegistry === true, ...(str(req.envName) ? { envName: req.envName } : {}) };
    rec.data = { ...rec.data, s3: { ...obj(rec.data?.s3), [key]: link } };
  },
};

/** fetchAiRegistriesStorageConfig: the registries an inference service reads models from, and their object storage. */
export function registryStorage(h: Hook, rec: EngineRecord): Doc {
  const env = environmentOf(h, rec);
  const registries: Doc = {};
  // The registry of its own environment is linked by default.
  for (const r of h.resources('modelRegistry').all(rec.scope))
    registries[nameOf(r)] = {
      s3EndpointUrl: str(r.doc.s3Endpoint) ?? `https://${env.cloudPlatform === 'AWS' ? `s3.${env.region}.amazonaws.com` : r.doc.domain}`,
      s3Region: env.region,
      linkRegistry: true,
      environmentName: env.environmentName,
    };
  for (const [namespace, c] of Object.entries(obj(rec.data?.s3))) {
    const creds = obj(c);
    registries[namespace] = {
      s3AccessId: creds.s3AccessID,
      s3EndpointUrl: creds.s3EndPointUrl,
      s3Region: env.region,
      linkRegistry: creds.linkRegistry === true,
      environmentName: str(creds.envName) ?? env.environmentName,
    };
  }
  return { registries };
}

/** Whether an inference service runs what the control plane expects of it. */
export function showApp(_h: Hook, _rec: EngineRecord, view: Doc): Doc {
  const installed = text(view.mlServingVersion);
  const expected = SERVING_RELEASES.deployed;
  return { versionCompatibility: { expectedVersion: expected, installedVersion: installed, isCompatible: !newer(expected, installed) } };
}
