/**
 * The account's side of the environments service: telemetry (its settings
 * and the Azure Marketplace image terms switch are the table's records,
 * read as their defaults until first set), configuration settings
 * (system-wide or of an environment), what a cloud account needs before a
 * credential is made, and the checks a user runs before registering things:
 * a Cloudera Manager, a database, a Kubernetes cluster, a log storage
 * location. Checks answer with their result; a host, bucket or storage
 * account named `fail-...` fails its check on purpose.
 */
import type { Hook } from '../../engine/declare.js';
import { invalid } from '../../errors.js';
import { stableUuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { docs, num, str, stringMap, strings, text } from '../../values.js';
import { credentialOf, environmentOf, saveEnvironment, type R } from './backend.js';
import { CONTROL_PLANE_AWS_ACCOUNT, TELEMETRY_DEFAULTS, auditPrerequisites, awsPrerequisites, azurePrerequisites } from './catalogue.js';
import { ACCOUNT_KIND, type CloudPlatform } from './records.js';

/** The account's own settings: system-wide settings (settings set without an environment). */
type AccountSettings = { settings?: Record<string, string> };

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

// ---- telemetry ----------------------------------------------------------------------

export const telemetryDefaults = (): Doc => ({ ...TELEMETRY_DEFAULTS, rules: [...TELEMETRY_DEFAULTS.rules] });
export const imageTermsDefaults = (): Doc => ({ accepted: false });

/** Anonymization rules, each a regular expression (INVALID_ARGUMENT naming one that is not); one without a replacement redacts. */
const rulesOf = (v: unknown): Array<{ value: string; replacement: string; re: RegExp }> =>
  docs(v).map((r, i) => {
    const value = text(r.value);
    try {
      return { value, replacement: str(r.replacement) ?? '[REDACTED]', re: new RegExp(value, 'g') };
    } catch (err) {
      throw invalid(`rule ${i + 1}: ${value.slice(0, 100)} is not a regular expression (${(err as Error).message})`);
    }
  });

export function telemetryChange(_h: Hook<R>, sent: Doc): Doc {
  if (!Array.isArray(sent.rules)) return sent;
  return { ...sent, rules: rulesOf(sent.rules).map(({ value, replacement }) => ({ value, replacement })) };
}

export const testAccountTelemetryRules = (_h: Hook<R>, req: Doc): Doc => ({
  output: rulesOf(req.rules).reduce((out, rule) => out.replace(rule.re, rule.replacement), text(req.testInput)),
});

// ---- settings -----------------------------------------------------------------------

const accountSettings = (h: Hook<R>): AccountSettings => h.ctx.store.get<AccountSettings>(ACCOUNT_KIND, h.ctx.info.accountId) ?? {};

/** The settings asked for that are set, of an environment or (without one) system-wide. */
export function getEnvironmentSetting(h: Hook<R>, req: Doc): Doc {
  const environment = str(req.environmentName);
  const all = (environment ? environmentOf(h, environment).settings : accountSettings(h).settings) ?? {};
  return { settings: Object.fromEntries(strings(req.attrs).flatMap((a) => (all[a] !== undefined ? [[a, all[a]]] : []))) };
}

export function setEnvironmentSetting(h: Hook<R>, req: Doc): Doc {
  const settings = stringMap(req.settings);
  const names = Object.keys(settings);
  if (names.length === 0) throw invalid('give at least one setting: --settings \'{"name":"value"}\'');
  for (const n of names) if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(n)) throw invalid(`${n.slice(0, 100)} is not a setting name`);
  const environment = str(req.environmentName);
  if (environment) {
    const e = environmentOf(h, environment);
    saveEnvironment(h, Object.assign(e, { settings: { ...e.settings, ...settings } }));
  } else {
    const s = accountSettings(h);
    h.ctx.store.put(ACCOUNT_KIND, h.ctx.info.accountId, { ...s, settings: { ...s.settings, ...settings } });
  }
  return {};
}

// ---- credential prerequisites ----------------------------------------------------------

function credentialPrerequisites(h: Hook<R>, platform: string, gov: boolean): Doc {
  const account = h.ctx.info.accountId;
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

function auditCredentialPrerequisites(h: Hook<R>, platform: string, gov: boolean): Doc {
  if (platform !== 'AWS' && platform !== 'AZURE' && platform !== 'GCP') throw invalid(`${platform.slice(0, 20)} is not AWS, AZURE or GCP`);
  if (gov && platform !== 'AWS') throw invalid(`GovCloud audit credentials are for AWS; ${platform} has none`);
  return {
    cloudPlatform: platform,
    ...(platform === 'AWS' ? { accountId: CONTROL_PLANE_AWS_ACCOUNT } : {}),
    [platform.toLowerCase()]: auditPrerequisites(platform, gov ? 'aws-us-gov' : 'aws', h.ctx.info.accountId),
  };
}

export const getCredentialPrerequisites = (h: Hook<R>, req: Doc): Doc => credentialPrerequisites(h, text(req.cloudPlatform), false);

/** GovCloud's prerequisites do not name their cloud. */
const withoutPlatform = ({ cloudPlatform: _platform, ...rest }: Doc): Doc => rest;

export const getGovCloudCredentialPrerequisites = (h: Hook<R>, req: Doc): Doc =>
  withoutPlatform(credentialPrerequisites(h, text(req.cloudPlatform), true));

export const getAuditCredentialPrerequisites = (h: Hook<R>, req: Doc): Doc =>
  auditCredentialPrerequisites(h, text(req.cloudPlatform), false);

export const getGovCloudAuditCredentialPrerequisites = (h: Hook<R>, req: Doc): Doc =>
  withoutPlatform(auditCredentialPrerequisites(h, text(req.cloudPlatform), true));

// ---- checks ---------------------------------------------------------------------------

/** What the control plane finds at a Cloudera Manager: the base clusters asked for, with their services. */
export function checkEnvironmentConnectivity(_h: Hook<R>, req: Doc): Doc {
  const address = text(req.address);
  const url = /^https?:\/\/([^/:\s]+)(?::(\d+))?\/?$/.exec(address);
  if (!url) throw invalid(`${address.slice(0, 200)} is not the address of a Cloudera Manager (https://host:port)`);
  const host = url[1] ?? '';
  const names = strings(req.clusterNames);
  const clusters = (names.length > 0 ? names : ['Cluster 1']).map((n) => {
    const cluster = { name: n, displayName: n, cmUrl: address };
    if (failing(host))
      return {
        ...cluster,
        clusterValidationMessages: [
          { severity: 'ERROR', message: `Cloudera Manager at ${address} did not answer (a host named fail-... fails on purpose)` },
        ],
      };
    return {
      ...cluster,
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
    };
  });
  return { clusters };
}

export function checkDatabaseConnectivity(_h: Hook<R>, req: Doc): Doc {
  const [host, port] = [text(req.host), num(req.port) ?? 0];
  if (port < 1 || port > 65535) throw invalid(`port ${port} is not a TCP port (1-65535)`);
  if (failing(host))
    return {
      result: 'FAILURE',
      message: `could not connect to ${host}:${port}: connection refused (a host named fail-... fails on purpose)`,
    };
  return { result: 'SUCCESS', message: `connected to database ${text(req.name)} on ${host}:${port} as ${text(req.username)}` };
}

export function checkKubernetesConnectivity(_h: Hook<R>, req: Doc): Doc {
  const kubeConfig = text(req.kubeConfig);
  const server = /^\s*server:\s*(\S+)/m.exec(kubeConfig)?.[1];
  if (!/^\s*clusters:/m.test(kubeConfig) || !server)
    return { status: 'FAILURE', message: 'the kubeconfig names no cluster with a server (clusters[].cluster.server)' };
  const host = /^https?:\/\/([^/:]+)/.exec(server)?.[1] ?? server;
  if (failing(host))
    return { status: 'FAILURE', message: `the API server at ${server} did not answer (a host named fail-... fails on purpose)` };
  return { status: 'SUCCESS', message: `the API server at ${server} answered` };
}

/** INVALID_ARGUMENT unless the request's credential is of the cloud a check is for. */
function ofCloud(h: Hook<R>, req: Doc, platform: CloudPlatform): void {
  const c = credentialOf(h, text(req.credentialCrn));
  if (c.cloudPlatform !== platform)
    throw invalid(`credential ${c.credentialName} is an ${c.cloudPlatform} credential; this check needs an ${platform} one`);
}

export function validateAwsCloudStorage(h: Hook<R>, req: Doc): Doc {
  ofCloud(h, req, 'AWS');
  const [location, instanceProfile] = [text(req.storageLocation), text(req.instanceProfile)];
  const bucket = /^s3a?:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(\/.*)?$/.exec(location)?.[1];
  if (!bucket) return { status: 'ERROR', error: `${location} is not an S3 location (s3a://bucket/path)` };
  if (!/^arn:aws(-us-gov)?:iam::\d{12}:instance-profile\/.+$/.test(instanceProfile))
    return { status: 'ERROR', error: `${instanceProfile} is not the ARN of an instance profile` };
  if (failing(bucket))
    return { status: 'ACCESS_DENIED', error: `${instanceProfile} cannot write to ${location} (a bucket named fail-... fails on purpose)` };
  return { status: 'OK' };
}

export function validateAzureCloudStorage(h: Hook<R>, req: Doc): Doc {
  ofCloud(h, req, 'AZURE');
  const location = text(req.storageLocation);
  const accountName = str(req.accountName);
  const m = /^abfss?:\/\/([a-z0-9-]+)@([a-z0-9]+)\.dfs\.core\.windows\.net(\/.*)?$/.exec(location);
  if (!m) return { status: 'ERROR', error: `${location} is not an ADLS Gen2 location (abfs://filesystem@account.dfs.core.windows.net)` };
  if (!str(req.managedIdentity) && !(str(req.accountKey) && accountName))
    throw invalid('give --managed-identity, or --account-name with --account-key');
  const account = m[2] ?? '';
  if (accountName && accountName !== account)
    return { status: 'ERROR', error: `account ${accountName} is not the storage account of ${location} (${account})` };
  if (failing(m[1] ?? '') || account.startsWith('fail'))
    return { status: 'ACCESS_DENIED', error: `no write access to ${location} (a file system or account named fail... fails on purpose)` };
  return { status: 'OK' };
}
