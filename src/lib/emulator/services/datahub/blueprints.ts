/**
 * What Data Hub clusters are built from, on the resource engine: cluster
 * templates (a Cloudera Manager template: the services and host groups),
 * cluster definitions (a cluster request for one environment: the cloud
 * settings and the template it builds), recipes (scripts for instance
 * groups) and custom configurations (service properties for a runtime).
 * Creating, describing, listing and deleting (by lists of names) are the
 * engine's, the platform's built-in templates and definitions its built-in
 * records; what is written here is what the model cannot say: the content
 * of a template and of a definition read and checked, and what refuses a
 * delete (what a cluster or a definition still uses).
 */
import type { Resource } from '../../engine/declare.js';
import type { CloudPlatform, EnvironmentView } from '../../world/contracts.js';
import type { EngineRecord } from '../../engine/records.js';
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import type { Doc } from '../../types.js';
import { docs, num, str, strings, text } from '../../values.js';
import { clustersUsing } from './actions.js';
import { builtIns, runtimeOf, RUNTIMES, type GroupDef } from './catalogue.js';
import type { DatahubHook, R } from './records.js';

/** A template as a cluster create uses it: its name, CRN and what its content says. */
export type TemplateRef = { readonly name: string; readonly crn: string } & ReturnType<typeof readTemplate>;

/** A definition as a cluster create uses it: its cloud, the template it builds and its instance groups. */
export interface DefinitionRef {
  readonly name: string;
  readonly crn: string;
  readonly platform: CloudPlatform;
  /** Built-in definitions are made for AWS GovCloud or not; an account's for the environment it names. */
  readonly gov?: boolean;
  readonly environmentCrn?: string;
  readonly template: TemplateRef;
  readonly groups: ReadonlyArray<GroupDef & { readonly instanceType?: string }>;
}

const RECIPE_TYPES = ['PRE_SERVICE_DEPLOYMENT', 'POST_CLOUDERA_MANAGER_START', 'POST_SERVICE_DEPLOYMENT', 'PRE_TERMINATION'];
/** Host group names that hold Cloudera Manager in a template written by hand. */
const GATEWAY_NAMES = ['master', 'manager', 'gateway', 'management'];

const platform = (h: DatahubHook): ReturnType<typeof builtIns> => builtIns(h.ctx.info.region);

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();
const named = (ref: string) => (x: { name: string; crn: string }) => same(x.name, ref) || x.crn === ref;

/** A JSON object given as text (`what` in messages, `hint` says what it should be), or INVALID_ARGUMENT. */
export function jsonObject(text: string, what: string, hint: string): Doc {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid(`${what} is not JSON: give ${hint} (file:// reads one from a file)`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid(`${what} must be a JSON object`);
  return parsed as Doc;
}

// ---- templates -----------------------------------------------------------------------

/** What a template's content says: its runtime, services and host groups (a Cloudera Manager template). */
function readTemplate(content: string): { runtime: string; services: readonly string[]; groups: readonly GroupDef[] } {
  const t = jsonObject(content, 'the cluster template content', 'a Cloudera Manager cluster template');
  const runtime = str(t.cdhVersion);
  if (!runtime) throw invalid('the cluster template content has no "cdhVersion" (the runtime it is for, e.g. 7.2.18)');
  if (!runtimeOf(runtime))
    throw invalid(`runtime ${runtime} of the cluster template is not available; available: ${RUNTIMES.map((r) => r.runtime).join(', ')}`);
  const hosts = docs(t.hostTemplates).map((x) => ({ name: text(x.refName), nodeCount: num(x.cardinality) ?? 1 }));
  const gateway = hosts.find((x) => GATEWAY_NAMES.includes(x.name)) ?? hosts[0];
  return {
    runtime,
    services: docs(t.services).map((s) => text(s.serviceType)),
    groups: hosts.map((x) => ({ ...x, type: x === gateway ? 'GATEWAY' : 'CORE' })),
  };
}

const templateRef = (name: string, crn: string, content: unknown): TemplateRef => ({
  name,
  crn,
  ...readTemplate(String(content ?? '{}')),
});

/** A template by name or CRN: the account's, or a built-in one. */
export function findTemplate(h: DatahubHook, ref: string): TemplateRef | undefined {
  const own = h.records('clusterTemplate').find(ref, '');
  if (own) return templateRef(own.name ?? '', own.crn ?? '', own.doc.clusterTemplateContent);
  const t = platform(h).templates.find(named(ref));
  return t && templateRef(t.name, t.crn, t.content);
}

export function requireTemplate(h: DatahubHook, ref: string): TemplateRef {
  const t = findTemplate(h, ref);
  if (!t) throw notFound(`cluster template ${ref.slice(0, 200)} not found; see \`datahub cluster-templates list\``);
  return t;
}

// ---- definitions ---------------------------------------------------------------------

/** Instance groups of a template with those a cluster request overrides (same name: its count and type). */
export function overrideGroups(
  template: TemplateRef,
  given: readonly Doc[],
): Array<GroupDef & { instanceType?: string; recipes: string[] }> {
  const groups = template.groups.map((x) => ({ ...x, recipes: [] as string[] }) as GroupDef & { instanceType?: string; recipes: string[] });
  const seen = new Set<string>();
  for (const x of given) {
    const name = text(x.instanceGroupName);
    if (seen.has(name)) throw invalid(`instance group ${name} is given twice`);
    seen.add(name);
    const i = groups.findIndex((y) => y.name === name);
    if (i < 0)
      throw invalid(
        `instance group ${name} is not a host group of cluster template ${template.name}; it has ${template.groups.map((y) => y.name).join(', ')}`,
      );
    const base = groups[i];
    if (!base) continue;
    const type = str(x.instanceGroupType)?.toUpperCase();
    if (type && type !== 'GATEWAY' && type !== 'CORE')
      throw invalid(`instance group ${name}: instanceGroupType is GATEWAY or CORE, not ${type}`);
    groups[i] = {
      name,
      type: (type ?? base.type) as GroupDef['type'],
      nodeCount: num(x.nodeCount) ?? base.nodeCount,
      ...(str(x.instanceType) ? { instanceType: str(x.instanceType) } : {}),
      recipes: strings(x.recipeNames),
    };
  }
  if (!groups.some((x) => x.type === 'GATEWAY')) throw invalid('instance groups need one GATEWAY group (the Cloudera Manager host)');
  for (const x of groups)
    if (x.nodeCount < 0) throw invalid(`instance group ${x.name}: nodeCount must be 0 or more`);
    else if (x.type === 'GATEWAY' && x.nodeCount < 1) throw invalid(`instance group ${x.name} holds Cloudera Manager: it needs a node`);
  return groups;
}

/** What a definition's workload template says: the environment it is for, its template and instance groups. */
function readDefinition(h: DatahubHook, workload: string): { env: EnvironmentView; template: TemplateRef; groups: GroupDef[] } {
  const w = jsonObject(workload, 'the workload template', 'the cluster request JSON the definition stands for');
  const envRef = str(w.environment) ?? str(w.environmentName);
  if (!envRef) throw invalid('the workload template must name the environment it is for ("environmentName"), a running one');
  const env = h.world.environments.require(envRef);
  if (env.status !== 'AVAILABLE')
    throw failedPrecondition(`environment ${env.environmentName} is ${env.status}; a cluster definition needs a running one`);
  const tRef = str(w.clusterTemplate) ?? str(w.clusterTemplateName);
  if (!tRef) throw invalid('the workload template must name its cluster template ("clusterTemplateName")');
  const template = requireTemplate(h, tRef);
  const groups = overrideGroups(template, docs(w.instanceGroups));
  return { env, template, groups };
}

/** The template a definition of the account builds, as its workload template names it. */
function workloadOf(rec: EngineRecord): Doc {
  try {
    const w: unknown = JSON.parse(String(rec.doc.workloadTemplate ?? '{}'));
    return typeof w === 'object' && w !== null && !Array.isArray(w) ? (w as Doc) : {};
  } catch {
    return {};
  }
}

const definitionTemplateName = (rec: EngineRecord): string => {
  const w = workloadOf(rec);
  return str(w.clusterTemplate) ?? str(w.clusterTemplateName) ?? '';
};

function definitionRef(h: DatahubHook, rec: EngineRecord): DefinitionRef {
  const name = definitionTemplateName(rec);
  const template = findTemplate(h, name);
  // Checked when the definition was made: its groups are its template's with those the workload overrides.
  const groups = template ? overrideGroups(template, docs(workloadOf(rec).instanceGroups)) : [];
  return {
    name: rec.name ?? '',
    crn: rec.crn ?? '',
    platform: String(rec.doc.cloudPlatform) as CloudPlatform,
    environmentCrn: str(rec.doc.environmentCrn),
    // A definition whose template was deleted since cannot build a cluster: its create says so.
    template: template ?? { name, crn: '', runtime: '', services: [], groups },
    groups,
  };
}

export function findDefinition(h: DatahubHook, ref: string): DefinitionRef | undefined {
  const own = h.records('clusterDefinition').find(ref, '');
  if (own) return definitionRef(h, own);
  const d = platform(h).definitions.find(named(ref));
  if (!d) return undefined;
  const template = templateRef(d.template.name, d.template.crn, d.template.content);
  return { name: d.name, crn: d.crn, platform: d.cloud.platform, gov: d.cloud.gov, template, groups: template.groups };
}

// ---- the account's records in use --------------------------------------------------

/** Refuses the delete of what clusters of the account still use. */
const refuseInUse = (what: 'template' | 'recipe' | 'customConfigurations', noun: string) => (h: DatahubHook, rec: EngineRecord) => {
  const clusters = clustersUsing(h, what, rec.name ?? '');
  if (clusters.length > 0)
    throw failedPrecondition(
      `${noun} ${rec.name} is used by cluster${clusters.length > 1 ? 's' : ''} ${clusters.join(', ')}; delete them first`,
    );
};

/** What clusters are built from, as resources of the operation table: what the model cannot say of each. */
export const blueprintResources = {
  clusterTemplate: {
    keys: ['clusterTemplateName'],
    noun: 'cluster template',
    builtIns: (h) => platform(h).templates,
    hooks: {
      check: {
        // Refused while clusters or definitions of the account use it.
        delete: (h, rec) => {
          refuseInUse('template', 'cluster template')(h, rec);
          const defs = h
            .records('clusterDefinition')
            .all('')
            .filter((d) => same(definitionTemplateName(d), rec.name ?? ''));
          if (defs.length > 0)
            throw failedPrecondition(
              `cluster template ${rec.name} is used by cluster definition ${defs.map((d) => d.name).join(', ')}; delete it first`,
            );
        },
      },
      fill: (_h, rec) => {
        const t = readTemplate(String(rec.doc.clusterTemplateContent ?? ''));
        return { status: 'USER_MANAGED', instanceGroupCount: t.groups.length, productVersion: t.runtime };
      },
    },
  },
  clusterDefinition: {
    keys: ['clusterDefinitionName'],
    noun: 'cluster definition',
    builtIns: (h) => platform(h).definitions,
    hooks: {
      fill: (h, rec) => {
        const d = readDefinition(h, String(rec.doc.workloadTemplate ?? ''));
        return {
          type: 'USER_MANAGED',
          cloudPlatform: d.env.cloudPlatform,
          environmentCrn: d.env.crn,
          productVersion: d.template.runtime,
          nodeCount: d.groups.reduce((n, x) => n + x.nodeCount, 0),
        };
      },
    },
  },
  recipe: {
    keys: ['recipeName'],
    hooks: {
      check: {
        delete: refuseInUse('recipe', 'recipe'),
        create: (_h, rec) => {
          const type = String(rec.doc.type ?? '');
          if (!RECIPE_TYPES.includes(type)) throw invalid(`recipe type ${type} is not one of ${RECIPE_TYPES.join(', ')}`);
          if (String(rec.doc.recipeContent ?? '').trim() === '') throw invalid('the recipe has no content');
        },
      },
    },
  },
  customConfigurations: {
    keys: ['customConfigurations', 'customConfigurationsName'],
    noun: 'custom configurations',
    hooks: {
      check: {
        delete: refuseInUse('customConfigurations', 'custom configurations'),
        create: (_h, rec) => {
          const runtime = str(rec.doc.runtimeVersion);
          if (runtime && !runtimeOf(runtime))
            throw invalid(`runtime ${runtime} is not available; available: ${RUNTIMES.map((r) => r.runtime).join(', ')}`);
          const props = docs(rec.doc.configurations);
          if (props.length === 0) throw invalid('give at least one configuration property');
          const seen = new Set<string>();
          for (const p of props) {
            const key = `${text(p.serviceType)}/${text(p.roleType)}/${text(p.configName)}`;
            if (seen.has(key)) throw invalid(`property ${text(p.configName)} of ${text(p.serviceType)} is given twice`);
            seen.add(key);
          }
        },
      },
      fill: (h) => ({ accountId: h.ctx.info.accountId }),
    },
  },
} as const satisfies { readonly [key in 'clusterTemplate' | 'clusterDefinition' | 'recipe' | 'customConfigurations']: Resource<R> };

/** A recipe or custom configurations of the account by name or CRN, or NOT_FOUND (`noun` and `list` in its message). */
export function requireOwn(h: DatahubHook, resource: 'recipe' | 'customConfigurations', ref: string): EngineRecord {
  const r = h.records(resource).find(ref, '');
  const [noun, list] = resource === 'recipe' ? ['recipe', 'recipes'] : ['custom configurations', 'custom-configurations'];
  if (!r) throw notFound(`${noun} ${ref.slice(0, 200)} not found; see \`datahub ${list} list\``);
  return r;
}
