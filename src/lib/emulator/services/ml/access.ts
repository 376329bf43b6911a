/**
 * The Kubernetes clusters behind workbenches, AI registries and inference
 * services as their users reach them: a kubeconfig for the cluster (while it
 * exists), and access grants, one per cloud identity, parts of the record
 * whose cluster they open (they go with it).
 */
import type { Doc } from '../../engine/context.js';
import type { Resource } from '../../engine/declare.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { obj, text } from '../../values.js';
import { clusterExists } from './catalogue.js';
import { cloudIdentity, clusterName, environmentOf, kubeconfig, type Hook, type R, type Rec } from './clusters.js';

/** The records whose clusters can be reached, and the resource of their grants. */
export type ClusterOwner = 'workspace' | 'modelRegistry' | 'app';
export const GRANTS = { workspace: 'workspaceAccess', modelRegistry: 'modelRegistryAccess', app: 'mlServingAppAccess' } as const;

/** FAILED_PRECONDITION unless the cluster of a workbench, registry or inference service exists (installed, or suspended). */
export function requireCluster(h: Hook, key: ClusterOwner, rec: Rec, what: string): void {
  const state = h.records(key).state(rec);
  if (!clusterExists(state)) throw failedPrecondition(`${rec.name ?? rec.id} is ${state}; ${what} needs its cluster`);
}

/** The kubeconfig of the cluster of a workbench, registry or inference service (for an identity granted access). */
function kubeconfigOf(h: Hook, key: ClusterOwner, rec: Rec, identity?: string): string {
  requireCluster(h, key, rec, 'a kubeconfig');
  const cluster =
    key === 'workspace' ? text(rec.doc.k8sClusterName) : key === 'app' ? text(obj(rec.doc.cluster).clusterName) : clusterName(rec);
  return kubeconfig(environmentOf(h, rec), cluster, identity);
}

/** getKubeconfig, getMlServingAppKubeconfig (`kubeconfig`) and getModelRegistryKubeconfig (`kubeConfig`). */
export const kubeconfigAnswer =
  (key: ClusterOwner, field: 'kubeconfig' | 'kubeConfig' = 'kubeconfig') =>
  (h: Hook, rec: Rec): Doc => ({ [field]: kubeconfigOf(h, key, rec) });

/** The identities granted access to a record's cluster (its grants). */
export const grantees =
  (key: ClusterOwner) =>
  (h: Hook, rec: Rec): Doc => ({
    users: h
      .records(GRANTS[key])
      .all(rec.id)
      .map((g) => g.name ?? g.id),
  });

/** A grant request names its identity by `identifier` (or the older `arn`). */
export const identityOf = (_h: Hook, req: Doc): Doc => ({ ...req, identifier: req.identifier ?? req.arn });

/** The record whose cluster a grant opens. */
function owner(h: Hook, key: ClusterOwner, grant: Rec): Rec {
  const p = h.records(key).byId(grant.scope);
  if (!p) throw notFound(`the ${key} of access grant ${grant.name ?? grant.id} no longer exists`);
  return p;
}

/** Access is granted by the cluster's API server, which stays while a workbench is suspended. */
function ownerUp(h: Hook, key: ClusterOwner, grant: Rec, what: string): Rec {
  const p = owner(h, key, grant);
  requireCluster(h, key, p, what);
  return p;
}

/** A grant's answer: a kubeconfig for the identity it lets in. */
export const grantAnswer =
  (key: ClusterOwner) =>
  (h: Hook, grant: Rec): Doc => ({ kubeconfig: kubeconfigOf(h, key, owner(h, key, grant), grant.name) });

/** Kubernetes access to the cluster of `key`'s records: one grant per cloud identity, a part of its record. */
export function access(key: ClusterOwner): Resource<R> {
  return {
    noun: 'access grant',
    keys: ['identifier'],
    lives: { in: 'parent', parent: key, part: true },
    hooks: {
      check: {
        create: (h, grant) => {
          if (!grant.name) throw invalid('give identifier: the cloud identity to let in');
          cloudIdentity(environmentOf(h, ownerUp(h, key, grant, 'a new access grant')), grant.name);
        },
        delete: (h, grant) => void ownerUp(h, key, grant, 'revoking access'),
      },
    },
  };
}
