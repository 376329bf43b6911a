/**
 * The account's side of the environments service: telemetry's anonymization
 * rules (the settings themselves and the Azure Marketplace image terms switch
 * are the table's records: account-handlers.ts), configuration settings (system-wide or of an environment), what a cloud
 * account needs before a credential is made, and the checks a user runs
 * before registering things: a Cloudera Manager, a database, a Kubernetes
 * cluster, a log storage location. Checks answer with their result; a host,
 * bucket or storage account named `fail-...` fails its check on purpose.
 */
import { invalid } from '../../errors.js';
import { stableUuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import type { EnvironmentsBackend } from './backend.js';
import { CONTROL_PLANE_AWS_ACCOUNT, auditPrerequisites, awsPrerequisites, azurePrerequisites } from './catalogue.js';
import { ACCOUNT_KIND, type AccountSettings, type AnonymizationRule, type CloudPlatform } from './records.js';

const failing = (name: string): boolean => name.toLowerCase().startsWith('fail-');

/** The services of a base cluster a private cloud data lake needs, with their ports. */
const BASE_CLUSTER_SERVICES: ReadonlyArray<readonly [name: string, type: string, port: number]> = [
  ['zookeeper', 'ZOOKEEPER', 2181],
  ['hdfs', 'HDFS', 9871],
  ['hive', 'HIVE', 9083],
  ['ranger', 'RANGER', 6182],
  ['atlas', 'ATLAS', 31443],
  ['solr', 'SOLR', 8995],
  ['kafka', 'KAFKA', 9093],
];

/** Rules applied in order to a text; INVALID_ARGUMENT naming a rule that is not a regular expression. */
export function anonymize(text: string, rules: readonly AnonymizationRule[]): string {
  return rules.reduce((out, rule, i) => out.replace(compile(rule, i), rule.replacement), text);
}

export function compile(rule: AnonymizationRule, i: number): RegExp {
  try {
    return new RegExp(rule.value, 'g');
  } catch (err) {
    throw invalid(`rule ${i + 1}: ${rule.value.slice(0, 100)} is not a regular expression (${(err as Error).message})`);
  }
}

export class AccountPart {
  constructor(private readonly b: EnvironmentsBackend) {}

  private get ctx(): EnvironmentsBackend['ctx'] {
    return this.b.ctx;
  }

  private read(): AccountSettings {
    return this.ctx.store.get<AccountSettings>(ACCOUNT_KIND, this.ctx.info.accountId) ?? {};
  }

  private write(change: (s: AccountSettings) => void): AccountSettings {
    const s = this.read();
    change(s);
    this.ctx.store.put(ACCOUNT_KIND, this.ctx.info.accountId, s);
    return s;
  }

  // ---- settings ------------------------------------------------------------------------

  /** The settings asked for that are set, of an environment or (without one) system-wide. */
  settings(attrs: readonly string[], environment?: string): Record<string, string> {
    const all = environment ? (this.b.environment(environment).settings ?? {}) : (this.read().settings ?? {});
    return Object.fromEntries(attrs.filter((a) => all[a] !== undefined).map((a) => [a, all[a] ?? '']));
  }

  setSettings(settings: Record<string, string>, environment?: string): void {
    const names = Object.keys(settings);
    if (names.length === 0) throw invalid('give at least one setting: --settings \'{"name":"value"}\'');
    for (const n of names) if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(n)) throw invalid(`${n.slice(0, 100)} is not a setting name`);
    if (environment) {
      const e = this.b.environment(environment);
      e.settings = { ...e.settings, ...settings };
      this.b.save(e);
    } else this.write((s) => (s.settings = { ...s.settings, ...settings }));
  }

  // ---- credential prerequisites ------------------------------------------------------------

  credentialPrerequisites(platform: string, gov: boolean): Doc {
    const account = this.ctx.info.accountId;
    if (gov && platform !== 'AWS') throw invalid(`GovCloud credentials are for AWS; ${platform.slice(0, 20)} has none`);
    if (platform === 'AWS')
      return {
        cloudPlatform: 'AWS',
        accountId: CONTROL_PLANE_AWS_ACCOUNT,
        aws: { externalId: stableUuid(`${account}/external-id`), ...awsPrerequisites(gov ? 'aws-us-gov' : 'aws') },
      };
    if (platform === 'AZURE') return { cloudPlatform: 'AZURE', azure: { ...azurePrerequisites(account), policies: [] } };
    throw invalid(`credential prerequisites are for AWS and AZURE; ${platform.slice(0, 20)} credentials need none`);
  }

  auditPrerequisites(platform: string, gov: boolean): Doc {
    if (platform !== 'AWS' && platform !== 'AZURE' && platform !== 'GCP')
      throw invalid(`${platform.slice(0, 20)} is not AWS, AZURE or GCP`);
    if (gov && platform !== 'AWS') throw invalid(`GovCloud audit credentials are for AWS; ${platform} has none`);
    const key = platform.toLowerCase();
    const partition = gov ? 'aws-us-gov' : 'aws';
    return {
      cloudPlatform: platform,
      ...(platform === 'AWS' ? { accountId: CONTROL_PLANE_AWS_ACCOUNT } : {}),
      [key]: auditPrerequisites(platform as CloudPlatform, partition, this.ctx.info.accountId),
    };
  }

  // ---- checks ------------------------------------------------------------------------------

  /** What the control plane finds at a Cloudera Manager: the base clusters asked for, with their services. */
  checkClouderaManager(address: string, clusterNames: readonly string[]): Doc[] {
    const url = /^https?:\/\/([^/:\s]+)(?::(\d+))?\/?$/.exec(address);
    if (!url) throw invalid(`${address.slice(0, 200)} is not the address of a Cloudera Manager (https://host:port)`);
    const host = url[1] ?? '';
    const names = clusterNames.length > 0 ? clusterNames : ['Cluster 1'];
    if (failing(host))
      return names.map((n) => ({
        name: n,
        displayName: n,
        cmUrl: address,
        clusterValidationMessages: [
          { severity: 'ERROR', message: `Cloudera Manager at ${address} did not answer (a host named fail-... fails on purpose)` },
        ],
      }));
    return names.map((n) => ({
      name: n,
      displayName: n,
      cmUrl: address,
      version: '7.11.3',
      exposedServices: BASE_CLUSTER_SERVICES.map(([name, type, port]) => ({
        name,
        type,
        displayName: type.charAt(0) + type.slice(1).toLowerCase(),
        serviceUrl: `https://${host}:${port}`,
        serviceVersion: '7.1.9',
        status: 'STARTED',
      })),
      clusterValidationMessages: [{ severity: 'INFO', message: `cluster ${n} runs every service a data lake needs` }],
    }));
  }

  checkDatabase(host: string, port: number, name: string, username: string): { result: string; message: string } {
    if (port < 1 || port > 65535) throw invalid(`port ${port} is not a TCP port (1-65535)`);
    if (failing(host))
      return {
        result: 'FAILURE',
        message: `could not connect to ${host}:${port}: connection refused (a host named fail-... fails on purpose)`,
      };
    return { result: 'SUCCESS', message: `connected to database ${name} on ${host}:${port} as ${username}` };
  }

  checkKubernetes(kubeConfig: string): { status: string; message: string } {
    const server = /^\s*server:\s*(\S+)/m.exec(kubeConfig)?.[1];
    if (!/^\s*clusters:/m.test(kubeConfig) || !server)
      return { status: 'FAILURE', message: 'the kubeconfig names no cluster with a server (clusters[].cluster.server)' };
    const host = /^https?:\/\/([^/:]+)/.exec(server)?.[1] ?? server;
    if (failing(host))
      return { status: 'FAILURE', message: `the API server at ${server} did not answer (a host named fail-... fails on purpose)` };
    return { status: 'SUCCESS', message: `the API server at ${server} answered` };
  }

  validateAwsStorage(credentialCrn: string, location: string, instanceProfile: string): { status: string; error?: string } {
    this.credentialOf(credentialCrn, 'AWS');
    const bucket = /^s3a?:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(\/.*)?$/.exec(location)?.[1];
    if (!bucket) return { status: 'ERROR', error: `${location} is not an S3 location (s3a://bucket/path)` };
    if (!/^arn:aws(-us-gov)?:iam::\d{12}:instance-profile\/.+$/.test(instanceProfile))
      return { status: 'ERROR', error: `${instanceProfile} is not the ARN of an instance profile` };
    if (failing(bucket))
      return {
        status: 'ACCESS_DENIED',
        error: `${instanceProfile} cannot write to ${location} (a bucket named fail-... fails on purpose)`,
      };
    return { status: 'OK' };
  }

  validateAzureStorage(
    credentialCrn: string,
    location: string,
    access: { managedIdentity?: string; accountKey?: string; accountName?: string },
  ): { status: string; error?: string } {
    this.credentialOf(credentialCrn, 'AZURE');
    const m = /^abfss?:\/\/([a-z0-9-]+)@([a-z0-9]+)\.dfs\.core\.windows\.net(\/.*)?$/.exec(location);
    if (!m) return { status: 'ERROR', error: `${location} is not an ADLS Gen2 location (abfs://filesystem@account.dfs.core.windows.net)` };
    if (!access.managedIdentity && !(access.accountKey && access.accountName))
      throw invalid('give --managed-identity, or --account-name with --account-key');
    const account = m[2] ?? '';
    if (access.accountName && access.accountName !== account)
      return { status: 'ERROR', error: `account ${access.accountName} is not the storage account of ${location} (${account})` };
    if (failing(m[1] ?? '') || account.startsWith('fail'))
      return { status: 'ACCESS_DENIED', error: `no write access to ${location} (a file system or account named fail... fails on purpose)` };
    return { status: 'OK' };
  }

  private credentialOf(credentialCrn: string, platform: CloudPlatform): void {
    const c = this.b.credential(credentialCrn);
    if (c.cloudPlatform !== platform)
      throw invalid(`credential ${c.credentialName} is an ${c.cloudPlatform} credential; this check needs an ${platform} one`);
  }
}
