/**
 * What the Data Warehouse answers of the account as a whole: the instance
 * types each cloud allows for each engine (a catalogue), and the server
 * settings with the account's changes to them.
 */
import type { Hook } from '../../engine/declare.js';
import { invalid } from '../../errors.js';
import type { Doc } from '../../types.js';
import { docs, text } from '../../values.js';
import { INSTANCE_TYPES, SERVER_SETTINGS, type Cloud } from './catalogue.js';

/** Where the account's changes to the server settings are kept. */
const SETTINGS_KIND = 'dw.serverSettings';

/** The instance types of each cloud, for each engine and all together (the first is the default). */
export function allowedInstanceTypes(): Doc {
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

/** The server setting of a key, as the account has it now. */
export const setting = (h: Hook, key: string): boolean => overrides(h)[key] ?? SERVER_SETTINGS.find((s) => s.key === key)?.enabled ?? false;

/** `server-settings list`: each setting as the account has it. */
export function describeServerSetting(h: Hook): Doc {
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

/** `server-settings update`: every key known and every value a boolean, or nothing changes. */
export function updateServerSetting(h: Hook, req: Doc): Doc {
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

/** `server-settings reset`: the defaults again. */
export function resetServerSettings(h: Hook): Doc {
  h.ctx.store.delete(SETTINGS_KIND, 'overrides');
  return { status: 'reset to the defaults' };
}
