/**
 * The environments service: credentials, proxy configurations, environments
 * with their lifecycle (ENVIRONMENT in ../../environments.ts, the records
 * every other service refers to, and this service's own changes in
 * lifecycles.ts), ID Broker mappings; its parts: FreeIPA (freeipa.ts), the
 * changes of an environment after it is made (changes.ts) and the account's
 * settings and checks (account.ts).
 *
 * Rules, as the control plane has them: names are unique per account; an
 * environment needs a credential of its own cloud (GovCloud for GovCloud)
 * and, when it names one, an existing proxy configuration; a credential or
 * proxy configuration an environment uses cannot be deleted; an environment
 * with data lakes or Data Hubs is deleted only with `cascading`, which
 * removes them as the delete starts; `forced` deletes never fail. Stopping an
 * environment stops what runs in it (its Data Hubs, data lake and data
 * services) with it; starting it starts them again, its Data Hubs only when
 * asked to.
 */
import { alreadyExists, failedPrecondition, invalid } from '../../errors.js';
import {
  ENVIRONMENT_OPERATION_KIND,
  environmentResources,
  environments,
  networkOf,
  requireEnvironment,
  type CloudPlatform,
  type EnvironmentRecord,
} from '../../environments.js';
import { crn, uuid } from '../../ids.js';
import { Operations, type OperationRecord } from '../../engine/operations.js';
import { Resources } from '../../engine/records.js';
import type { BackendContext, Doc } from '../../types.js';
import type { Hook } from '../../engine/declare.js';
import type { resources } from '../../../model/services/environments/resources.js';
import { AccountPart } from './account.js';
import { AZURE_ZONES } from './catalogue.js';
import { EnvironmentChanges } from './changes.js';
import { Freeipa, type FreeipaSpec } from './freeipa.js';
import { usersFingerprint } from './identity.js';
import { ACTION_WORDS, ENVIRONMENT_WORK } from './lifecycles.js';
import type { ComputeClusterConfiguration, CredentialRec, EnvRecord } from './records.js';

/** The resources of the service's table (model/services/environments/resources.ts). */
export type R = keyof typeof resources.resources;

/** What a new environment is made of, whatever its cloud. */
export interface EnvironmentSpec {
  readonly name: string;
  readonly platform: CloudPlatform;
  readonly gov: boolean;
  readonly credentialName: string;
  readonly region: string;
  readonly description?: string;
  readonly network: { id?: string; subnets?: string[]; cidr?: string };
  readonly endpointAccessGatewayScheme?: string;
  readonly logStorage: Record<string, string>;
  readonly authentication?: EnvironmentRecord['authentication'];
  readonly securityAccess?: EnvironmentRecord['securityAccess'];
  readonly usePublicIp: boolean;
  readonly freeipa: FreeipaSpec;
  readonly tags: Record<string, string>;
  readonly proxyConfigName?: string;
  readonly workloadAnalytics?: boolean;
  readonly enableComputeCluster: boolean;
  readonly computeCluster?: ComputeClusterConfiguration;
  readonly environmentType?: 'PUBLIC_CLOUD' | 'HYBRID';
  readonly enableTunnel: boolean;
  readonly encryptionKeyArn?: string;
  readonly customDockerRegistry?: string;
  readonly availabilityZones?: string[];
  readonly endpointAccessGatewaySubnetIds?: string[];
  readonly azure?: {
    resourceGroupName?: string;
    sharedManagedIdentity?: string;
    aksPrivateDnsZoneId?: string;
    databasePrivateDnsZoneId?: string;
    flexibleServerSubnetIds?: string[];
    encryptionKeyUrl?: string;
    encryptionKeyResourceGroupName?: string;
    encryptionUserManagedIdentity?: string;
  };
}

const LOG_DETAILS = { AWS: 'awsDetails', AZURE: 'azureDetails', GCP: 'gcpDetails' } as const;

export class EnvironmentsBackend {
  /** The environments, with every action of this service (ENVIRONMENT_WORK) and this service's own fields. */
  readonly envs: Resources<EnvRecord>;
  readonly operations: Operations;
  readonly freeipa: Freeipa;
  readonly changes: EnvironmentChanges;
  readonly account: AccountPart;

  readonly ctx: BackendContext;

  constructor(readonly h: Hook<R>) {
    const ctx = (this.ctx = h.ctx);
    this.envs = new Resources<EnvRecord>(ctx, { ...environmentResources(ctx).def, lifecycle: ENVIRONMENT_WORK });
    this.operations = new Operations(ctx, ENVIRONMENT_OPERATION_KIND);
    this.freeipa = new Freeipa(this);
    this.changes = new EnvironmentChanges(this);
    this.account = new AccountPart(this);
  }

  crnOf(type: string): string {
    return crn('environments', this.ctx.info.region, this.ctx.info.accountId, type, uuid());
  }

  // ---- credentials and proxy configurations ---------------------------------------

  /** A credential by name or CRN (the table's `credential` records). */
  credential(ref: string): CredentialRec {
    return this.h.records('credential').get(ref).doc as unknown as CredentialRec;
  }

  /** The name of a proxy configuration a name (any case) or CRN names (the table's `proxyConfig` records). */
  proxyName(ref: string): string {
    return this.h.records('proxyConfig').get(ref).name ?? ref;
  }

  /** Sets (or, with no name, removes) an environment's proxy configuration. */
  setProxy(ref: string, name: string | undefined): void {
    const env = this.environment(ref);
    if (name) env.proxyConfigName = this.proxyName(name);
    else delete env.proxyConfigName;
    this.envs.save(env);
  }

  // ---- environments ------------------------------------------------------------

  /** The environment a request names, with its current status; NOT_FOUND naming the account's environments. */
  environment(ref: string): EnvRecord {
    // The records of this kind are written by this service: they are EnvRecords (the shared type knows only the shared fields).
    return requireEnvironment(this.ctx, ref) as EnvRecord;
  }

  /** Every environment of the account with its current status. */
  environments(): EnvRecord[] {
    return environments(this.ctx) as EnvRecord[];
  }

  create(spec: EnvironmentSpec): EnvRecord {
    if (this.envs.find(spec.name)) throw alreadyExists(`an environment named ${spec.name} already exists`);
    const gov = spec.region.startsWith('us-gov-');
    if (spec.platform === 'AWS' && gov !== spec.gov)
      throw invalid(
        spec.gov
          ? `${spec.region} is not an AWS GovCloud region (us-gov-west-1, us-gov-east-1)`
          : `${spec.region} is a GovCloud region: use create-aws-gov-cloud-environment`,
      );
    const cred = this.credential(spec.credentialName);
    const credGov = cred.awsCredentialProperties?.govCloud === true;
    if (cred.cloudPlatform !== spec.platform || credGov !== spec.gov)
      throw invalid(
        `credential ${cred.credentialName} is for ${credGov ? 'AWS GovCloud' : cred.cloudPlatform}; this environment needs a ${spec.gov ? 'AWS GovCloud' : spec.platform} credential`,
      );
    const servers = spec.freeipa.instanceCountByGroup;
    if (!Number.isInteger(servers) || servers < 1 || servers > 3)
      throw invalid(`FreeIPA runs one to three servers (freeIpa instanceCountByGroup 1-3); got ${servers}`);
    if (spec.platform === 'AZURE' && spec.availabilityZones?.some((z) => !AZURE_ZONES.includes(z)))
      throw invalid(`Azure availability zones are ${AZURE_ZONES.join(', ')}; got ${spec.availabilityZones.join(', ')}`);
    const proxy = spec.proxyConfigName ? this.proxyName(spec.proxyConfigName) : undefined;
    const network: EnvRecord['network'] = networkOf(spec.name, spec.platform, spec.network);
    if (spec.endpointAccessGatewayScheme) network.endpointAccessGatewayScheme = spec.endpointAccessGatewayScheme;
    if (spec.endpointAccessGatewaySubnetIds?.length) network.endpointAccessGatewaySubnetIds = spec.endpointAccessGatewaySubnetIds;
    if (network.azure) {
      network.azure.usePublicIp = spec.usePublicIp;
      if (spec.azure?.resourceGroupName) network.azure.resourceGroupName = spec.azure.resourceGroupName;
      if (spec.azure?.databasePrivateDnsZoneId) network.azure.databasePrivateDnsZoneId = spec.azure.databasePrivateDnsZoneId;
      if (spec.azure?.aksPrivateDnsZoneId) network.azure.aksPrivateDnsZoneId = spec.azure.aksPrivateDnsZoneId;
      if (spec.azure?.flexibleServerSubnetIds?.length) network.azure.flexibleServerSubnetIds = spec.azure.flexibleServerSubnetIds;
    }
    if (network.gcp) network.gcp.usePublicIp = spec.usePublicIp;
    const az = spec.azure;
    const rec: Omit<EnvRecord, 'activity'> = {
      environmentName: spec.name,
      crn: this.crnOf('environment'),
      status: '',
      region: spec.region,
      cloudPlatform: spec.platform,
      credentialName: cred.credentialName,
      description: spec.description ?? '',
      created: this.ctx.clock.iso(),
      creator: this.ctx.caller.actorCrn,
      network,
      logStorage: { enabled: true, [LOG_DETAILS[spec.platform]]: spec.logStorage },
      computeClusterEnabled: spec.enableComputeCluster,
      ...(spec.enableComputeCluster && spec.platform === 'AWS' ? { awsComputeClusterConfiguration: spec.computeCluster ?? {} } : {}),
      ...(spec.enableComputeCluster && spec.platform === 'AZURE' ? { azureComputeClusterConfiguration: spec.computeCluster ?? {} } : {}),
      environmentType: spec.environmentType ?? 'PUBLIC_CLOUD',
      tunnel: spec.enableTunnel ? 'CCMV2_JUMPGATE' : 'DIRECT',
      usersSeen: { fingerprint: usersFingerprint(this.ctx), at: this.ctx.clock.now() },
      ...(spec.encryptionKeyArn ? { encryptionKeyArn: spec.encryptionKeyArn } : {}),
      ...(spec.customDockerRegistry ? { customDockerRegistry: { crn: spec.customDockerRegistry } } : {}),
      ...(spec.availabilityZones?.length ? { availabilityZones: spec.availabilityZones } : {}),
      ...(az?.sharedManagedIdentity ? { dataServices: { azure: { sharedManagedIdentity: az.sharedManagedIdentity } } } : {}),
      ...(spec.platform === 'AZURE'
        ? {
            azureDetails: {
              resourceGroupName: network.azure?.resourceGroupName,
              ...(az?.encryptionKeyUrl
                ? {
                    resourceEncryptionParameters: {
                      encryptionKeyUrl: az.encryptionKeyUrl,
                      encryptionKeyResourceGroupName: az.encryptionKeyResourceGroupName,
                      encryptionUserManagedIdentity: az.encryptionUserManagedIdentity,
                    },
                  }
                : {}),
            },
          }
        : {}),
      tags: { userDefined: spec.tags, defaults: { 'Cloudera-Environment-Resource-Name': spec.name } },
      ...(spec.authentication ? { authentication: spec.authentication } : {}),
      ...(spec.securityAccess ? { securityAccess: spec.securityAccess } : {}),
      ...(proxy ? { proxyConfigName: proxy } : {}),
      ...(spec.workloadAnalytics !== undefined ? { workloadAnalytics: spec.workloadAnalytics } : {}),
      freeipa: {
        instanceCountByGroup: spec.freeipa.instanceCountByGroup,
        multiAz: spec.freeipa.multiAz,
        recipes: [...spec.freeipa.recipes],
      },
    };
    const env = this.envs.create(rec, 'create');
    this.freeipa.create(env, spec.freeipa);
    env.status = this.envs.state(env);
    return env;
  }

  /** FAILED_PRECONDITION while FreeIPA works: the environment waits for it. */
  private freeipaIdle(env: EnvRecord, what: string): void {
    if (!this.freeipa.busy(env)) return;
    const f = this.freeipa.of(env);
    throw failedPrecondition(
      `FreeIPA of environment ${env.environmentName} is ${this.freeipa.records.state(f)} (${ACTION_WORDS[f.activity.action] ?? f.activity.action}); ${what} waits until it is done`,
    );
  }

  /** Stops an environment, and with it what runs in it (its Data Hubs, data lake and data services), as the service does. */
  stop(ref: string): string {
    const env = this.environment(ref);
    if (env.privateCloud) throw failedPrecondition(`environment ${env.environmentName} is a private cloud environment; it does not stop`);
    this.freeipaIdle(env, 'a stop');
    const id = this.envs.begin(env, 'stop').operationId ?? '';
    this.ctx.world.follow(this.ctx, env.crn, 'stop');
    return id;
  }

  /**
   * Starts an environment: FreeIPA (which syncs the users it missed), its data
   * lake and data services, and its Data Hubs when `withDatahubs`.
   */
  start(ref: string, withDatahubs: boolean): string {
    const env = this.environment(ref);
    if (env.privateCloud)
      throw failedPrecondition(`environment ${env.environmentName} is a private cloud environment; it does not stop or start`);
    this.freeipaIdle(env, 'a start');
    const usersSeen = { fingerprint: usersFingerprint(this.ctx), at: this.ctx.clock.now() };
    const id = this.envs.begin(env, 'start', { effect: { usersSeen } }).operationId ?? '';
    for (const d of this.ctx.world.inEnvironment(this.ctx, env.crn)) if (withDatahubs || d.service !== 'datahub') d.follow('start');
    return id;
  }

  /** Starts deleting an environment; with `cascading` its data lakes and Data Hubs go with it. */
  delete(ref: string, opts: { cascading: boolean; forced: boolean }): string {
    const env = this.environment(ref);
    const state = this.envs.state(env);
    if (env.activity.action === 'delete' && this.envs.busy(env))
      throw failedPrecondition(`environment ${env.environmentName} is already being deleted (${state})`);
    // What every service runs in it, read settled: a delete that has ended is gone, whoever asked since.
    const deps = this.ctx.world.inEnvironment(this.ctx, env.crn);
    if (deps.length > 0 && !opts.cascading)
      throw failedPrecondition(
        `environment ${env.environmentName} still has ${deps.map((d) => d.what).join(', ')}; delete them first, or delete with --cascading`,
      );
    // Cascading: what runs in the environment goes first (at once here), then the environment.
    for (const d of deps) d.remove();
    return this.envs.begin(env, 'delete', { anyState: true, ...(opts.forced ? { fail: false } : {}) }).operationId ?? '';
  }

  changeCredential(ref: string, credentialName: string): EnvRecord {
    const env = this.environment(ref);
    const cred = this.credential(credentialName);
    if (cred.cloudPlatform !== env.cloudPlatform)
      throw invalid(
        `credential ${cred.credentialName} is for ${cred.cloudPlatform}; environment ${env.environmentName} runs on ${env.cloudPlatform}`,
      );
    env.credentialName = cred.credentialName;
    return this.envs.save(env);
  }

  updateTags(ref: string, tags: Record<string, string>): EnvRecord {
    const env = this.environment(ref);
    env.tags.userDefined = { ...env.tags.userDefined, ...tags };
    return this.envs.save(env);
  }

  /** The operation an environment's work answered with, or its latest one. */
  operation(ref: string, operationId?: string): OperationRecord {
    const env = this.environment(ref);
    return this.operations.ofOwner(env.crn, `environment ${env.environmentName}`, operationId);
  }
}

/** The backend of the request a table entry serves. */
export const backendOf = (h: Hook<R>): EnvironmentsBackend => new EnvironmentsBackend(h);

/** A code entry over the backend, named as the function is (the coverage table shows it; an unnamed one, by its operation). */
export function onBackend(fn: (b: EnvironmentsBackend, req: Doc, h: Hook<R>) => Doc): (h: Hook<R>, req: Doc) => Doc {
  return Object.defineProperty((h: Hook<R>, req: Doc): Doc => fn(backendOf(h), req, h), 'name', { value: fn.name });
}
