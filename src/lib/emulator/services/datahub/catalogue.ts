/**
 * Data Hub's fixed world: the runtimes and their images, the upgrades the
 * runtimes allow, the workloads the platform ships (each a built-in cluster
 * template per runtime and a built-in cluster definition per runtime and
 * cloud), and the lists diagnostics, secrets and VM recommendations answer
 * with. Built-in templates and definitions belong to the platform, not to an
 * account: their CRNs name the account `cloudera` and they are never stored,
 * so every account sees the same ones and none can delete them. What a
 * cluster create accepts as a definition is exactly what
 * listClusterDefinitions shows: these and the account's own.
 */
import { createHash } from 'node:crypto';
import type { CloudPlatform } from '../../world/contracts.js';
import { crn, stableUuid } from '../../ids.js';

/** Runtime versions with their Cloudera Manager version and Java versions (the first is the default), oldest first. */
export const RUNTIMES: ReadonlyArray<{ readonly runtime: string; readonly cm: string; readonly java: readonly number[] }> = [
  { runtime: '7.2.17', cm: '7.11.3', java: [8, 11] },
  { runtime: '7.2.18', cm: '7.12.0', java: [8, 11, 17] },
  { runtime: '7.3.1', cm: '7.13.1', java: [17, 11] },
];

/** Where a runtime may be upgraded to: the next maintenance line, never back, never two steps at once. */
export const UPGRADES: Readonly<Record<string, readonly string[]>> = {
  '7.2.17': ['7.2.18'],
  '7.2.18': ['7.3.1'],
  '7.3.1': [],
};

/** ZooKeeper to KRaft migration needs Kafka on this runtime or newer. */
export const KRAFT_RUNTIME = '7.3.1';

export const runtimeOf = (version: string): (typeof RUNTIMES)[number] | undefined => RUNTIMES.find((r) => r.runtime === version);

export const DEFAULT_CATALOG = 'cdp-default';
export const CATALOG_URL = 'https://cloudbreak-imagecatalog.s3.amazonaws.com/v3-prod-cb-image-catalog.json';

export interface Image {
  readonly imageId: string;
  readonly runtime: string;
  readonly cm: string;
  readonly os: string;
  /** Its OS patch level: images of one runtime differ only in it. */
  readonly patch: string;
  readonly created: number;
}

const imageId = (seed: string): string => {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/** Two images per runtime in the default catalog, older first (the second is an OS-only update of the first). */
export const IMAGES: readonly Image[] = RUNTIMES.flatMap((r, ri) =>
  ['2024-09', '2025-01'].map((patch, i) => ({
    imageId: imageId(`datahub-image:${r.runtime}:${i}`),
    runtime: r.runtime,
    cm: r.cm,
    os: 'redhat8',
    patch,
    created: Date.UTC(2024, ri * 3 + i * 4, 1) / 1000,
  })),
);

/** The newest image of a runtime. */
export const newestImage = (runtime: string): Image | undefined => IMAGES.filter((i) => i.runtime === runtime).at(-1);

/** Database server versions, oldest first; new clusters get DEFAULT_DB_VERSION. */
export const DB_VERSIONS = ['VERSION_11', 'VERSION_14', 'VERSION_17'];
export const DEFAULT_DB_VERSION = 'VERSION_14';

/** Certificates last a year and show as expiring in their last month. */
export const CERT_LIFETIME_DAYS = 365;
export const CERT_WARNING_DAYS = 30;

// ---- workloads: built-in templates and definitions -------------------------------

/** An instance group of a workload: its name, type (GATEWAY holds Cloudera Manager) and node count. */
export interface GroupDef {
  readonly name: string;
  readonly type: 'GATEWAY' | 'CORE';
  readonly nodeCount: number;
}

export interface Workload {
  /** The name in definition names: "Data Engineering". */
  readonly name: string;
  /** The template's name after its runtime: "Data Engineering: Apache Spark3, Apache Hive, Apache Oozie". */
  readonly template: string;
  /** The definition type. */
  readonly type: string;
  readonly description: string;
  /** Cloudera Manager service types it runs. */
  readonly services: readonly string[];
  readonly groups: readonly GroupDef[];
}

const g = (name: string, type: 'GATEWAY' | 'CORE', nodeCount: number): GroupDef => ({ name, type, nodeCount });

export const WORKLOADS: readonly Workload[] = [
  {
    name: 'Data Engineering',
    template: 'Data Engineering: Apache Spark3, Apache Hive, Apache Oozie',
    type: 'DATAENGINEERING',
    description: 'Spark, Hive and Oozie for batch and ETL pipelines',
    services: ['ZOOKEEPER', 'HDFS', 'YARN', 'SPARK3_ON_YARN', 'HIVE_ON_TEZ', 'OOZIE', 'HUE', 'LIVY_FOR_SPARK3', 'KNOX'],
    groups: [g('master', 'GATEWAY', 1), g('worker', 'CORE', 3), g('compute', 'CORE', 1)],
  },
  {
    name: 'Data Engineering HA',
    template: 'Data Engineering: HA: Apache Spark3, Apache Hive, Apache Oozie',
    type: 'DATAENGINEERING',
    description: 'Highly available Spark, Hive and Oozie',
    services: ['ZOOKEEPER', 'HDFS', 'YARN', 'SPARK3_ON_YARN', 'HIVE_ON_TEZ', 'OOZIE', 'HUE', 'LIVY_FOR_SPARK3', 'KNOX'],
    groups: [g('manager', 'GATEWAY', 2), g('master', 'CORE', 2), g('worker', 'CORE', 3), g('compute', 'CORE', 0)],
  },
  {
    name: 'Data Mart',
    template: 'Data Mart: Apache Impala, Hue',
    type: 'DATAMART',
    description: 'Impala for interactive SQL, with Hue',
    services: ['ZOOKEEPER', 'HDFS', 'HIVE', 'IMPALA', 'HUE', 'KNOX'],
    groups: [g('master', 'GATEWAY', 1), g('coordinator', 'CORE', 1), g('executor', 'CORE', 2)],
  },
  {
    name: 'Operational Database',
    template: 'Operational Database: Apache HBase, Phoenix',
    type: 'OPERATIONALDATABASE',
    description: 'HBase with Phoenix for operational workloads',
    services: ['ZOOKEEPER', 'HDFS', 'HBASE', 'PHOENIX', 'KNOX'],
    groups: [g('gateway', 'GATEWAY', 1), g('master', 'CORE', 2), g('worker', 'CORE', 3)],
  },
  {
    name: 'Streams Messaging Light Duty',
    template: 'Streams Messaging Light Duty: Apache Kafka, Schema Registry, Streams Messaging Manager, Streams Replication Manager',
    type: 'STREAMING',
    description: 'Kafka with Schema Registry, Streams Messaging Manager and Streams Replication Manager',
    services: ['ZOOKEEPER', 'KAFKA', 'SCHEMAREGISTRY', 'STREAMS_MESSAGING_MANAGER', 'STREAMS_REPLICATION_MANAGER', 'KNOX'],
    groups: [g('master', 'GATEWAY', 1), g('broker', 'CORE', 3), g('registry', 'CORE', 1)],
  },
  {
    name: 'Flow Management Light Duty',
    template: 'Flow Management Light Duty: Apache NiFi, Apache NiFi Registry, Schema Registry',
    type: 'FLOW_MANAGEMENT',
    description: 'NiFi with NiFi Registry and Schema Registry',
    services: ['ZOOKEEPER', 'NIFI', 'NIFIREGISTRY', 'SCHEMAREGISTRY', 'KNOX'],
    groups: [g('management', 'GATEWAY', 1), g('nifi', 'CORE', 3)],
  },
];

/** The clouds a definition is made for: the label in its name, the platform, and whether it is for GovCloud. */
export const CLOUDS: ReadonlyArray<{ readonly label: string; readonly platform: CloudPlatform; readonly gov: boolean }> = [
  { label: 'AWS', platform: 'AWS', gov: false },
  { label: 'AWS GovCloud', platform: 'AWS', gov: true },
  { label: 'Azure', platform: 'AZURE', gov: false },
  { label: 'Google Cloud', platform: 'GCP', gov: false },
];

/** Instance types per cloud: the GATEWAY groups' and the CORE groups', then the rest a recommendation lists. */
export const VM_TYPES: Readonly<
  Record<CloudPlatform, { gateway: string; core: string; all: ReadonlyArray<readonly [string, number, number]> }>
> = {
  AWS: {
    gateway: 'm5.4xlarge',
    core: 'm5.2xlarge',
    all: [
      ['m5.2xlarge', 8, 32],
      ['m5.4xlarge', 16, 64],
      ['r5.2xlarge', 8, 64],
      ['r5.4xlarge', 16, 128],
      ['m6g.4xlarge', 16, 64],
    ],
  },
  AZURE: {
    gateway: 'Standard_D16s_v3',
    core: 'Standard_D8s_v3',
    all: [
      ['Standard_D8s_v3', 8, 32],
      ['Standard_D16s_v3', 16, 64],
      ['Standard_E8s_v3', 8, 64],
      ['Standard_E16s_v3', 16, 128],
    ],
  },
  GCP: {
    gateway: 'e2-standard-16',
    core: 'e2-standard-8',
    all: [
      ['e2-standard-8', 8, 32],
      ['e2-standard-16', 16, 64],
      ['n2-highmem-8', 8, 64],
      ['n2-highmem-16', 16, 128],
    ],
  },
};

const platformCrn = (region: string, type: string, seed: string): string => crn('datahub', region, 'cloudera', type, stableUuid(seed));

/** The Cloudera Manager template of a workload on a runtime: its services and a host template per group. */
function templateContent(runtime: string, w: Workload): string {
  return JSON.stringify({
    cdhVersion: runtime,
    displayName: w.name.toLowerCase().replace(/ /g, '-'),
    services: w.services.map((s) => ({ refName: s.toLowerCase(), serviceType: s })),
    hostTemplates: w.groups.map((x) => ({ refName: x.name, cardinality: x.nodeCount })),
  });
}

/**
 * The built-in templates and definitions of a region (every runtime, workload
 * and cloud), each with its document as describe and list show it.
 */
export function builtIns(region: string) {
  const templates = RUNTIMES.flatMap((r) =>
    WORKLOADS.map((w) => {
      const name = `${r.runtime} - ${w.template}`;
      const content = templateContent(r.runtime, w);
      const doc = {
        clusterTemplateName: name,
        crn: platformCrn(region, 'clustertemplate', `template/${name}`),
        description: w.description,
        productVersion: r.runtime,
        instanceGroupCount: w.groups.length,
        status: 'DEFAULT',
        tags: [],
        clusterTemplateContent: content,
      };
      return { name, crn: doc.crn, runtime: r.runtime, workload: w, content, doc };
    }),
  );
  const definitions = templates.flatMap((t) =>
    CLOUDS.map((cloud) => {
      const name = `${t.runtime} - ${t.workload.name} for ${cloud.label}`;
      const groups = t.workload.groups;
      const doc = {
        clusterDefinitionName: name,
        crn: platformCrn(region, 'clusterdefinition', `definition/${name}`),
        type: t.workload.type,
        nodeCount: groups.reduce((n, x) => n + x.nodeCount, 0),
        cloudPlatform: cloud.platform,
        productVersion: t.runtime,
        description: `${t.workload.description}, on ${cloud.label}`,
        workloadTemplate: JSON.stringify({
          clusterTemplateName: t.name,
          instanceGroups: groups.map((x) => ({ instanceGroupName: x.name, instanceGroupType: x.type, nodeCount: x.nodeCount })),
        }),
      };
      return { name, crn: doc.crn, cloud, template: t, doc };
    }),
  );
  return { templates, definitions };
}

// ---- lists ------------------------------------------------------------------------

/** The secrets of a Data Hub that can be rotated (DATABASE_ROOT_PASSWORD only with an external database). */
export const SECRET_TYPES: ReadonlyArray<readonly [string, string]> = [
  ['CM_ADMIN_PASSWORD', 'Password of the Cloudera Manager admin user'],
  ['CLUSTER_CM_DB_PASSWORD', 'Password Cloudera Manager signs in to its database with'],
  ['CLUSTER_CM_SERVICES_DB_PASSWORD', 'Passwords the cluster services sign in to their databases with'],
  ['SALT_PASSWORD', 'Password of the orchestrator (Salt) API user'],
  ['SALT_SIGN_KEY_PAIR', 'Key pair the orchestrator signs its messages with'],
  ['USER_KEYPAIR', 'SSH key pair of the cloudbreak user on the hosts'],
  ['LDAP_BIND_PASSWORD', 'Password the cluster binds to the environment LDAP with'],
  ['GATEWAY_CERT', 'Certificate of the Knox gateway'],
  ['DATABASE_ROOT_PASSWORD', 'Root password of the external database server'],
];

export const LOG_DESCRIPTORS: ReadonlyArray<readonly [string, string]> = [
  ['cm-server', '/var/log/cloudera-scm-server/cloudera-scm-server.log'],
  ['cm-agent', '/var/log/cloudera-scm-agent/cloudera-scm-agent.log'],
  ['hdfs', '/var/log/hadoop-hdfs/*.log'],
  ['yarn', '/var/log/hadoop-yarn/*.log'],
  ['spark', '/var/log/spark3/*.log'],
  ['hive', '/var/log/hive/*.log'],
  ['impala', '/var/log/impalad/*.log'],
  ['hbase', '/var/log/hbase/*.log'],
  ['kafka', '/var/log/kafka/*.log'],
  ['nifi', '/var/log/nifi/*.log'],
  ['knox', '/var/log/knox/gateway/*.log'],
  ['salt', '/var/log/salt/minion'],
];

/** The Cloudera Manager roles of each service type. */
export const SERVICE_ROLES: Readonly<Record<string, readonly string[]>> = {
  ZOOKEEPER: ['ZOOKEEPER_SERVER'],
  HDFS: ['NAMENODE', 'DATANODE', 'SECONDARYNAMENODE'],
  YARN: ['RESOURCEMANAGER', 'NODEMANAGER', 'JOBHISTORY'],
  SPARK3_ON_YARN: ['SPARK3_YARN_HISTORY_SERVER'],
  HIVE_ON_TEZ: ['HIVESERVER2'],
  HIVE: ['HIVEMETASTORE'],
  OOZIE: ['OOZIE_SERVER'],
  HUE: ['HUE_SERVER', 'HUE_LOAD_BALANCER'],
  LIVY_FOR_SPARK3: ['LIVY_SERVER_FOR_SPARK3'],
  KNOX: ['KNOX_GATEWAY'],
  IMPALA: ['IMPALAD', 'CATALOGSERVER', 'STATESTORE'],
  HBASE: ['MASTER', 'REGIONSERVER'],
  PHOENIX: ['PHOENIX_QUERY_SERVER'],
  KAFKA: ['KAFKA_BROKER'],
  SCHEMAREGISTRY: ['SCHEMA_REGISTRY_SERVER'],
  STREAMS_MESSAGING_MANAGER: ['STREAMS_MESSAGING_MANAGER_SERVER', 'STREAMS_MESSAGING_MANAGER_UI'],
  STREAMS_REPLICATION_MANAGER: ['STREAMS_REPLICATION_MANAGER_DRIVER', 'STREAMS_REPLICATION_MANAGER_SERVICE'],
  NIFI: ['NIFI_NODE'],
  NIFIREGISTRY: ['NIFI_REGISTRY_SERVER'],
};

/** The endpoints a service exposes through the Knox gateway: its Knox service name and display name. */
export const ENDPOINTS: Readonly<Record<string, readonly [string, string]>> = {
  HUE: ['HUE', 'Hue'],
  LIVY_FOR_SPARK3: ['LIVYSERVER_API', 'Livy Server'],
  HIVE_ON_TEZ: ['HIVE', 'Hive Server'],
  IMPALA: ['IMPALA', 'Impala'],
  HBASE: ['HBASEUI', 'HBase UI'],
  PHOENIX: ['AVATICA', 'Phoenix Query Server'],
  STREAMS_MESSAGING_MANAGER: ['SMM-UI', 'Streams Messaging Manager'],
  SCHEMAREGISTRY: ['SCHEMA-REGISTRY', 'Schema Registry'],
  NIFI: ['NIFI', 'NiFi'],
  OOZIE: ['OOZIE', 'Oozie'],
  YARN: ['YARNUIV2', 'YARN'],
};
