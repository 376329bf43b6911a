/**
 * The fixed world of the Data Warehouse service: the releases catalogs and
 * warehouses run (and the Cloudera Runtime each bundles), the Data
 * Visualization releases, the instance types warehouses may use on each
 * cloud, the t-shirt sizes, the entities resource templates size, the
 * server settings, and the configuration files of each component.
 * Everything the service answers about them comes from here.
 */
import { invalid } from '../../errors.js';
import type { Doc } from '../../types.js';

/** Oldest first. New catalogs get the default release unless they ask for another; the newest is there to upgrade to. */
export const RELEASES = [
  { version: '2024.0.17.0-73', runtime: '7.2.17.0-334' },
  { version: '2024.0.18.0-301', runtime: '7.2.18.0-641' },
  { version: '2024.0.19.0-45', runtime: '7.2.18.200-39' },
  { version: '2025.0.20.0-112', runtime: '7.3.1.0-197' },
] as const;
export type Release = (typeof RELEASES)[number];
export const [NEWEST_RELEASE, DEFAULT_RELEASE]: readonly [Release, Release] = [RELEASES[3], RELEASES[2]];

export const releaseOf = (version: string): Release | undefined => RELEASES.find((r) => r.version === version);

/** The release a version names, or INVALID_ARGUMENT listing those there are. */
export function release(version: string): Release {
  const r = releaseOf(version);
  if (!r) throw invalid(`image version ${version} is not a Data Warehouse release; releases: ${RELEASES.map((x) => x.version).join(', ')}`);
  return r;
}

/** The release a catalog or warehouse runs. */
export const versionOf = (rec: { doc: Doc }): string => String(rec.doc.imageVersion ?? DEFAULT_RELEASE.version);

/** Where a version stands among the releases (-1: not one of them). */
export const rank = (version: string): number => RELEASES.findIndex((r) => r.version === version);

/** Data Visualization releases, oldest first; new ones get the default, and can be upgraded to the newest. */
export const VIZ_RELEASES: readonly string[] = ['7.1.9-b12', '7.2.2-b31', '7.2.3-b46'];
export const DEFAULT_VIZ_RELEASE = '7.2.2-b31';

export type Cloud = 'AWS' | 'AZURE';

/** What a warehouse node of an instance type brings; PRIVATE_NODE, one of a private cloud (which has no instance types). */
export const INSTANCE_SIZES: Readonly<Record<string, { cores: number; memoryMb: number }>> = {
  'r5d.4xlarge': { cores: 16, memoryMb: 131_072 },
  'r6id.4xlarge': { cores: 16, memoryMb: 131_072 },
  'r5dn.4xlarge': { cores: 16, memoryMb: 131_072 },
  'r6id.8xlarge': { cores: 32, memoryMb: 262_144 },
  Standard_E16ds_v5: { cores: 16, memoryMb: 131_072 },
  Standard_E16d_v5: { cores: 16, memoryMb: 131_072 },
  Standard_E32ds_v5: { cores: 32, memoryMb: 262_144 },
};
export const PRIVATE_NODE = { cores: 12, memoryMb: 98_304 };

/** The instance types each engine may use on each cloud; the first is the default. */
export const INSTANCE_TYPES: Readonly<Record<Cloud, Readonly<Record<'hive' | 'impala' | 'trino', readonly string[]>>>> = {
  AWS: {
    hive: ['r5d.4xlarge', 'r6id.4xlarge', 'r5dn.4xlarge'],
    impala: ['r5d.4xlarge', 'r6id.4xlarge', 'r5dn.4xlarge', 'r6id.8xlarge'],
    trino: ['r5d.4xlarge', 'r6id.4xlarge'],
  },
  AZURE: {
    hive: ['Standard_E16ds_v5', 'Standard_E16d_v5'],
    impala: ['Standard_E16ds_v5', 'Standard_E16d_v5', 'Standard_E32ds_v5'],
    trino: ['Standard_E16ds_v5'],
  },
};

/** Executor nodes per executor group of each t-shirt size; a warehouse that names none is `xsmall`. */
export const T_SHIRT_NODES: Readonly<Record<string, number>> = { xsmall: 2, small: 10, medium: 20, large: 40, waa: 10 };

/**
 * What resource templates size: each entity as a request names it (its
 * key), as answers name it (`shown`), what it is in words, and the CPU and
 * memory (Gi) of each component it runs at the default size. The two
 * descriptions disagree: a request names it "impala, hive, trino, hue, dbc,
 * viz" (dw.yaml:6496), a response "one of the following: Hive, Impala, Hue,
 * DataViz" (dw.yaml:6776). Requests take either; answers are the
 * response's. Trino and Dbc, which the response's list leaves out, are
 * written as the API names them elsewhere (trino's warehouses, `DbcSummary`).
 */
export const TEMPLATE_ENTITIES = {
  impala: {
    shown: 'Impala',
    label: 'Impala Virtual Warehouses',
    sizes: { 'impala-coordinator': [14, 110], 'impala-executor': [14, 110], catalogd: [2, 16], statestored: [0.5, 1] },
  },
  hive: {
    shown: 'Hive',
    label: 'Hive Virtual Warehouses',
    sizes: { hiveserver2: [6, 16], 'query-coordinator': [1, 4], 'query-executor': [14, 110] },
  },
  trino: { shown: 'Trino', label: 'Trino Virtual Warehouses', sizes: { 'trino-coordinator': [6, 32], 'trino-worker': [14, 110] } },
  hue: { shown: 'Hue', label: 'Hue query editors', sizes: { 'hue-backend': [2, 8], 'hue-frontend': [0.5, 1] } },
  dbc: { shown: 'Dbc', label: 'Database Catalogs', sizes: { metastore: [4, 16], 'das-event-processor': [1, 4] } },
  viz: { shown: 'DataViz', label: 'Data Visualizations', sizes: { viz: [2, 8] } },
} as const satisfies Record<string, { shown: string; label: string; sizes: Record<string, readonly [cpu: number, memoryGi: number]> }>;
export type TemplateEntity = keyof typeof TEMPLATE_ENTITIES;

// ---- server settings (private cloud) -------------------------------------------

/** Each setting: key, name, enabled by default, what has to be updated or recreated for a change to take effect, description. */
export const SERVER_SETTINGS: ReadonlyArray<readonly [string, string, boolean, readonly string[], string]> = [
  [
    'dwx.impala.query.log',
    'Impala query log',
    false,
    ['IMPALA'],
    'New Impala Virtual Warehouses keep their queries in sys.impala_query_log',
  ],
  [
    'dwx.hive.query.history',
    'Hive query history',
    false,
    ['HIVE'],
    'New Hive Virtual Warehouses record completed queries in sys.query_history',
  ],
  ['dwx.dbc.metastore.ha', 'Metastore high availability', true, ['DBC'], 'Database Catalogs run a standby metastore'],
  ['dwx.viz.sso', 'Data Visualization single sign-on', true, ['VIZ'], 'Data Visualizations sign users in through the platform'],
  ['dwx.hue.unified.editor', 'Unified Hue editor', false, ['CDW_HUE'], 'One Hue editor for the Hive and Impala warehouses of a catalog'],
  [
    'dwx.trino.enabled',
    'Trino Virtual Warehouses',
    false,
    ['ENVIRONMENT', 'TRINO'],
    'Trino can be chosen as the engine of new Virtual Warehouses',
  ],
];

// ---- configuration files of each component ---------------------------------------

/**
 * The configuration files of a component: a key-value file (ENV, PROPERTIES,
 * FLAGFILE, HADOOP_XML) maps keys to values; a text file (TEXT, JSON, YAML)
 * is a string.
 */
export type ComponentFiles = Readonly<Record<string, Readonly<Record<string, string>> | string>>;

const ENV = { JAVA_TOOL_OPTIONS: '-XX:+UseG1GC', TZ: 'UTC' };
const HIVE_SITE = { 'hive.server2.idle.session.timeout': '86400000', 'hive.query.results.cache.enabled': 'true' };
const IMPALA_FLAGS = { default_pool_max_requests: '-1', idle_session_timeout: '0' };

/** The components of Database Catalogs and of each kind of Virtual Warehouse, with their files. */
export const COMPONENTS: Readonly<Record<'dbc' | 'hive' | 'impala', Readonly<Record<string, ComponentFiles>>>> = {
  dbc: {
    Metastore: {
      'hive-site': { 'hive.metastore.event.db.notification.api.auth': 'true', 'hive.metastore.server.max.threads': '1000' },
      env: ENV,
    },
    DasEventProcessor: { env: ENV, 'das-event-processor-json': '{"logLevel":"INFO"}' },
    DatabusProducer: { env: ENV },
    HueQueryProcessor: { env: ENV, 'hue-query-processor-json': '{"cleanupQueriesOlderThanDays":30}' },
  },
  hive: {
    DasWebapp: { env: ENV, 'das-webapp-json': '{"application":{"session":{"timeoutInSeconds":86400}}}' },
    Hiveserver2: { 'hive-site': HIVE_SITE, env: ENV },
    QueryCoordinator: { 'hive-site': { 'hive.llap.daemon.num.executors': '12' }, env: ENV },
    QueryExecutor: { 'hive-site': { 'hive.llap.io.memory.size': '64Gi' }, env: ENV },
    StandaloneQueryExecutor: { 'hive-site': { 'hive.llap.daemon.num.executors': '12' }, env: ENV },
    TokenAuth: { env: ENV },
    Hue: { env: ENV, 'hue-safety-valve': '[desktop]\napp_blacklist=\n' },
  },
  impala: {
    Hue: { env: ENV, 'hue-safety-valve': '[desktop]\napp_blacklist=\n' },
    ImpalaAutoscaler: { env: ENV },
    ImpalaCatalogd: { flagfile: { catalog_topic_mode: 'minimal' }, env: ENV },
    ImpalaCoordinator: { flagfile: IMPALA_FLAGS, env: ENV },
    ImpalaExecutor: { flagfile: { mem_limit_includes_jvm: 'true' }, env: ENV },
    ImpalaProxy: { env: ENV },
    ImpalaStatestored: { flagfile: { statestore_heartbeat_frequency_ms: '1000' }, env: ENV },
    ImpalaTokenAuth: { env: ENV },
    ImpalaAdmissiond: { flagfile: { admission_heartbeat_frequency_ms: '1000' }, env: ENV },
  },
};
