/**
 * Maintenance of a running cluster (WORK in records.ts), with the rules each
 * has: certificates (public renewal, private rotation, the database
 * server's), secrets, the public DNS entries, the orchestrator state, the
 * AWS instance metadata service version, Java, component versions,
 * diagnostics collections, restarting, stopping and starting instances, the
 * Azure SKU migration, the ZooKeeper to KRaft migration of Kafka clusters
 * (migrate, then finalize or roll back), and the preparation of an upgrade.
 * Each needs the cluster's instances up (RUNNING_STATES) unless it says
 * otherwise, runs as an operation, and changes the cluster when it finishes.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import type { Doc } from '../../types.js';
import type { DatahubBackend } from './backend.js';
import { compareVersions } from '../../shared/runtimes.js';
import { KRAFT_RUNTIME, LOG_DESCRIPTORS, runtimeOf, SECRET_TYPES, SERVICE_ROLES, type Image } from './catalogue.js';
import { RUNNING_STATES, type ClusterDoc, type ClusterRec, type WorkEffect, type WorkRec } from './records.js';

/** A diagnostics collection as the request asks for it. */
export interface CollectionSpec {
  readonly destination: string;
  readonly description?: string;
  readonly caseNumber?: string;
  readonly labels: readonly string[];
  readonly hosts: readonly string[];
  readonly hostGroups: readonly string[];
  readonly roles: readonly string[];
}

export class Maintenance {
  constructor(private readonly b: DatahubBackend) {}

  /** FAILED_PRECONDITION unless the cluster is in one of the states. */
  private require(c: ClusterRec, states: readonly string[], what: string): void {
    const state = this.b.status(c);
    if (!states.includes(state))
      throw failedPrecondition(`cluster ${c.doc.clusterName} is ${state}; ${what} needs its instances up (${states.join(' or ')})`);
  }

  /** Starts a piece of work on a running cluster; returns its operation id. */
  private run(c: ClusterRec, action: string, what: string, effect?: WorkEffect, details?: Doc, states = RUNNING_STATES): WorkRec {
    this.require(c, states, what);
    return this.b.works.begin(c, action, effect, details);
  }

  private op(ref: string, action: string, what: string, effect?: (c: ClusterRec) => WorkEffect | undefined): string {
    const c = this.b.cluster(ref);
    return this.run(c, action, what, effect?.(c)).operationId;
  }

  /** New certificates: they count from when the renewal began. */
  private reissued = (): WorkEffect => ({ fields: { certIssuedAt: this.b.ctx.clock.now() } });

  renewPublicCertificate(ref: string): string {
    return this.op(ref, 'renew', 'renewing its public certificate', this.reissued);
  }

  rotatePrivateCertificates(ref: string): string {
    return this.op(ref, 'rotate', 'rotating its host certificates', this.reissued);
  }

  rotateDbCertificate(ref: string): string {
    const c = this.b.cluster(ref);
    if ((c.doc.database ?? 'NON_HA') === 'NONE')
      throw failedPrecondition(`cluster ${c.doc.clusterName} has no external database; its database certificate is Cloudera Manager's own`);
    return this.run(c, 'dbcert', 'rotating its database certificate').operationId;
  }

  secretTypes(c: ClusterRec): ReadonlyArray<readonly [string, string]> {
    return SECRET_TYPES.filter(([t]) => t !== 'DATABASE_ROOT_PASSWORD' || (c.doc.database ?? 'NON_HA') !== 'NONE');
  }

  rotateSecrets(ref: string, types: readonly string[]): string {
    const c = this.b.cluster(ref);
    const known = this.secretTypes(c).map(([t]) => t);
    if (types.length === 0) throw invalid('give at least one secret type');
    for (const t of types)
      if (!known.includes(t))
        throw invalid(`secret type ${t} cannot be rotated on cluster ${c.doc.clusterName}; the types are ${known.join(', ')}`);
    return this.run(c, 'secrets', 'a secret rotation').operationId;
  }

  updatePublicDns(ref: string): string {
    return this.op(ref, 'dns', 'updating its public DNS entries');
  }

  updateOrchestratorState(ref: string): string {
    return this.op(ref, 'orchestrator', 'an orchestrator state update');
  }

  syncComponentVersions(ref: string): string {
    return this.op(ref, 'sync', 'syncing component versions from Cloudera Manager');
  }

  /** Requires IMDSv1 or IMDSv2 of an AWS cluster's instances. */
  imds(ref: string, version: 'v1' | 'v2'): string {
    const c = this.b.cluster(ref);
    if (c.doc.cloudPlatform !== 'AWS')
      throw failedPrecondition(`cluster ${c.doc.clusterName} runs on ${c.doc.cloudPlatform}; IMDS settings are for AWS`);
    if ((c.doc.imds ?? 'v2') === version && this.b.works.running(c, 'imds').length === 0)
      throw failedPrecondition(`the instances of cluster ${c.doc.clusterName} already use IMDS${version}`);
    return this.run(c, 'imds', `moving to IMDS${version}`, { fields: { imds: version } }).operationId;
  }

  setJava(ref: string, version: string): string {
    const c = this.b.cluster(ref);
    const java = Number(version);
    const runtime = c.doc.runtime ?? '7.2.18';
    const allowed = runtimeOf(runtime)?.java ?? [];
    if (!Number.isInteger(java) || !allowed.includes(java))
      throw invalid(`runtime ${runtime} runs on Java ${allowed.join(', ')}; not on ${version}`);
    return this.run(c, 'java', 'changing its Java version', { fields: { javaVersion: java } }).operationId;
  }

  /** Moves an Azure cluster's load balancers and public IPs from the basic to the standard SKU. */
  migrateSkus(ref: string, force: boolean): string {
    const c = this.b.cluster(ref);
    if (c.doc.cloudPlatform !== 'AZURE')
      throw failedPrecondition(`cluster ${c.doc.clusterName} runs on ${c.doc.cloudPlatform}; SKU migration is for Azure`);
    if ((c.doc.lbSku ?? 'BASIC') === 'STANDARD' && !force)
      throw failedPrecondition(`cluster ${c.doc.clusterName} already uses the standard SKU; --force migrates without this check`);
    return this.run(c, 'skus', 'a SKU migration', { fields: { lbSku: 'STANDARD' } }, undefined, ['AVAILABLE']).operationId;
  }

  // ---- upgrade preparation --------------------------------------------------------------

  /** Runs the upgrade checks and downloads the parcels of the target image. */
  prepareUpgrade(c: ClusterRec, to: Image): string {
    if (to.runtime === this.b.image(c).runtime)
      throw invalid(
        `image ${to.imageId} keeps runtime ${to.runtime}; preparation is for runtime upgrades (--runtime or --image-id of a newer runtime)`,
      );
    return this.run(c, 'prepare', 'preparing an upgrade', { fields: { prepared: to.imageId } }, undefined, ['AVAILABLE']).operationId;
  }

  // ---- instances -------------------------------------------------------------------------

  private instances(c: ClusterRec, ids: readonly string[]): Array<{ group: ClusterDoc['groups'][number]; id: string; stopped: boolean }> {
    if (ids.length === 0) throw invalid('give at least one instance id');
    return ids.map((id) => {
      for (const group of c.doc.groups) {
        const i = group.instances.find((x) => x.id === id);
        if (i) return { group, id, stopped: i.stopped === true };
      }
      throw notFound(`cluster ${c.doc.clusterName} has no instance ${id}`);
    });
  }

  /** Instance work needs the cluster available and not changing. */
  private forInstances(ref: string): ClusterRec {
    const c = this.b.cluster(ref);
    this.require(c, ['AVAILABLE'], 'instance work');
    return c;
  }

  restartInstances(ref: string, ids: readonly string[]): string {
    const c = this.forInstances(ref);
    for (const x of this.instances(c, ids))
      if (x.stopped) throw failedPrecondition(`instance ${x.id} is stopped; start it (\`datahub instances start\`) rather than restart it`);
    return this.run(c, 'restart', 'restarting instances').operationId;
  }

  stopInstances(ref: string, ids: readonly string[]): string {
    const c = this.forInstances(ref);
    for (const x of this.instances(c, ids)) {
      if (x.group.type === 'GATEWAY') throw invalid(`instance ${x.id} is in instance group ${x.group.name}, which holds Cloudera Manager`);
      if (x.stopped) throw failedPrecondition(`instance ${x.id} is already stopped`);
    }
    return this.run(c, 'stopinstances', 'stopping instances', { stop: [...ids] }).operationId;
  }

  /** Starts stopped instances of a group: `count` of them (all when not given). */
  startInstances(ref: string, groupName: string, count?: number): string {
    const c = this.forInstances(ref);
    const g = c.doc.groups.find((x) => x.name === groupName);
    if (!g)
      throw notFound(
        `cluster ${c.doc.clusterName} has no instance group ${groupName}; it has ${c.doc.groups.map((x) => x.name).join(', ')}`,
      );
    const stopped = g.instances.filter((i) => i.stopped).map((i) => i.id);
    if (stopped.length === 0) throw failedPrecondition(`instance group ${g.name} has no stopped instances`);
    const n = count ?? stopped.length;
    if (n < 1) throw invalid('instanceCount must be 1 or more');
    if (n > stopped.length)
      throw failedPrecondition(`instance group ${g.name} has ${stopped.length} stopped instance(s); cannot start ${n}`);
    return this.run(c, 'startinstances', 'starting instances', { start: stopped.slice(0, n) }).operationId;
  }

  // ---- ZooKeeper to KRaft ----------------------------------------------------------------

  private kafka(ref: string): ClusterRec {
    const c = this.b.cluster(ref);
    if (!c.doc.kraft)
      throw failedPrecondition(`cluster ${c.doc.clusterName} runs no Kafka; the KRaft migration is for Streams Messaging clusters`);
    return c;
  }

  migrateToKraft(ref: string): string {
    const c = this.kafka(ref);
    const runtime = c.doc.runtime ?? '7.2.18';
    if (compareVersions(runtime, KRAFT_RUNTIME) < 0)
      throw failedPrecondition(
        `cluster ${c.doc.clusterName} runs runtime ${runtime}; KRaft needs ${KRAFT_RUNTIME} or newer (upgrade it first)`,
      );
    if (c.doc.kraft !== 'ZOOKEEPER')
      throw failedPrecondition(
        `the Kafka brokers of cluster ${c.doc.clusterName} are already ${c.doc.kraft === 'KRAFT' ? 'on KRaft' : 'migrated, waiting to be finalized or rolled back'}`,
      );
    return this.run(c, 'kraft', 'the KRaft migration', { fields: { kraft: 'MIGRATED' } }, undefined, ['AVAILABLE']).operationId;
  }

  private migrated(ref: string, step: string): ClusterRec {
    const c = this.kafka(ref);
    if (this.b.works.running(c, 'kraft').length > 0)
      throw failedPrecondition(`cluster ${c.doc.clusterName} is still migrating to KRaft; wait for it`);
    if (c.doc.kraft !== 'MIGRATED')
      throw failedPrecondition(
        `cluster ${c.doc.clusterName} has no KRaft migration to ${step} (its brokers are ${c.doc.kraft === 'KRAFT' ? 'on KRaft for good' : 'on ZooKeeper'})`,
      );
    return c;
  }

  finalizeKraft(ref: string): string {
    const c = this.migrated(ref, 'finalize');
    return this.run(c, 'finalize', 'finalizing the KRaft migration', { fields: { kraft: 'KRAFT' } }).operationId;
  }

  rollbackKraft(ref: string): string {
    const c = this.migrated(ref, 'roll back');
    return this.run(c, 'rollback', 'rolling back the KRaft migration', { fields: { kraft: 'ZOOKEEPER' } }).operationId;
  }

  // ---- diagnostics -----------------------------------------------------------------------

  cmRoles(c: ClusterRec): string[] {
    return [...new Set((c.doc.services ?? []).flatMap((s) => SERVICE_ROLES[s] ?? []))];
  }

  /** Starts a collection of the hosts' logs (`diagnostics`) or a Cloudera Manager bundle (`cmdiagnostics`). */
  collect(ref: string, kind: 'diagnostics' | 'cmdiagnostics', spec: CollectionSpec): string {
    const c = this.b.cluster(ref);
    const labels = LOG_DESCRIPTORS.map(([l]) => l);
    for (const l of spec.labels) if (!labels.includes(l)) throw invalid(`log label ${l} is not known; the labels are ${labels.join(', ')}`);
    const fqdns = c.doc.groups.flatMap((g) => g.instances.map((i) => i.fqdn));
    for (const host of spec.hosts) if (!fqdns.includes(host)) throw notFound(`cluster ${c.doc.clusterName} has no host ${host}`);
    for (const name of spec.hostGroups)
      if (!c.doc.groups.some((g) => g.name === name)) throw notFound(`cluster ${c.doc.clusterName} has no instance group ${name}`);
    const roles = this.cmRoles(c);
    for (const r of spec.roles)
      if (!roles.includes(r)) throw invalid(`cluster ${c.doc.clusterName} has no Cloudera Manager role ${r}; it has ${roles.join(', ')}`);
    if (spec.destination === 'CLOUD_STORAGE') {
      const env = this.b.environment(c.doc.environmentCrn);
      if (!env.logStorage.enabled) throw failedPrecondition(`environment ${env.environmentName} has no log storage to collect into`);
    }
    const what = kind === 'diagnostics' ? 'a diagnostics collection' : 'a Cloudera Manager diagnostics collection';
    return this.run(c, kind, what, undefined, {
      destination: spec.destination,
      ...(spec.description ? { description: spec.description } : {}),
      ...(spec.caseNumber ? { caseNumber: spec.caseNumber } : {}),
    }).operationId;
  }

  /** The cluster's collections, newest first. */
  collections(c: ClusterRec): WorkRec[] {
    return this.b.works
      .of(c)
      .filter((w) => w.activity.action === 'diagnostics' || w.activity.action === 'cmdiagnostics')
      .reverse();
  }

  /** Cancels the cluster's running collections. */
  cancelCollections(c: ClusterRec): void {
    for (const w of this.collections(c)) if (!this.b.works.progress(w).done) this.b.works.cancel(w);
  }
}
