/**
 * The datalake service's fixed world (its runtimes are shared/runtimes.ts'):
 * images, secret types, log descriptors, Cloudera Manager roles and services, and the
 * instance groups of each data lake shape.
 */
export const CATALOG = 'cdp-default';

// The default catalog's Runtime images are the image catalog service's too: written once (shared/images.ts).
export { IMAGES, hashId, imageOrder, type Image } from '../../shared/images.js';

export const SECRET_TYPES: ReadonlyArray<readonly [string, string]> = [
  ['CM_ADMIN_PASSWORD', 'Password of the Cloudera Manager admin user'],
  ['CM_DB_PASSWORD', 'Password of the Cloudera Manager database user'],
  ['CM_SERVICES_DB_PASSWORD', 'Database passwords of the cluster services'],
  ['SALT_PASSWORD', 'Password of the orchestrator (Salt) API user'],
  ['SALT_BOOT_SECRETS', 'Bootstrap secrets of the orchestrator'],
  ['DATABASE_ROOT_PASSWORD', 'Root password of the external database server'],
  ['GATEWAY_CERT', 'Certificate of the Knox gateway'],
  ['CM_INTERMEDIATE_CA_CERT', 'Intermediate CA certificate of Cloudera Manager'],
];

export const LOG_DESCRIPTORS: ReadonlyArray<readonly [string, string]> = [
  ['cm-server', '/var/log/cloudera-scm-server/cloudera-scm-server.log'],
  ['cm-agent', '/var/log/cloudera-scm-agent/cloudera-scm-agent.log'],
  ['ranger', '/var/log/ranger/admin/*.log'],
  ['atlas', '/var/log/atlas/*.log'],
  ['hms', '/var/log/hive/*.log'],
  ['solr', '/var/log/solr/*.log'],
  ['knox', '/var/log/knox/gateway/*.log'],
  ['idbroker', '/var/log/knox/idbroker/*.log'],
  ['salt', '/var/log/salt/minion'],
];

export const CM_ROLES = [
  'ATLAS_SERVER',
  'HIVEMETASTORE',
  'RANGER_ADMIN',
  'RANGER_USERSYNC',
  'SOLR_SERVER',
  'KNOX_GATEWAY',
  'IDBROKER',
  'ZOOKEEPER_SERVER',
  'HBASE_MASTER',
  'REGIONSERVER',
  'KAFKA_BROKER',
];
export const SERVICES = ['ZOOKEEPER', 'RANGER', 'ATLAS', 'HIVE', 'SOLR', 'HBASE', 'HDFS', 'KNOX', 'KAFKA'];
export const SCALE_OUT_GROUPS = ['solr_scale_out', 'hms_scale_out', 'raz_scale_out', 'kafka_scale_out', 'storage_scale_out'];

export type Shape = 'LIGHT_DUTY' | 'MEDIUM_DUTY_HA' | 'ENTERPRISE';
export const SHAPE_GROUPS: Readonly<Record<Shape, ReadonlyArray<readonly [string, number, string]>>> = {
  LIGHT_DUTY: [
    ['master', 1, 'm5.2xlarge'],
    ['idbroker', 1, 't3.medium'],
  ],
  MEDIUM_DUTY_HA: [
    ['master', 2, 'm5.2xlarge'],
    ['gateway', 2, 'm5.2xlarge'],
    ['core', 3, 'm5.2xlarge'],
    ['auxiliary', 1, 'm5.2xlarge'],
    ['idbroker', 2, 't3.medium'],
  ],
  ENTERPRISE: [
    ['master', 2, 'm5.4xlarge'],
    ['gateway', 2, 'm5.2xlarge'],
    ['core', 3, 'r5.4xlarge'],
    ['auxiliary', 1, 'm5.2xlarge'],
    ['idbroker', 2, 't3.medium'],
  ],
};

/** Database server versions, oldest first. */
export const DB_VERSIONS = ['VERSION_11', 'VERSION_14', 'VERSION_17'];
export const CERT_LIFETIME_DAYS = 365;
export const CERT_WARNING_DAYS = 30;
