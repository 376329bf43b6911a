/**
 * The configuration of Database Catalogs and Virtual Warehouses, and its
 * history. A configuration is a set of blocks (files) per component plus
 * the blocks common to all of them, LDAP groups and SSO; every change makes
 * a new version (a `config` record of the cluster, with its id and the time
 * it took effect), so `config history`, `configs describe` and `configs
 * diff` read real versions. Changes are applied on top of the current
 * version, as the descriptions say, and checked against the component's
 * files: a key-value file takes `keyValue`, a text file `content`.
 */
import { invalid, notFound } from '../../errors.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import type { Doc } from '../../types.js';
import { compact, docs, obj, str, stringMap, strings, text } from '../../values.js';
import { COMPONENTS, type ComponentFiles } from './catalogue.js';
import { all, clusterOf, entityId } from './common.js';

/** What a block of configuration holds: key-values, or text (JSON is text too). */
interface BlockContent {
  keyValues?: Record<string, string>;
  text?: string;
  json?: string;
}
type ConfigBlock = { id: string; content: BlockContent };

/** A service's configuration as ServiceConfigResp shows it. */
export interface ServiceConfig {
  commonConfigs: { configBlocks: ConfigBlock[] };
  applicationConfigs: Record<string, { configBlocks: ConfigBlock[] }>;
  ldapGroups: string[];
  enableSSO: boolean;
}

/** Which components a service has: a catalog's, or a Hive or Impala warehouse's. */
export type ConfigKind = keyof typeof COMPONENTS;

const blocksOf = (files: ComponentFiles): ConfigBlock[] =>
  Object.entries(files).map(([id, v]) => ({ id, content: typeof v === 'string' ? { text: v } : { keyValues: { ...v } } }));

/** The configuration a new catalog or warehouse starts with. */
export function initialConfig(kind: ConfigKind): ServiceConfig {
  return {
    commonConfigs: { configBlocks: [{ id: 'env', content: { keyValues: { TZ: 'UTC' } } }] },
    applicationConfigs: Object.fromEntries(Object.entries(COMPONENTS[kind]).map(([c, files]) => [c, { configBlocks: blocksOf(files) }])),
    ldapGroups: [],
    enableSSO: false,
  };
}

const copy = (c: ServiceConfig): ServiceConfig => JSON.parse(JSON.stringify(c)) as ServiceConfig;

/** A block's content from a request's ConfigContentReq (only what it gives). */
function contentOf(raw: unknown): BlockContent {
  const c = obj(raw);
  return compact({
    keyValues: c.keyValues !== undefined ? stringMap(c.keyValues) : undefined,
    text: str(c.text),
    json: str(c.json),
  }) as BlockContent;
}

/** Puts a change into a block list: key-values added to the block's, text replaced; a new block id added. */
function mergeBlock(blocks: ConfigBlock[], id: string, change: BlockContent): void {
  const block = blocks.find((b) => b.id === id);
  if (!block) {
    blocks.push({ id, content: change });
    return;
  }
  if (change.keyValues) block.content.keyValues = { ...(block.content.keyValues ?? {}), ...change.keyValues };
  if (change.text !== undefined) block.content.text = change.text;
  if (change.json !== undefined) block.content.json = change.json;
}

/** INVALID_ARGUMENT unless a block change fits the component's file of that name. */
function checkFile(kind: ConfigKind, component: string, file: string, change: BlockContent): void {
  const files = COMPONENTS[kind][component] ?? {};
  const known = files[file];
  if (known === undefined) throw invalid(`${component} has no configuration file ${file}; its files are ${Object.keys(files).join(', ')}`);
  if (typeof known === 'string' && change.keyValues) throw invalid(`${component} ${file} is a text file: give its content, not keyValue`);
  if (typeof known !== 'string' && (change.text !== undefined || change.json !== undefined))
    throw invalid(`${component} ${file} is a key-value file: give keyValue, not content`);
}

function checkComponent(kind: ConfigKind, component: string, what: string): void {
  if (!COMPONENTS[kind][component])
    throw invalid(`${component} is not a component of ${what}; its components are ${Object.keys(COMPONENTS[kind]).join(', ')}`);
}

/**
 * A ServiceConfigReq applied on top of a configuration (catalog and
 * warehouse updates). SSO is chosen at creation: `enableSSO` can be given
 * again only with the value it has.
 */
export function applyServiceConfig(current: ServiceConfig, req: unknown, kind: ConfigKind, what: string, creating = false): ServiceConfig {
  const next = copy(current);
  const r = obj(req);
  for (const b of docs(obj(r.commonConfigs).configBlocks)) mergeBlock(next.commonConfigs.configBlocks, String(b.id), contentOf(b.content));
  for (const [component, app] of Object.entries(obj(r.applicationConfigs))) {
    checkComponent(kind, component, what);
    const blocks = (next.applicationConfigs[component] ??= { configBlocks: [] }).configBlocks;
    for (const b of docs(obj(app).configBlocks)) {
      const change = contentOf(b.content);
      checkFile(kind, component, String(b.id), change);
      mergeBlock(blocks, String(b.id), change);
    }
  }
  if (Array.isArray(r.ldapGroups)) next.ldapGroups = strings(r.ldapGroups);
  if (typeof r.enableSSO === 'boolean') {
    if (!creating && r.enableSSO !== current.enableSSO)
      throw invalid(`SSO of ${what} was ${current.enableSSO ? 'enabled' : 'left off'} when it was created and cannot be changed`);
    next.enableSSO = r.enableSSO;
  }
  return next;
}

/** `config update --component C --set [...]`: files of one component changed. */
function applyComponentSet(current: ServiceConfig, component: string, set: unknown, kind: ConfigKind, what: string): ServiceConfig {
  checkComponent(kind, component, what);
  const changes = docs(set);
  if (changes.length === 0) throw invalid('give the files to change in --set: configFile and keyValue or content');
  const next = copy(current);
  const blocks = (next.applicationConfigs[component] ??= { configBlocks: [] }).configBlocks;
  for (const c of changes) {
    const file = str(c.configFile);
    if (!file) throw invalid('each item of --set needs its configFile');
    const change: BlockContent =
      c.keyValue !== undefined ? { keyValues: stringMap(c.keyValue) } : str(c.content) !== undefined ? { text: str(c.content) } : {};
    if (!change.keyValues && change.text === undefined)
      throw invalid(`--set ${file}: give keyValue (key-value files) or content (text files)`);
    checkFile(kind, component, file, change);
    mergeBlock(blocks, file, change);
  }
  return next;
}

// ---- versions ----------------------------------------------------------------------

/** The configuration a config record holds. */
export const configIn = (rec: EngineRecord): ServiceConfig => rec.data?.config as ServiceConfig;

/**
 * Records a new configuration version of a catalog or warehouse (`service`,
 * being created or changed) of a cluster. The service keeps
 * the id of its newest version, so a describe need not read every version.
 */
export function recordConfig(h: Hook, cluster: EngineRecord, service: { id: string; data?: Doc }, config: ServiceConfig): void {
  const id = entityId(h, 'config');
  service.data = { ...service.data, configId: id };
  const doc = { serviceId: service.id, configId: id, from: new Date(h.ctx.clock.now()).toISOString() };
  h.records('config').create({ id, scope: cluster.id, ...(cluster.env ? { env: cluster.env } : {}), doc, data: { config } });
}

/**
 * An update of a catalog's or warehouse's configuration: the files of one
 * component (`component`, `set`) or a ServiceConfigReq (`config`), on top
 * of the version it runs.
 */
export function changeConfig(h: Hook, rec: EngineRecord, req: Doc, kind: ConfigKind, what: string): void {
  if (req.component === undefined && req.config === undefined) return;
  const cluster = clusterOf(h, rec);
  const current = currentConfig(h, cluster.id, rec.id).config;
  const next =
    req.component !== undefined
      ? applyComponentSet(current, text(req.component), req.set, kind, what)
      : applyServiceConfig(current, req.config, kind, what);
  recordConfig(h, cluster, rec, next);
}

/** The versions of a service's configuration, newest first. */
const versionsOf = (h: Hook, clusterId: string, serviceId: string): EngineRecord[] =>
  all(h, 'config', clusterId)
    .filter((c) => c.doc.serviceId === serviceId)
    .reverse();

/** `dbcs|vws config history`: its configuration's versions, newest first. */
export const configHistory = (h: Hook, rec: EngineRecord): Doc => ({ configHistory: versionsOf(h, rec.scope, rec.id).map((c) => c.doc) });

/** `dbcs|vws config describe`: the configuration a catalog or warehouse runs with. */
export const configNow = (h: Hook, rec: EngineRecord): Doc => ({ config: currentConfig(h, rec.scope, rec.id).config });

/** The id of the configuration a service runs with, as the service keeps it (recordConfig). */
export const currentConfigId = (h: Hook, service: EngineRecord): string =>
  typeof service.data?.configId === 'string' ? service.data.configId : currentConfig(h, service.scope, service.id).id;

/** The configuration a service runs with: its newest version. */
export function currentConfig(h: Hook, clusterId: string, serviceId: string): { id: string; config: ServiceConfig } {
  const newest = versionsOf(h, clusterId, serviceId)[0];
  if (!newest) throw notFound(`no configuration recorded for ${serviceId}`);
  return { id: newest.id, config: configIn(newest) };
}

// ---- differences -------------------------------------------------------------------

function keyValuesDiff(a: Record<string, string>, b: Record<string, string>): Doc {
  const where = (of: Record<string, string>, keep: (k: string, v: string) => boolean) =>
    Object.fromEntries(Object.entries(of).filter(([k, v]) => keep(k, v)));
  const changed = where(b, (k, v) => a[k] !== undefined && a[k] !== v);
  return {
    added: where(b, (k) => a[k] === undefined),
    removed: where(a, (k) => b[k] === undefined),
    same: where(b, (k, v) => a[k] === v),
    changed: Object.fromEntries(Object.entries(changed).map(([k, v]) => [k, { from: a[k], to: v }])),
  };
}

function blocksDiff(from: readonly ConfigBlock[], to: readonly ConfigBlock[]): Doc {
  const before = new Map(from.map((b) => [b.id, b.content]));
  const after = new Set(to.map((b) => b.id));
  const kept = to.filter((x) => before.has(x.id));
  const same = kept.filter((x) => JSON.stringify(before.get(x.id)) === JSON.stringify(x.content));
  const changed = kept
    .filter((x) => !same.includes(x))
    .map(({ id, content }) => {
      const was = before.get(id) ?? {};
      const keyValues = was.keyValues || content.keyValues ? keyValuesDiff(was.keyValues ?? {}, content.keyValues ?? {}) : undefined;
      return { id, contentDiff: keyValues ? { keyValues } : {} };
    });
  const added = to.filter((x) => !before.has(x.id));
  const removed = from.filter((x) => !after.has(x.id));
  const isChanged = added.length + removed.length + changed.length > 0;
  return { isChanged, configBlocksDiffs: { isChanged, added, removed, same, changed } };
}

/** What changed from one configuration version to another (ServiceConfigDiff). */
export function configDiff(from: ServiceConfig, to: ServiceConfig): Doc {
  const commonConfigsDiff = blocksDiff(from.commonConfigs.configBlocks, to.commonConfigs.configBlocks);
  const components = [...new Set([...Object.keys(from.applicationConfigs), ...Object.keys(to.applicationConfigs)])];
  const applicationConfigsDiffs = Object.fromEntries(
    components.map((c) => [c, blocksDiff(from.applicationConfigs[c]?.configBlocks ?? [], to.applicationConfigs[c]?.configBlocks ?? [])]),
  );
  const isChanged =
    commonConfigsDiff.isChanged === true ||
    Object.values(applicationConfigsDiffs).some((d) => d.isChanged === true) ||
    JSON.stringify(from.ldapGroups) !== JSON.stringify(to.ldapGroups) ||
    from.enableSSO !== to.enableSSO;
  return { isChanged, commonConfigsDiff, applicationConfigsDiffs };
}

/** `configs diff`: what changed between two versions of one service's configuration in the cluster. */
export function configDiffIn(h: Hook, c: EngineRecord, req: Doc): Doc {
  const configs = h.records('config');
  const from = configs.get(text(req.fromConfigId), c.id, `cluster ${c.id}`);
  const to = configs.get(text(req.toConfigId), c.id, `cluster ${c.id}`);
  if (from.doc.serviceId !== to.doc.serviceId)
    throw invalid(
      `configuration ${from.id} is of ${String(from.doc.serviceId)} and ${to.id} of ${String(to.doc.serviceId)}; compare versions of one service`,
    );
  return { config: configDiff(configIn(from), configIn(to)) };
}
