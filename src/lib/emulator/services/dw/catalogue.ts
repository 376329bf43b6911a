/**
 * The fixed world of the Data Warehouse service: the releases catalogs and
 * warehouses run (and the Cloudera Runtime each bundles), the Data
 * Visualization releases, the instance types warehouses may use on each
 * cloud, the t-shirt sizes, the built-in resource templates, the server
 * settings, and the configuration files of each component. Everything the
 * service answers about them comes from here.
 */

/** A Data Warehouse release: the image version catalogs and warehouses run, and the Runtime it bundles. */
export interface Release {
  readonly version: string;
  readonly runtime: string;
}

/** Oldest first. New catalogs get the default release unless they ask for another; the newest is there to upgrade to. */
export const RELEASES: readonly Release[] = [
  { version: '2024.0.17.0-73', runtime: '7.2.17.0-334' },
  { version: '2024.0.18.0-301', runtime: '7.2.18.0-641' },
  { version: '2024.0.19.0-45', runtime: '7.2.18.200-39' },
  { version: '2025.0.20.0-112', runtime: '7.3.1.0-197' },
];

export const NEWEST_RELEASE: Release = RELEASES[RELEASES.length - 1] ?? { version: '', runtime: '' };
export const DEFAULT_RELEASE: Release = RELEASES[RELEASES.length - 2] ?? NEWEST_RELEASE;

export const releaseOf = (version: string): Release | undefined => RELEASES.find((r) => r.version === version);

/** Where a version stands among the releases (-1: not one of them). */
export const rank = (version: string): number => RELEASES.findIndex((r) => r.version === version);

/** Data Visualization releases, oldest first; new ones get the default, and can be upgraded to the newest. */
export const VIZ_RELEASES: readonly string[] = ['7.1.9-b12', '7.2.2-b31', '7.2.3-b46'];
export const DEFAULT_VIZ_RELEASE = '7.2.2-b31';

export type Cloud = 'AWS' | 'AZURE';

/** An instance type's size: what a warehouse node of it brings. */
interface InstanceSize {
  readonly cores: number;
  readonly memoryMb: number;
}

export const INSTANCE_SIZES: Readonly<Record<string, InstanceSize>> = {
  'r5d.4xlarge': { cores: 16, memoryMb: 131_072 },
  'r6id.4xlarge': { cores: 16, memoryMb: 131_072 },
  'r5dn.4xlarge': { cores: 16, memoryMb: 131_072 },
  'r6id.8xlarge': { cores: 32, memoryMb: 262_144 },
  Standard_E16ds_v5: { cores: 16, memoryMb: 131_072 },
  Standard_E16d_v5: { cores: 16, memoryMb: 131_072 },
  Standard_E32ds_v5: { cores: 32, memoryMb: 262_144 },
};

/** Nodes of a private cloud warehouse (no instance types there). */
export const PRIVATE_NODE: InstanceSize = { cores: 12, memoryMb: 98_304 };

export type EngineKind = 'hive' | 'impala' | 'trino';

/** The instance types each engine may use on each cloud; the first is the default. */
export const INSTANCE_TYPES: Readonly<Record<Cloud, Readonly<Record<EngineKind, readonly string[]>>>> = {
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

/** Executor nodes per executor group of each t-shirt size. */
export const T_SHIRT_NODES: Readonly<Record<string, number>> = { xsmall: 2, small: 10, medium: 20, large: 40, waa: 10 };
export const DEFAULT_T_SHIRT = 'xsmall';

// ---- resource templates ------------------------------------------------------

export const TEMPLATE_ENTITIES = ['impala', 'hive', 'trino', 'hue', 'dbc', 'viz'] as const;
export type TemplateEntity = (typeof TEMPLATE_ENTITIES)[number];

/**
 * A template's entity as answers name it. The two descriptions disagree: a
 * request names it "impala, hive, trino, hue, dbc, viz" (dw.yaml:6496), a
 * response "one of the following: Hive, Impala, Hue, DataViz" (dw.yaml:6776).
 * Requests take either; answers are the response's. Trino and Dbc, which the
 * response's list leaves out, are written as the API names them elsewhere
 * (trino's warehouses, `DbcSummary`).
 */
export const TEMPLATE_ENTITY_SHOWN: Readonly<Record<TemplateEntity, string>> = {
  impala: 'Impala',
  hive: 'Hive',
  trino: 'Trino',
  hue: 'Hue',
  dbc: 'Dbc',
  viz: 'DataViz',
};

/** CPU and memory of each component an entity runs, at the default size. */
const COMPONENT_SIZES: Readonly<Record<TemplateEntity, Readonly<Record<string, readonly [cpu: number, memoryGi: number]>>>> = {
  impala: { 'impala-coordinator': [14, 110], 'impala-executor': [14, 110], catalogd: [2, 16], statestored: [0.5, 1] },
  hive: { hiveserver2: [6, 16], 'query-coordinator': [1, 4], 'query-executor': [14, 110] },
  trino: { 'trino-coordinator': [6, 32], 'trino-worker': [14, 110] },
  hue: { 'hue-backend': [2, 8], 'hue-frontend': [0.5, 1] },
  dbc: { metastore: [4, 16], 'das-event-processor': [1, 4] },
  viz: { viz: [2, 8] },
};

/** A built-in template: each entity has a default one and a reduced one (half the size). */
export interface BuiltInTemplate {
  readonly name: string;
  readonly entityType: TemplateEntity;
  readonly isDefault: boolean;
  readonly description: string;
  readonly resources: Readonly<Record<string, { cpu: number; memory: string }>>;
}

const LABEL: Readonly<Record<TemplateEntity, string>> = {
  impala: 'Impala Virtual Warehouses',
  hive: 'Hive Virtual Warehouses',
  trino: 'Trino Virtual Warehouses',
  hue: 'Hue query editors',
  dbc: 'Database Catalogs',
  viz: 'Data Visualizations',
};

const sized = (entity: TemplateEntity, factor: number): BuiltInTemplate['resources'] =>
  Object.fromEntries(
    Object.entries(COMPONENT_SIZES[entity]).map(([component, [cpu, gi]]) => [
      component,
      { cpu: cpu * factor, memory: `${Math.max(1, Math.round(gi * factor))}Gi` },
    ]),
  );

export const BUILT_IN_TEMPLATES: readonly BuiltInTemplate[] = TEMPLATE_ENTITIES.flatMap((entity) => [
  {
    name: `${entity}-default`,
    entityType: entity,
    isDefault: true,
    description: `Default resources of ${LABEL[entity]}`,
    resources: sized(entity, 1),
  },
  {
    name: `${entity}-reduced`,
    entityType: entity,
    isDefault: false,
    description: `Half the default resources of ${LABEL[entity]}, for small workloads`,
    resources: sized(entity, 0.5),
  },
]);

// ---- server settings (private cloud) -------------------------------------------

export type SettingUpdate = 'ENVIRONMENT' | 'DBC' | 'IMPALA' | 'HIVE' | 'TRINO' | 'VIZ' | 'CDW_HUE';

export interface ServerSetting {
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly enabled: boolean;
  /** What has to be updated or recreated for a change to take effect. */
  readonly requiresUpdate: readonly SettingUpdate[];
}

export const SERVER_SETTINGS: readonly ServerSetting[] = [
  {
    key: 'dwx.impala.query.log',
    name: 'Impala query log',
    description: 'New Impala Virtual Warehouses keep their queries in sys.impala_query_log',
    enabled: false,
    requiresUpdate: ['IMPALA'],
  },
  {
    key: 'dwx.hive.query.history',
    name: 'Hive query history',
    description: 'New Hive Virtual Warehouses record completed queries in sys.query_history',
    enabled: false,
    requiresUpdate: ['HIVE'],
  },
  {
    key: 'dwx.dbc.metastore.ha',
    name: 'Metastore high availability',
    description: 'Database Catalogs run a standby metastore',
    enabled: true,
    requiresUpdate: ['DBC'],
  },
  {
    key: 'dwx.viz.sso',
    name: 'Data Visualization single sign-on',
    description: 'Data Visualizations sign users in through the platform',
    enabled: true,
    requiresUpdate: ['VIZ'],
  },
  {
    key: 'dwx.hue.unified.editor',
    name: 'Unified Hue editor',
    description: 'One Hue editor for the Hive and Impala warehouses of a catalog',
    enabled: false,
    requiresUpdate: ['CDW_HUE'],
  },
  {
    key: 'dwx.trino.enabled',
    name: 'Trino Virtual Warehouses',
    description: 'Trino can be chosen as the engine of new Virtual Warehouses',
    enabled: false,
    requiresUpdate: ['ENVIRONMENT', 'TRINO'],
  },
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
