/**
 * What the Data Warehouse answers of the account as a whole: the instance
 * types each cloud allows for each engine (a catalogue), and the server
 * settings, the account's one record (`perAccount`), made by its first
 * change; a reset sets the defaults again.
 */
import type { Hook } from '../../engine/declare.js';
import { invalid } from '../../errors.js';
import type { Doc } from '../../types.js';
import type { R } from './common.js';
import { docs, strings, text, uniq } from '../../values.js';
import { INSTANCE_TYPES, SERVER_SETTINGS, TEMPLATE_ENTITIES, type Cloud, type TemplateEntity } from './catalogue.js';

/** The instance types of each cloud, for each engine and all together (the first is the default). */
export function allowedInstanceTypes(): Doc {
  const engine = (list: readonly string[]): Doc => ({ default: list[0], allowed: [...list] });
  const of = ({ hive, impala, trino }: (typeof INSTANCE_TYPES)[Cloud]): Doc => ({
    default: [hive[0]],
    allowed: uniq([...hive, ...impala, ...trino]),
    hive: engine(hive),
    impala: engine(impala),
    trino: engine(trino),
  });
  return { aws: of(INSTANCE_TYPES.AWS), azure: of(INSTANCE_TYPES.AZURE) };
}

/** The server settings as an account has them before any change: the catalogue's defaults. */
export const defaultSettings = (): Doc => ({
  settings: SERVER_SETTINGS.map(([configurationKey, configurationName, enabled, requiresUpdate, description]) => ({
    configurationName,
    configurationKey,
    enabled,
    description,
    requiresUpdate: [...requiresUpdate],
  })),
});

/** The account's server settings now (its one record, made by the first update; the defaults until then). */
const settingsOf = (h: Hook<R>): Doc[] => docs((h.records('serverSettings').byId(h.ctx.info.accountId)?.doc ?? defaultSettings()).settings);

/** The server setting of a key, as the account has it now. */
export const setting = (h: Hook<R>, key: string): boolean => settingsOf(h).find((s) => s.configurationKey === key)?.enabled === true;

/** What has to be updated for a setting to take effect, in words: the entities' as templates name them (DBC, IMPALA, ...), and these. */
const NEEDS: Readonly<Record<string, string>> = { ENVIRONMENT: 'environments', CDW_HUE: 'Hue' };
const needed = (n: string): string => NEEDS[n] ?? TEMPLATE_ENTITIES[n.toLowerCase() as TemplateEntity]?.label ?? n;

/**
 * `server-settings update`, as the update of the account's settings reads
 * it: every setting, the changed ones set (every key known and every value a
 * boolean, or nothing changes), and what must be updated for them to take
 * effect (`needs`, which its answer tells).
 */
export function settingsChanged(h: Hook<R>, sent: Doc): Doc {
  const changes = docs(sent.settings);
  if (changes.length === 0) throw invalid('give the settings to change: configurationKey and enabled');
  const settings = settingsOf(h).map((s) => ({ ...s }));
  const needs = new Set<string>();
  for (const c of changes) {
    const key = text(c.configurationKey);
    const known = settings.find((s) => s.configurationKey === key);
    if (!known) throw invalid(`${key || '(no configurationKey)'} is not a server setting; see \`dw server-settings list\``);
    if (typeof c.enabled !== 'boolean') throw invalid(`${key}: say whether it is enabled (true or false)`);
    if (known.enabled !== c.enabled) for (const n of strings(known.requiresUpdate)) needs.add(needed(n));
    known.enabled = c.enabled;
  }
  return { settings, needs: [...needs] };
}

/** What an update of the server settings answers: what must be updated for it to take effect. */
export const settingsUpdated = (_h: Hook<R>, _rec: unknown, req: Doc): Doc => {
  const needs = strings(req.needs);
  return { status: needs.length > 0 ? `updated; takes effect as ${needs.join(', ')} are updated or recreated` : 'updated' };
};
