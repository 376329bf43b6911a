/**
 * Clusters as Replication Manager shows and reaches them: the services each
 * runs (by what it was built from), where it is, its Cloudera Manager and
 * its API version, and the rule that only a running cluster answers. A
 * cluster is named by CRN in requests, and by `dataCenter$name` in policy
 * definitions, its data center being its environment.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { readRecord, type EngineRecord } from '../../engine/records.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { stableUuid } from '../../ids.js';
import { hex } from '../../values.js';
import type { WorldCluster } from './provides.js';
import type { resources } from '../../../model/services/replicationmanager/resources.js';

export type R = keyof typeof resources.resources;

/** The services a cluster runs, by what it was built from (the first that matches). */
const SERVICES: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/^data lake$/i, ['ZOOKEEPER', 'HIVE', 'RANGER', 'ATLAS', 'KNOX', 'SOLR', 'KAFKA']],
  [/operational database|hbase/i, ['ZOOKEEPER', 'HDFS', 'HBASE', 'PHOENIX', 'KNOX']],
  [/data mart|impala|kudu/i, ['ZOOKEEPER', 'HDFS', 'HIVE', 'IMPALA', 'KUDU', 'HUE', 'KNOX']],
  [/streams messaging|kafka/i, ['ZOOKEEPER', 'KAFKA', 'SCHEMAREGISTRY', 'STREAMS_MESSAGING_MANAGER', 'KNOX']],
  [/flow management|nifi/i, ['ZOOKEEPER', 'NIFI', 'NIFIREGISTRY', 'KNOX']],
  [/./, ['ZOOKEEPER', 'HDFS', 'YARN', 'HIVE', 'HIVE_ON_TEZ', 'SPARK_ON_YARN', 'OOZIE', 'HUE', 'LIVY', 'KNOX']],
];

export function servicesOf(c: WorldCluster): readonly string[] {
  return SERVICES.find(([re]) => re.test(c.template))?.[1] ?? [];
}

export const runs = (c: WorldCluster, service: string): boolean => servicesOf(c).includes(service);

/** Where the cloud regions of the emulated environments are. */
const PLACES: Readonly<Record<string, readonly [country: string, city: string, latitude: number, longitude: number]>> = {
  'us-west-2': ['United States', 'Boardman', 45.84, -119.7],
  'us-west-1': ['United States', 'San Jose', 37.34, -121.89],
  'us-east-1': ['United States', 'Ashburn', 39.04, -77.49],
  'us-east-2': ['United States', 'Columbus', 39.96, -83.0],
  'us-gov-west-1': ['United States', 'Portland', 45.52, -122.68],
  westus2: ['United States', 'Quincy', 47.23, -119.85],
  eastus: ['United States', 'Boydton', 36.67, -78.39],
  'us-west1': ['United States', 'The Dalles', 45.59, -121.18],
  'eu-central-1': ['Germany', 'Frankfurt', 50.11, 8.68],
  'eu-west-1': ['Ireland', 'Dublin', 53.35, -6.26],
};

/** The Cloudera Manager API version a runtime's clusters answer with. */
export function cmApiVersion(c: WorldCluster): number {
  const [major = 0, minor = 0, patch = 0] = c.runtime.split('.').map(Number);
  if (major > 7 || minor >= 3) return 54;
  if (minor === 2) return patch >= 15 ? 51 : 49;
  return 41;
}

/**
 * What suspending or resuming one HBase policy does on a destination of
 * this API version: every policy of the pair (above 50), that policy alone
 * (below 45), or nothing (the versions between).
 */
export function hbaseSuspend(c: WorldCluster): 'ALL' | 'POLICY' | 'NOT_SUPPORTED' {
  const v = cmApiVersion(c);
  return v > 50 ? 'ALL' : v < 45 ? 'POLICY' : 'NOT_SUPPORTED';
}

const gateway = (c: WorldCluster): string => c.hosts[0] ?? `${c.name}-gateway.emulator.invalid`;
export const managerUrl = (c: WorldCluster): string => `https://${gateway(c)}/${c.name}/cdp-proxy/cmf/home/`;
export const clusterUrl = (c: WorldCluster): string => `https://${gateway(c)}/${c.name}/cdp-proxy-api/cm-api/`;
/** How policies name a cluster: `dataCenter$name`. */
export const siteName = (c: WorldCluster): string => `${c.environmentName}$${c.name}`;

const PROVIDER: Readonly<Record<string, string>> = { AWS: 'AWS', AZURE: 'ABFS', GCP: 'GCS' };

/** A cluster as listClusters shows it. */
export function clusterView(c: WorldCluster): Doc {
  const [country = 'Unknown', city = c.region, latitude = 0, longitude = 0] = PLACES[c.region] ?? [];
  return {
    crn: c.crn,
    name: c.name,
    dataCenter: c.environmentName,
    clusterType: c.type,
    replicationEngineType: 'CM',
    clusterManagerType: 'CLOUDERA_MANAGER',
    clusterManagerUrl: managerUrl(c),
    clusterUrl: clusterUrl(c),
    totalHosts: c.hosts.length,
    location: { id: parseInt(hex(c.region, 6), 16), country, city, latitude, longitude },
    description: `${c.type === 'SDX' ? 'data lake' : `Data Hub cluster (${c.template})`} of environment ${c.environmentName}`,
    stackMajorVersion: c.runtime.split('.')[0],
    stackVersion: c.runtime,
    uuid: stableUuid(`${c.crn}/cm`),
    environmentCrn: c.environmentCrn,
    knoxUrl: `https://${gateway(c)}/${c.name}/`,
    cloudAccountProvider: PROVIDER[c.cloudPlatform] ?? 'AWS',
    cmName: c.name,
  };
}

/** An error a list or a change on several clusters answers beside what it did (a partial failure), of a cluster when it names one. */
export const failure = (code: number, status: string, message: string, c?: WorldCluster): Doc => ({
  code,
  message,
  status,
  ...(c ? { clusterUrl: clusterUrl(c) } : {}),
});

/** Why Replication Manager cannot reach a cluster, as list answers report it. */
export const unreachable = (c: WorldCluster): Doc =>
  failure(503, 'SERVICE_UNAVAILABLE', `cluster ${c.name} is ${c.state}: its Cloudera Manager cannot be reached`, c);

/** The clusters Replication Manager knows: those whose creation has ended. */
export const known = (h: Hook<R>): WorldCluster[] => h.world.clusters.all().filter((c) => c.registered);

/** Records read off the running clusters (a resource's `readsFrom`), by CRN, each showing what `doc` makes of it: what the list answers show. */
export const ofRunning =
  (doc: (h: Hook<R>, c: WorldCluster) => Doc) =>
  (h: Hook<R>): EngineRecord[] =>
    known(h)
      .filter((c) => c.up)
      .map((c) => readRecord({ id: c.crn, crn: c.crn, name: c.name, doc: doc(h, c) }, ''));

/** The clusters a list answer reports beside its items: those that do not run. */
export const unreachableOnes = (h: Hook<R>): Doc => ({
  unreachableClusters: known(h)
    .filter((c) => !c.up)
    .map(unreachable),
});

/** What a running cluster's services are doing (listClusterServiceStatuses): started, each. */
export const serviceStatuses = (_h: Hook<R>, c: WorldCluster): Doc => ({
  clusterCrn: c.crn,
  serviceStatuses: servicesOf(c).map((serviceName) => ({ serviceName, status: 'STARTED' })),
});

/** The cluster a CRN names, or NOT_FOUND naming those there are. */
export function clusterByCrn(h: Hook<R>, crn: string): WorldCluster {
  const all = known(h);
  const c = all.find((x) => x.crn === crn);
  if (!c)
    throw notFound(
      `cluster ${crn.slice(0, 200)} not found; Replication Manager knows ${all.map((x) => x.crn).join(', ') || 'no clusters'}`,
    );
  return c;
}

/** The cluster a `dataCenter$name` names, or NOT_FOUND. */
export function clusterBySite(h: Hook<R>, site: string, field: string): WorldCluster {
  const [dc, name, ...rest] = site.split('$');
  if (!dc || !name || rest.length > 0) throw invalid(`${field} ${site} is not dataCenter$cluster, such as sales-env$sales-etl`);
  const all = known(h);
  const c = all.find((x) => x.environmentName.toLowerCase() === dc.toLowerCase() && x.name.toLowerCase() === name.toLowerCase());
  if (!c)
    throw notFound(
      `${field} ${site} not found: data center ${dc} has no cluster ${name}; Replication Manager knows ${all.map(siteName).join(', ') || 'none'}`,
    );
  return c;
}

/** FAILED_PRECONDITION unless the cluster is running. */
export function reachable(c: WorldCluster, what: string): WorldCluster {
  if (!c.up)
    throw failedPrecondition(`cluster ${c.name} is ${c.state}; ${what} needs its Cloudera Manager, which answers only while it runs`);
  return c;
}
