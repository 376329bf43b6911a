/**
 * Data Warehouse on the resource engine. A cluster activates the service in
 * an environment (clusters.ts); Database Catalogs, Virtual Warehouses and
 * Data Visualizations run on it (warehouses.ts), with their configuration
 * history (configs.ts) and events (events.ts); secrets, connectors, their
 * test jobs and users belong to it (sources.ts); diagnostic bundles are
 * collected for each of them; resource templates (templates.ts), backups
 * and restores (drs.ts) and server settings belong to the account. The
 * engine derives the verbs, answers and paging from the model; what is
 * written here are the rules between them and what they compute.
 */
import type { ResourceFacts, ServiceResources } from '../../../model/resources.js';
import { resources as facts } from '../../../model/services/dw/resources.js';
import { invalid } from '../../errors.js';
import type { Hook, ResourceSpec } from '../../engine/index.js';
import type { Lifecycle } from '../../lifecycle.js';
import type { Doc, ServiceModule } from '../../types.js';
import { docs, str, stringMap, text } from '../../values.js';
import { INSTANCE_TYPES, SERVER_SETTINGS, type Cloud } from './catalogue.js';
import { cluster, restoreCluster } from './clusters.js';
import { configDiff, configIn } from './configs.js';
import { backup, getLogs, listBackupEntities, restore } from './drs.js';
import { listEvents } from './events.js';
import { connector, connectorTest, secret, user } from './sources.js';
import { deleteTemplate, ensureTemplates, template } from './templates.js';
import { dataVisualization, dbc, SETTINGS_KIND, vw } from './warehouses.js';

/** A diagnostic bundle's job: it starts, collects, and succeeds (fails for an owner named fail-...). */
const DIAGNOSTICS: Lifecycle = {
  create: {
    phases: [
      ['Starting', 0.5],
      ['Running', 2.5],
    ],
    success: 'Succeeded',
    failure: 'Failed',
  },
};

const HALF_HOUR = 30 * 60_000;

/**
 * The model's facts as this spec of the older shape is served by them: each
 * resource's shape, CRN type, field roles and how its delete ends (a deleted
 * diagnostic job stays visible as `Deleted`). The states each action passes
 * through stay in the lifecycles declared here, with their emulated minutes,
 * until dw is on the operation table (facts would replace them whole);
 * test/unit/emulator/services/dw/facts.test.ts checks the two tell the same
 * states.
 */
const served: ServiceResources = {
  resources: Object.fromEntries(
    Object.entries(facts.resources).map(([key, { lifecycle: _declaredHere, ...rest }]: [string, ResourceFacts]) => [key, rest]),
  ),
};

/** The diagnostic bundles of a cluster, catalog or warehouse: one job at a time unless forced; deleted even while running. */
function diagnostics(owner: 'cluster' | 'dbc' | 'vw', noun: string): ResourceSpec {
  return {
    noun: 'diagnostic job',
    nouns: [`${noun}DiagnosticDataJob`],
    keys: ['jobId'],
    parent: owner,
    lifecycle: DIAGNOSTICS,
    partOfParent: true,
    subject: (rec) => str(rec.data?.owner),
    hooks: {
      creating: (h, rec, req) => {
        const jobs = h.resources(`${owner}Diagnostics`);
        const running = jobs.all(rec.scope).find((j) => jobs.busy(j));
        if (running && req.force !== true)
          throw invalid(`diagnostic job ${running.id} is still collecting; wait for it, or give force to start another`);
        const now = h.ctx.clock.now();
        const start = str(req.startTime) ?? new Date(now - HALF_HOUR).toISOString();
        const end = str(req.endTime) ?? new Date(now).toISOString();
        const download = req.destination === 'DOWNLOAD';
        Object.assign(rec.doc, {
          jobId: rec.id,
          startTime: start,
          endTime: end,
          ...(download ? { url: `https://dw-diagnostics.${h.ctx.info.region}.emulator.invalid/${rec.scope}/${rec.id}.zip` } : {}),
          labels: {
            ...stringMap(req.bundleMetadata),
            destination: text(req.destination),
            ...(str(req.caseNumber) ? { caseNumber: text(req.caseNumber) } : {}),
          },
        });
        const of = h.resources(owner).byId(rec.scope);
        rec.data = { ...rec.data, owner: of?.name ?? str(of?.doc.name) ?? rec.scope };
      },
    },
  };
}

/** Configuration versions of a cluster's catalogs and warehouses (configs.ts makes them). */
const config: ResourceSpec = {
  noun: 'configuration',
  nouns: ['Config'],
  keys: ['configId'],
  parent: 'cluster',
  shape: 'ConfigHistoryItem',
  partOfParent: true,
  ops: { describeConfig: { verb: 'read', answer: (_h, rec) => ({ config: configIn(rec) }) } },
};

// ---- account-wide answers ---------------------------------------------------------------

function allowedInstanceTypes(): Doc {
  const of = (cloud: Cloud): Doc => {
    const t = INSTANCE_TYPES[cloud];
    const engine = (list: readonly string[]): Doc => ({ default: list[0], allowed: [...list] });
    return {
      default: [t.hive[0]],
      allowed: [...new Set([...t.hive, ...t.impala, ...t.trino])],
      hive: engine(t.hive),
      impala: engine(t.impala),
      trino: engine(t.trino),
    };
  };
  return { aws: of('AWS'), azure: of('AZURE') };
}

const overrides = (h: Hook): Record<string, boolean> => h.ctx.store.get<Record<string, boolean>>(SETTINGS_KIND, 'overrides') ?? {};

function describeServerSetting(h: Hook): Doc {
  const set = overrides(h);
  return {
    settings: SERVER_SETTINGS.map((s) => ({
      configurationName: s.name,
      configurationKey: s.key,
      enabled: set[s.key] ?? s.enabled,
      description: s.description,
      requiresUpdate: [...s.requiresUpdate],
    })),
  };
}

const NEEDS: Readonly<Record<string, string>> = {
  ENVIRONMENT: 'environments',
  DBC: 'Database Catalogs',
  IMPALA: 'Impala Virtual Warehouses',
  HIVE: 'Hive Virtual Warehouses',
  TRINO: 'Trino Virtual Warehouses',
  VIZ: 'Data Visualizations',
  CDW_HUE: 'Hue',
};

function updateServerSetting(h: Hook, req: Doc): Doc {
  const changes = docs(req.settings);
  if (changes.length === 0) throw invalid('give the settings to change: configurationKey and enabled');
  const set = overrides(h);
  const needs = new Set<string>();
  for (const c of changes) {
    const key = text(c.configurationKey);
    const known = SERVER_SETTINGS.find((s) => s.key === key);
    if (!known) throw invalid(`${key || '(no configurationKey)'} is not a server setting; see \`dw server-settings list\``);
    if (typeof c.enabled !== 'boolean') throw invalid(`${key}: say whether it is enabled (true or false)`);
    if ((set[key] ?? known.enabled) !== c.enabled) for (const n of known.requiresUpdate) needs.add(NEEDS[n] ?? n);
    set[key] = c.enabled;
  }
  h.ctx.store.put(SETTINGS_KIND, 'overrides', set);
  return { status: needs.size > 0 ? `updated; takes effect as ${[...needs].join(', ')} are updated or recreated` : 'updated' };
}

function resetServerSettings(h: Hook): Doc {
  h.ctx.store.delete(SETTINGS_KIND, 'overrides');
  return { status: 'reset to the defaults' };
}

function describeConfigDiff(h: Hook, req: Doc): Doc {
  const c = h.engine.locate(h, h.engine.resource('cluster'), req);
  const configs = h.resources('config');
  const from = configs.get(text(req.fromConfigId), c.id, `cluster ${c.id}`);
  const to = configs.get(text(req.toConfigId), c.id, `cluster ${c.id}`);
  if (from.doc.serviceId !== to.doc.serviceId)
    throw invalid(
      `configuration ${from.id} is of ${String(from.doc.serviceId)} and ${to.id} of ${String(to.doc.serviceId)}; compare versions of one service`,
    );
  return { config: configDiff(configIn(from), configIn(to)) };
}

const service: ServiceModule = {
  service: 'dw',
  engine: {
    facts: served,
    setup: ensureTemplates,
    resources: {
      cluster,
      dbc,
      vw,
      dataVisualization,
      config,
      clusterDiagnostics: diagnostics('cluster', 'Cluster'),
      dbcDiagnostics: diagnostics('dbc', 'Dbc'),
      vwDiagnostics: diagnostics('vw', 'Vw'),
      user,
      secret,
      connector,
      connectorTest,
      template,
      backup,
      restore,
    },
    handlers: {
      healthCheck: () => ({ message: 'OK' }),
      describeAllowedInstanceTypes: allowedInstanceTypes,
      describeServerSetting,
      updateServerSetting,
      resetServerSettings,
      listEvents,
      getLogs,
      listBackupEntities,
      describeConfigDiff,
      restoreCluster,
      deleteResourceTemplate: deleteTemplate,
    },
  },
};

export default service;
