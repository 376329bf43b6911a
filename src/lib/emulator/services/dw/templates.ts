/**
 * Resource templates: the CPU and memory sizes catalogs, warehouses and
 * visualizations are made with. Every account has the built-in ones (a
 * default and a reduced one per kind); users add their own. A template is
 * versioned: an update makes a new version, and one version can be deleted
 * (the template goes back to the one before). Built-in default templates
 * and templates a catalog or visualization uses are not deleted.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import type { Hook, Resource } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { stableUuid } from '../../ids.js';
import type { Doc } from '../../types.js';
import { compact, num, obj, str, text } from '../../values.js';
import { all, type R } from './common.js';
import { TEMPLATE_ENTITIES, type TemplateEntity } from './catalogue.js';

const ENTITIES = Object.keys(TEMPLATE_ENTITIES) as TemplateEntity[];

interface TemplateVersion {
  version: number;
  name: string;
  description?: string;
  resources: Doc;
}

const versionsOf = (rec: EngineRecord): TemplateVersion[] => (rec.data?.versions as TemplateVersion[] | undefined) ?? [];

/** The resources of a built-in template: each component of its entity at the default size times `factor`. */
const sized = (entity: TemplateEntity, factor: number): Doc =>
  Object.fromEntries(
    Object.entries(TEMPLATE_ENTITIES[entity].sizes).map(([component, [cpu, gi]]) => [
      component,
      { cpu: cpu * factor, memory: `${Math.max(1, Math.round(gi * factor))}Gi` },
    ]),
  );

/**
 * Makes the built-in templates of the account, once (the engine's setup
 * runs it before every operation): each entity has a default one and a
 * reduced one (half the size).
 */
export function ensureTemplates(h: Hook): void {
  const flag = `dw.templates:${h.ctx.info.accountId}`;
  if (h.ctx.store.meta(flag)) return;
  for (const entityType of ENTITIES) {
    const { label } = TEMPLATE_ENTITIES[entityType];
    for (const [kind, description, factor] of [
      ['default', `Default resources of ${label}`, 1],
      ['reduced', `Half the default resources of ${label}, for small workloads`, 0.5],
    ] as const) {
      const name = `${entityType}-${kind}`;
      const id = stableUuid(`${h.ctx.info.accountId}/dw/template/${name}`);
      h.records('template').create({
        id,
        name,
        scope: '',
        doc: { id, name, version: 1, entityType, description, isDefault: factor === 1 },
        data: { versions: [{ version: 1, name, description, resources: sized(entityType, factor) }], builtIn: true },
      });
    }
  }
  h.ctx.store.setMeta(flag, '1');
}

/** The resources a template gives each component (of its current version). */
export const templateResources = (rec: EngineRecord): Doc => versionsOf(rec).at(-1)?.resources ?? {};

/** The entity a request names, as the request's description writes it or as answers show it (`hive`, `Hive`; `viz`, `DataViz`). */
function entityOf(asked: string): TemplateEntity | undefined {
  const low = asked.toLowerCase();
  return ENTITIES.find((e) => e === low || TEMPLATE_ENTITIES[e].shown.toLowerCase() === low);
}

/** A template by id for an entity type: NOT_FOUND, or INVALID_ARGUMENT when it sizes another kind. */
export function templateById(h: Hook, id: string, entity: TemplateEntity): EngineRecord {
  const t = h.records('template').get(id);
  if (t.doc.entityType !== entity)
    throw invalid(`resource template ${t.name ?? id} sizes ${String(t.doc.entityType)}, not ${entity}; see \`dw resource-templates list\``);
  return t;
}

/** The account's templates of an entity type. */
export const templatesOf = (h: Hook, entity: TemplateEntity): EngineRecord[] =>
  all(h, 'template', '').filter((t) => t.doc.entityType === entity);

/** A template by name for an entity type (Data Visualizations name theirs), or NOT_FOUND naming those there are. */
export function templateByName(h: Hook, name: string, entity: TemplateEntity): EngineRecord {
  const all = templatesOf(h, entity);
  const hit = all.find((t) => t.name?.toLowerCase() === name.toLowerCase());
  if (!hit) throw notFound(`resource template ${name} not found for ${entity}; there are ${all.map((t) => t.name).join(', ')}`);
  return hit;
}

/** The default template of an entity type. */
export function defaultTemplate(h: Hook, entity: TemplateEntity): EngineRecord {
  const hit = templatesOf(h, entity).find((t) => t.doc.isDefault === true);
  if (!hit) throw new Error(`dw has no default ${entity} template`);
  return hit;
}

/** The resources of a request (CreateApplicationResources by component), as stored. */
function resourcesOf(raw: unknown): Doc {
  const out: Doc = {};
  for (const [component, r] of Object.entries(obj(raw))) {
    const { cpu, memory, breakdown, ephemeralStorage, localStorageSize } = obj(r);
    const given = (v: unknown): Doc | undefined => (v === undefined ? undefined : obj(v));
    out[component] = compact({
      cpu: num(cpu),
      memory: str(memory),
      breakdown: given(breakdown),
      ephemeralStorage: str(ephemeralStorage),
      localStorageSize: given(localStorageSize),
    });
  }
  return out;
}

/** What uses a template: the catalogs sized by it and the visualizations sized by its name. */
function usersOf(h: Hook, t: EngineRecord): string[] {
  const catalogs = all(h, 'dbc').filter((d) => d.doc.resourceTemplateId === t.id);
  const vizzes = t.doc.entityType === 'viz' ? all(h, 'dataVisualization').filter((v) => v.doc.size === t.name) : [];
  return [...catalogs.map((d) => `Database Catalog ${nameOf(d)}`), ...vizzes.map((v) => `Data Visualization ${nameOf(v)}`)];
}

/** A resource template of the account (the built-in ones are made by `ensureTemplates`). */
export const template: Resource<R> = {
  noun: 'resource template',
  keys: ['templateId'],
  renames: true,
  hooks: {
    // Kept as the request's word (what catalogs, warehouses and visualizations look templates up by); shown as answers name it.
    show: (_h, rec) => ({ entityType: TEMPLATE_ENTITIES[rec.doc.entityType as TemplateEntity]?.shown ?? rec.doc.entityType }),
    fill: (_h, rec: EngineRecord, req) => {
      const entity = entityOf(text(req.entityType));
      if (!entity)
        throw invalid(
          `--entity-type must be one of ${ENTITIES.join(', ')} (or as answers name them: ${ENTITIES.map((e) => TEMPLATE_ENTITIES[e].shown).join(', ')})`,
        );
      if (!rec.name) throw invalid('give the template a --name');
      const resources = resourcesOf(req.resources);
      if (Object.keys(resources).length === 0) throw invalid('give --resources: the cpu and memory of each component');
      rec.data = { ...rec.data, versions: [{ version: 1, name: rec.name, description: str(req.description), resources }] };
      return { entityType: entity, version: 1, isDefault: false };
    },
    check: {
      // A new version, under the name the update gave (the engine renames it: `renames`).
      update: (_h, rec: EngineRecord, req) => {
        const versions = versionsOf(rec);
        const last = versions.at(-1);
        const version = (last?.version ?? 0) + 1;
        const resources = { ...(last?.resources ?? {}), ...resourcesOf(req.resources) };
        const next = { version, name: rec.name ?? '', description: str(rec.doc.description), resources };
        rec.doc.version = version;
        rec.data = { ...rec.data, versions: [...versions, next] };
      },
    },
  },
};

/**
 * Deletes a template, or one version of it (the template then shows the
 * newest version left; deleting its only version deletes it).
 */
export function deleteTemplate(h: Hook, req: Doc): Doc {
  const templates = h.records('template');
  const t = templates.get(text(req.templateId));
  const what = `resource template ${nameOf(t)}`;
  if (t.doc.isDefault === true) throw failedPrecondition(`${what} is a default template and cannot be deleted`);
  const versions = versionsOf(t);
  const which = num(req.templateVersion);
  if (which !== undefined && !versions.some((v) => v.version === which))
    throw notFound(
      `${what} has no version ${which}${versions.length > 1 ? `; its versions are ${versions.map((v) => v.version).join(', ')}` : ''}`,
    );
  if (which !== undefined && versions.length > 1) {
    const left = versions.filter((v) => v.version !== which);
    const shown = left.at(-1);
    t.data = { ...t.data, versions: left };
    if (shown) {
      t.name = shown.name;
      Object.assign(t.doc, { name: shown.name, version: shown.version, description: shown.description });
    }
    templates.save(t);
  } else {
    const users = usersOf(h, t);
    if (users.length > 0) throw failedPrecondition(`${what} is used by ${users.join(', ')}`);
    templates.remove(t);
  }
  return { templateId: t.id };
}
