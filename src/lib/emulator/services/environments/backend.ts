/**
 * The environments service: credentials, proxy configurations, environments
 * with their lifecycle (ENVIRONMENT in ../../environments.ts, the records
 * every other service refers to), ID Broker mappings and FreeIPA's state.
 *
 * Rules, as the control plane has them: names are unique per account; an
 * environment needs a credential of its own cloud (GovCloud for GovCloud)
 * and, when it names one, an existing proxy configuration; a credential or
 * proxy configuration an environment uses cannot be deleted; an environment
 * with data lakes or Data Hubs is deleted only with `cascading`, which
 * removes them as the delete starts; `forced` deletes never fail.
 */
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import {
  CREDENTIAL_KIND,
  ENVIRONMENT_DEPENDENTS,
  ENVIRONMENT_OPERATION_KIND,
  ID_BROKER_KIND,
  environmentResources,
  environments,
  networkOf,
  requireEnvironment,
  type CloudPlatform,
  type CredentialRecord,
  type EnvironmentRecord,
} from '../../environments.js';
import { crn, uuid } from '../../ids.js';
import { Operations, type OperationRecord, type Resources } from '../../lifecycle.js';
import type { BackendContext } from '../../types.js';

export const PROXY_KIND = 'environments.proxyconfig';

export interface ProxyRecord {
  proxyConfigName: string;
  crn: string;
  protocol: string;
  host: string;
  port: number;
  description?: string;
  noProxyHosts?: string;
  user?: string;
  /** Kept to tell that one was given; never answered. */
  hasPassword: boolean;
}

export interface IdBrokerRecord {
  mappingsVersion: number;
  dataAccessRole: string;
  rangerAuditRole: string;
  rangerCloudAccessAuthorizerRole?: string;
  baselineRole?: string;
  mappings: Array<{ accessorCrn: string; role: string }>;
  /** The version last synced to the environment's clusters. */
  syncedVersion: number;
}

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
  readonly freeipa: EnvironmentRecord['freeipa'];
  readonly tags: Record<string, string>;
  readonly proxyConfigName?: string;
  readonly workloadAnalytics?: boolean;
  readonly enableComputeCluster: boolean;
}

const LOG_DETAILS = { AWS: 'awsDetails', AZURE: 'azureDetails', GCP: 'gcpDetails' } as const;

export class EnvironmentsBackend {
  readonly envs: Resources<EnvironmentRecord>;
  readonly operations: Operations;

  constructor(readonly ctx: BackendContext) {
    this.envs = environmentResources(ctx);
    this.operations = new Operations(ctx, ENVIRONMENT_OPERATION_KIND);
  }

  private crnOf(type: string): string {
    return crn('environments', this.ctx.info.region, this.ctx.info.accountId, type, uuid());
  }

  // ---- credentials -------------------------------------------------------------

  createCredential(rec: Omit<CredentialRecord, 'crn' | 'created'>): CredentialRecord {
    if (this.ctx.store.getByName(CREDENTIAL_KIND, rec.credentialName))
      throw alreadyExists(`a credential named ${rec.credentialName} already exists`);
    const full: CredentialRecord = { ...rec, crn: this.crnOf('credential'), created: this.ctx.clock.iso() };
    this.ctx.store.put(CREDENTIAL_KIND, full.crn, full, { name: full.credentialName, crn: full.crn });
    return full;
  }

  credential(name: string): CredentialRecord {
    const c = name.startsWith('crn:')
      ? this.ctx.store.getByCrn<CredentialRecord>(name)?.doc
      : this.ctx.store.getByName<CredentialRecord>(CREDENTIAL_KIND, name);
    if (!c) throw notFound(`credential ${name.slice(0, 200)} not found`);
    return c;
  }

  credentials(name?: string): CredentialRecord[] {
    const all = this.ctx.store.list<CredentialRecord>(CREDENTIAL_KIND).map((d) => d.doc);
    return name ? all.filter((c) => c.credentialName.toLowerCase() === name.toLowerCase() || c.crn === name) : all;
  }

  deleteCredential(name: string): CredentialRecord {
    const c = this.credential(name);
    const users = this.envs.all().filter((e) => e.credentialName === c.credentialName);
    if (users.length > 0)
      throw failedPrecondition(
        `credential ${c.credentialName} is used by environment ${users.map((e) => e.environmentName).join(', ')}; change their credential or delete them first`,
      );
    this.ctx.store.delete(CREDENTIAL_KIND, c.crn);
    return c;
  }

  // ---- proxy configurations ----------------------------------------------------

  createProxy(rec: Omit<ProxyRecord, 'crn'>): ProxyRecord {
    if (this.ctx.store.getByName(PROXY_KIND, rec.proxyConfigName))
      throw alreadyExists(`a proxy configuration named ${rec.proxyConfigName} already exists`);
    const full: ProxyRecord = { ...rec, crn: this.crnOf('proxyConfig') };
    this.ctx.store.put(PROXY_KIND, full.crn, full, { name: full.proxyConfigName, crn: full.crn });
    return full;
  }

  proxy(name: string): ProxyRecord {
    const p = name.startsWith('crn:')
      ? this.ctx.store.getByCrn<ProxyRecord>(name)?.doc
      : this.ctx.store.getByName<ProxyRecord>(PROXY_KIND, name);
    if (!p) throw notFound(`proxy configuration ${name.slice(0, 200)} not found`);
    return p;
  }

  proxies(name?: string): ProxyRecord[] {
    const all = this.ctx.store.list<ProxyRecord>(PROXY_KIND).map((d) => d.doc);
    return name ? all.filter((p) => p.proxyConfigName.toLowerCase() === name.toLowerCase() || p.crn === name) : all;
  }

  deleteProxy(name: string): ProxyRecord {
    const p = this.proxy(name);
    const users = this.envs.all().filter((e) => e.proxyConfigName === p.proxyConfigName);
    if (users.length > 0)
      throw failedPrecondition(
        `proxy configuration ${p.proxyConfigName} is used by environment ${users.map((e) => e.environmentName).join(', ')}; remove it from them first`,
      );
    this.ctx.store.delete(PROXY_KIND, p.crn);
    return p;
  }

  /** Sets (or, with no name, removes) an environment's proxy configuration. */
  setProxy(ref: string, name: string | undefined): void {
    const env = this.environment(ref);
    if (name) env.proxyConfigName = this.proxy(name).proxyConfigName;
    else delete env.proxyConfigName;
    this.envs.save(env);
  }

  // ---- environments ------------------------------------------------------------

  environment(ref: string): EnvironmentRecord {
    return requireEnvironment(this.ctx, ref);
  }

  /** Every environment of the account with its current status. */
  environments(): EnvironmentRecord[] {
    return environments(this.ctx);
  }

  create(spec: EnvironmentSpec): EnvironmentRecord {
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
    const proxy = spec.proxyConfigName ? this.proxy(spec.proxyConfigName).proxyConfigName : undefined;
    const network = networkOf(spec.name, spec.platform, spec.network);
    if (spec.endpointAccessGatewayScheme) network.endpointAccessGatewayScheme = spec.endpointAccessGatewayScheme;
    if (network.azure) network.azure.usePublicIp = spec.usePublicIp;
    if (network.gcp) network.gcp.usePublicIp = spec.usePublicIp;
    const rec: Omit<EnvironmentRecord, 'activity'> = {
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
      environmentType: 'PUBLIC_CLOUD',
      tags: { userDefined: spec.tags, defaults: { 'Cloudera-Environment-Resource-Name': spec.name } },
      ...(spec.authentication ? { authentication: spec.authentication } : {}),
      ...(spec.securityAccess ? { securityAccess: spec.securityAccess } : {}),
      ...(proxy ? { proxyConfigName: proxy } : {}),
      ...(spec.workloadAnalytics !== undefined ? { workloadAnalytics: spec.workloadAnalytics } : {}),
      freeipa: spec.freeipa,
    };
    const env = this.envs.create(rec, 'create');
    env.status = this.envs.state(env);
    return env;
  }

  stop(ref: string): string {
    return this.envs.begin(this.environment(ref), 'stop').operationId ?? '';
  }

  start(ref: string): string {
    return this.envs.begin(this.environment(ref), 'start').operationId ?? '';
  }

  /** Starts deleting an environment; with `cascading` its data lakes and Data Hubs go with it. */
  delete(ref: string, opts: { cascading: boolean; forced: boolean }): string {
    const env = this.environment(ref);
    const state = this.envs.state(env);
    if (env.activity.action === 'delete' && this.envs.busy(env))
      throw failedPrecondition(`environment ${env.environmentName} is already being deleted (${state})`);
    const deps = ENVIRONMENT_DEPENDENTS.flatMap((d) =>
      this.ctx.store
        .list<Record<string, unknown> & { environmentCrn?: string }>(d.kind)
        .filter((x) => x.doc.environmentCrn === env.crn)
        .map((x) => ({ kind: d.kind, id: x.id, what: `${d.noun} ${String(x.doc[d.name] ?? x.id)}` })),
    );
    if (deps.length > 0 && !opts.cascading)
      throw failedPrecondition(
        `environment ${env.environmentName} still has ${deps.map((d) => d.what).join(', ')}; delete them first, or delete with --cascading`,
      );
    // Cascading: what runs in the environment goes first (at once here), then the environment.
    for (const d of deps) this.ctx.store.delete(d.kind, d.id);
    return this.envs.begin(env, 'delete', { anyState: true, ...(opts.forced ? { fail: false } : {}) }).operationId ?? '';
  }

  changeCredential(ref: string, credentialName: string): EnvironmentRecord {
    const env = this.environment(ref);
    const cred = this.credential(credentialName);
    if (cred.cloudPlatform !== env.cloudPlatform)
      throw invalid(
        `credential ${cred.credentialName} is for ${cred.cloudPlatform}; environment ${env.environmentName} runs on ${env.cloudPlatform}`,
      );
    env.credentialName = cred.credentialName;
    return this.envs.save(env);
  }

  updateTags(ref: string, tags: Record<string, string>): EnvironmentRecord {
    const env = this.environment(ref);
    env.tags.userDefined = { ...env.tags.userDefined, ...tags };
    return this.envs.save(env);
  }

  /** The operation an environment's work answered with, or its latest one. */
  operation(ref: string, operationId?: string): OperationRecord {
    const env = this.environment(ref);
    return this.operations.ofOwner(env.crn, `environment ${env.environmentName}`, operationId);
  }

  // ---- ID Broker mappings ------------------------------------------------------

  idBroker(ref: string): IdBrokerRecord {
    const env = this.environment(ref);
    return (
      this.ctx.store.get<IdBrokerRecord>(ID_BROKER_KIND, env.crn) ?? {
        mappingsVersion: 0,
        dataAccessRole: '',
        rangerAuditRole: '',
        mappings: [],
        syncedVersion: 0,
      }
    );
  }

  setIdBroker(ref: string, m: Omit<IdBrokerRecord, 'mappingsVersion' | 'syncedVersion'>): IdBrokerRecord {
    const env = this.environment(ref);
    const prev = this.idBroker(env.crn);
    const accessors = new Set<string>();
    for (const x of m.mappings) {
      if (accessors.has(x.accessorCrn)) throw invalid(`accessor ${x.accessorCrn} is mapped twice; give each user or group one role`);
      accessors.add(x.accessorCrn);
    }
    const rec: IdBrokerRecord = { ...m, mappingsVersion: prev.mappingsVersion + 1, syncedVersion: prev.syncedVersion };
    this.ctx.store.put(ID_BROKER_KIND, env.crn, rec, { parent: env.crn });
    return rec;
  }

  syncIdBroker(ref: string): void {
    const env = this.environment(ref);
    const rec = this.idBroker(env.crn);
    rec.syncedVersion = rec.mappingsVersion;
    this.ctx.store.put(ID_BROKER_KIND, env.crn, rec, { parent: env.crn });
  }
}
