/**
 * The rules and computed fields of AI registries (model registries) and AI
 * inference services (ML serving apps), for the declarations in index.ts.
 * An environment has at most one registry; an inference service runs on a
 * cluster it provisions or on an existing compute cluster of its
 * environment, reads models from the registries it is linked to, and may
 * authorize endpoints with the data lake's Ranger.
 */
import type { Doc } from '../../engine/context.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { crn, crnId } from '../../ids.js';
import { docs, hex, obj, str, text } from '../../values.js';
import type { EnvironmentView } from '../../world/contracts.js';
import { APP_SERVING, REGISTRY_SERVING } from '../../../model/services/ml/resources.js';
import { REGISTRY_RELEASES, SERVING_RELEASES, newer, upgradeTarget } from './catalogue.js';
import * as k8s from './clusters.js';
import { nameOf } from '../../engine/records.js';

type Hook = k8s.Hook;
type Rec = k8s.Rec;
type Change = (h: Hook, rec: Rec, req: Doc) => Doc;

const domainOf = (env: EnvironmentView): string => `${env.environmentName}.ml.emulator.invalid`;

// ---- AI registries ----------------------------------------------------------------

/** createModelRegistry names the registry by its namespace, else `<environment>-registry`. */
export function registryName(h: Hook, sent: Doc): Doc {
  const env = h.world.environments.find(str(sent.environmentCrn) ?? str(sent.environmentName) ?? '');
  return { ...sent, serviceName: str(sent.namespace) ?? `${env?.environmentName ?? text(sent.environmentName)}-registry` };
}

/** A new registry: in an environment that is up, named once, with network settings it supports; the only one of its environment. */
export function checkRegistry(h: Hook, rec: Rec, req: Doc): void {
  const env = k8s.environmentOf(h, rec);
  k8s.sameEnvironment(env, req.environmentName, 'environmentName');
  k8s.sameEnvironment(env, req.environmentCrn, 'environmentCrn');
  k8s.requireAvailable(env, 'a new model registry');
  const existing = h.records('modelRegistry').all(rec.scope)[0];
  if (existing)
    throw alreadyExists(`environment ${env.environmentName} already has model registry ${nameOf(existing)}; an environment has one`);
  if (str(req.backupCrn)) h.records('workspaceBackup').get(text(req.backupCrn));
  k8s.networkSettings(env, req);
}

/** What the service gives a new registry: its namespace, release, domain, creator and machine user. */
export function fillRegistry(h: Hook, rec: Rec, req: Doc): Doc {
  const { region, accountId } = h.ctx.info;
  const user = `srv_modelregistry_${hex(rec.id, 8)}/${crnId(rec.crn ?? rec.id)}`;
  return {
    namespace: str(req.namespace) ?? 'model-registry',
    version: REGISTRY_RELEASES.deployed,
    domain: `modelregistry-${hex(rec.id, 8)}.${domainOf(k8s.environmentOf(h, rec))}`,
    endpointPublicAccess: req.usePublicLoadBalancer === true,
    creator: str(req.creatorCrn) ?? h.ctx.caller.actorCrn,
    machineUserCrn: crn('iam', region, accountId, 'machineUser', user, 'altus'),
    // Ozone storage is for the private cloud: shown only when the request gives it.
    ...(str(req.s3Endpoint) ? {} : { s3Endpoint: undefined }),
  };
}

/** Upgrades and their rollback: what their success sets (the version), by action. */
export const REGISTRY_EFFECTS: Readonly<Record<string, Change>> = {
  upgrade: (_h, rec) => ({
    version: upgradeTarget(REGISTRY_RELEASES, text(rec.doc.version), undefined, `model registry ${nameOf(rec)}`),
  }),
  rollback: (_h, rec) => {
    const before = str(rec.data?.versionBeforeUpgrade);
    if (!before) throw failedPrecondition(`model registry ${nameOf(rec)} has no upgrade to roll back`);
    return { version: before };
  },
};

/** refreshAiRegistry names the registry by its CRN, or by a workbench of its environment (in `workspaceCrn` both). */
export function registryOf(h: Hook, sent: Doc): Doc {
  const ref = text(sent.workspaceCrn);
  const registries = h.records('modelRegistry');
  const ws = registries.find(ref) ? undefined : h.records('workspace').find(ref);
  const found = registries.find(ref) ?? (ws ? registries.all(ws.scope)[0] : undefined);
  if (found) return { modelRegistryCrn: found.crn };
  throw notFound(
    ws
      ? `environment ${text(ws.doc.environmentName)} of workbench ${nameOf(ws)} has no model registry`
      : `no model registry or workbench has CRN ${ref.slice(0, 200)}`,
  );
}

/** A certificate refresh needs the registry up. */
export const checkRegistryUpdate = (h: Hook, rec: Rec): void =>
  h.records('modelRegistry').require(rec, REGISTRY_SERVING, 'a certificate refresh');

// ---- AI inference services ----------------------------------------------------------------

/** An existing compute cluster of the environment to deploy on (as compute tells it, world/contracts.ts): running. */
function computeCluster(h: Hook, env: EnvironmentView, ref: string): { clusterCrn: string; clusterName: string } {
  const c = h.world.computeClusters.find(ref);
  if (!c) throw notFound(`compute cluster ${ref.slice(0, 200)} not found`);
  if (c.environmentCrn !== env.crn) throw invalid(`compute cluster ${ref} is not in environment ${env.environmentName}`);
  if (c.status !== 'RUNNING') throw failedPrecondition(`compute cluster ${c.name} is ${c.status}; an inference service needs it RUNNING`);
  return { clusterCrn: ref, clusterName: c.name };
}

/** A new inference service: on a cluster it provisions, or on an existing compute cluster of its environment (checked). */
export function checkApp(h: Hook, rec: Rec, req: Doc): void {
  const env = k8s.environmentOf(h, rec);
  k8s.requireAvailable(env, 'a new inference service');
  const provision = k8s.provisionRequest(env, req, 'environmentCrn');
  const existing = str(req.clusterCrn);
  if (!provision && !existing)
    throw invalid('give provisionK8sRequest (a cluster to provision) or clusterCrn (an existing compute cluster to deploy on)');
  if (provision && existing) throw invalid('give provisionK8sRequest or clusterCrn, not both');
  if (provision && docs(provision.instanceGroups).length === 0) throw invalid('provisionK8sRequest needs at least one instance group');
  if (existing) computeCluster(h, env, existing);
  if (req.enableFineGrainedAccessControl === true) k8s.requireRunningLake(h, env, 'fine-grained access control (Ranger)');
}

/** What the service gives a new inference service: its namespace, release, load balancer, owner (the caller, when a user) and cluster. */
export function fillApp(h: Hook, rec: Rec, req: Doc): Doc {
  const env = k8s.environmentOf(h, rec);
  const provision = k8s.provisionRequest(env, req, 'environmentCrn');
  const existing = str(req.clusterCrn);
  const on = existing ? computeCluster(h, env, existing) : undefined;
  const network = k8s.networkSettings(env, req);
  const cluster = str(on?.clusterName) ?? k8s.clusterName(rec);
  const tags = docs(provision?.tags);
  const who = h.world.identities.actor(h.ctx.caller.actorCrn);
  const email = who?.kind === 'user' ? str(who.email) : undefined;
  return {
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
      instanceGroups: provision ? k8s.newGroups(env, cluster, [], docs(provision.instanceGroups), tags) : [],
      // A cluster of the compute service only when it runs on one; a cluster it provisions is its own.
      ...(on ? { clusterCrn: on.clusterCrn } : {}),
    },
  };
}

/** What the changes of an inference service set when they succeed, by action: its cluster's groups, its release. */
export const APP_EFFECTS: Readonly<Record<string, Change>> = {
  modify: (h, rec, req) => {
    const at = obj(rec.doc.cluster);
    const instanceGroups = k8s.groupChange(h, rec, req, at, text(at.clusterName), `inference service ${nameOf(rec)}`);
    return { cluster: { ...at, instanceGroups } };
  },
  upgrade: (_h, rec) => ({
    mlServingVersion: upgradeTarget(SERVING_RELEASES, text(rec.doc.mlServingVersion), undefined, `inference service ${nameOf(rec)}`),
  }),
};

/** A change made at once (refreshAiInference, updateMlServingAppS3Creds), of a service that is up, with whole S3 credentials. */
export function checkAppUpdate(h: Hook, rec: Rec, req: Doc): void {
  h.records('app').require(rec, APP_SERVING, h.ctx.op.name);
  const creds = obj(req.s3Creds);
  if (h.ctx.op.name === 'updateMlServingAppS3Creds' && (!str(creds.s3AccessID) || !str(creds.s3SecretAccessKey)))
    throw invalid('s3Creds needs s3AccessID and s3SecretAccessKey');
}

/** New S3 credentials for a registry are kept beside the service, by registry namespace, for describe-registry-storage. */
export function keepCredentials(h: Hook, rec: Rec, req: Doc): Doc {
  if (h.ctx.op.name !== 'updateMlServingAppS3Creds') return {};
  const link = { ...obj(req.s3Creds), linkRegistry: req.linkRegistry === true, ...(str(req.envName) ? { envName: req.envName } : {}) };
  return { s3: { ...obj(rec.data?.s3), [str(req.registryNamespace) ?? 'default']: link } };
}

/** fetchAiRegistriesStorageConfig: the registries an inference service reads models from, and their object storage. */
export function registryStorage(h: Hook, rec: Rec): Doc {
  const env = k8s.environmentOf(h, rec);
  const registries: Doc = {};
  // The registry of its own environment is linked by default.
  for (const r of h.records('modelRegistry').all(rec.scope))
    registries[nameOf(r)] = {
      s3EndpointUrl: str(r.doc.s3Endpoint) ?? `https://${env.cloudPlatform === 'AWS' ? `s3.${env.region}.amazonaws.com` : r.doc.domain}`,
      s3Region: env.region,
      linkRegistry: true,
      environmentName: env.environmentName,
    };
  // The credentials it was created with are those of the default namespace, until others are set.
  const created = obj(obj(rec.data?.request).ozoneS3Creds);
  const s3 = { ...(Object.keys(created).length > 0 ? { default: created } : {}), ...obj(rec.data?.s3) };
  for (const [namespace, c] of Object.entries(s3)) {
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
export function showApp(_h: Hook, _rec: Rec, view: Doc): Doc {
  const installed = text(view.mlServingVersion);
  const expected = SERVING_RELEASES.deployed;
  return { versionCompatibility: { expectedVersion: expected, installedVersion: installed, isCompatible: !newer(expected, installed) } };
}
