/**
 * A Data Hub cluster's create, as its `fill`: the cluster is built in one of
 * the account's environments, of the create's cloud, from a cluster
 * definition and/or template (the built-in ones and the account's own), with
 * the request's instance groups over the template's, its recipes, custom
 * configurations, image and subnets checked; the engine names, places and
 * starts it (its `create` lifecycle).
 */
import type { EngineRecord } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import type { Doc } from '../../types.js';
import type { CloudPlatform } from '../../world/contracts.js';
import { bool, docs, num, obj, str, strings, text } from '../../values.js';
import { checkLake, DEFAULT_VOLUME, groupNamed, imageFor, instances } from './actions.js';
import { findDefinition, jsonObject, overrideGroups, requireOwn, requireTemplate, type TemplateRef } from './blueprints.js';
import { DEFAULT_CATALOG, DEFAULT_DB_VERSION, runtimeOf, VM_TYPES } from './catalogue.js';
import { asCluster, type ClusterDoc, type DatahubHook, type GroupRec } from './records.js';

/** The cloud each create is for. */
const CLOUD_OF: Readonly<Record<string, { platform: CloudPlatform; gov: boolean }>> = {
  createAWSCluster: { platform: 'AWS', gov: false },
  createAWSGovCloudCluster: { platform: 'AWS', gov: true },
  createAzureCluster: { platform: 'AZURE', gov: false },
  createGCPCluster: { platform: 'GCP', gov: false },
};

/** The older request template: a cluster request as JSON, whose fields the request's own override. */
export function withRequestTemplate(_h: DatahubHook, given: Doc): Doc {
  const template = str(given.requestTemplate);
  return template ? { ...jsonObject(template, 'requestTemplate', 'the cluster request as JSON'), ...given } : given;
}

const kind = (p: string, g: boolean): string => (g ? 'AWS GovCloud' : p);

/** What a new cluster is, beyond its name, CRN and environment: checked against its environment, definition and template. */
export function clusterMade(h: DatahubHook, rec: Readonly<EngineRecord>, req: Doc): Doc {
  const { platform, gov } = CLOUD_OF[h.ctx.op.name] ?? { platform: 'AWS', gov: false };
  const name = rec.name ?? '';
  // Cluster names are unique in the account, not only in their environment.
  if (h.records('cluster').find(name)) throw alreadyExists(`a Data Hub cluster named ${name} already exists`);
  const env = h.world.environments.require(rec.scope);
  const envGov = env.region.startsWith('us-gov-');
  if (env.cloudPlatform !== platform || envGov !== gov)
    throw invalid(
      `environment ${env.environmentName} is an ${kind(env.cloudPlatform, envGov)} environment; a ${kind(platform, gov)} cluster needs one of its own platform`,
    );
  if (env.status !== 'AVAILABLE')
    throw failedPrecondition(`environment ${env.environmentName} is ${env.status}; a Data Hub cluster needs it AVAILABLE`);
  const templateName = str(req.clusterTemplate) ?? str(req.clusterTemplateName);
  const definition = str(req.clusterDefinition) ?? str(req.clusterDefinitionName);
  if (!templateName && !definition)
    throw invalid(
      'say what to build: give --cluster-definition (with the template it names), or --cluster-template with --instance-groups',
    );
  const def = definition ? findDefinition(h, definition) : undefined;
  if (definition && !def)
    throw notFound(
      `cluster definition ${definition.slice(0, 200)} not found; \`datahub cluster-definitions list\` shows those a cluster can be created with`,
    );
  if (def) {
    if (def.platform !== platform || (def.gov !== undefined && def.gov !== gov))
      throw invalid(`cluster definition ${def.name} is for ${kind(def.platform, def.gov ?? false)}, not for ${kind(platform, gov)}`);
    if (def.environmentCrn && def.environmentCrn !== env.crn)
      throw invalid(
        `cluster definition ${def.name} is for environment ${h.world.environments.find(def.environmentCrn)?.environmentName ?? def.environmentCrn}, not ${env.environmentName}`,
      );
    if (!def.template.crn)
      throw failedPrecondition(`cluster template ${def.template.name} of cluster definition ${def.name} no longer exists`);
  }
  const template: TemplateRef = templateName ? requireTemplate(h, templateName) : (def?.template as TemplateRef);
  if (def && template.runtime !== def.template.runtime)
    throw invalid(
      `cluster template ${template.name} is for runtime ${template.runtime}; cluster definition ${def.name} is for ${def.template.runtime}`,
    );
  const groups = overrideGroups({ ...template, groups: def?.groups ?? template.groups }, docs(req.instanceGroups));
  for (const g of groups) g.recipes = g.recipes.map((r) => requireOwn(h, 'recipe', r).name ?? r);
  const customName = str(req.customConfigurationsName);
  const custom = customName ? requireOwn(h, 'customConfigurations', customName) : undefined;
  const customRuntime = str(custom?.doc.runtimeVersion);
  if (customRuntime && customRuntime !== template.runtime)
    throw invalid(`custom configurations ${custom?.name} are for runtime ${customRuntime}; the cluster runs ${template.runtime}`);
  checkLake(h, env.crn, template.runtime, 'a cluster of', (r) => `create the cluster from a ${r} cluster definition`);
  const asked = obj(req.image);
  const image = imageFor(template.runtime, { id: str(asked.id), catalogName: str(asked.catalogName) });
  const runtime = runtimeOf(template.runtime);
  const javaVersion = num(req.javaVersion);
  if (javaVersion !== undefined && !runtime?.java.includes(javaVersion))
    throw invalid(`runtime ${template.runtime} runs on Java ${runtime?.java.join(', ')}, not ${javaVersion}`);
  const subnetIds = [...strings(req.subnetIds), ...(str(req.subnetId) ? [text(req.subnetId)] : [])];
  for (const s of subnetIds)
    if (!env.network.subnetIds.includes(s))
      throw invalid(`subnet ${s} is not a subnet of environment ${env.environmentName}; it has ${env.network.subnetIds.join(', ')}`);
  const multiAz = bool(req.multiAz);
  const subnets = subnetIds.length > 0 ? subnetIds : multiAz ? env.network.subnetIds : env.network.subnetIds.slice(0, 1);
  const vm = VM_TYPES[platform];
  const made: GroupRec[] = groups.map((g) => ({
    name: g.name,
    type: g.type,
    instanceType: g.instanceType ?? (g.type === 'GATEWAY' ? vm.gateway : vm.core),
    nodeCount: g.nodeCount,
    recipes: g.recipes,
    instances: instances(env, subnets, name, g.name, 0, g.nodeCount),
    volumes: { ...DEFAULT_VOLUME[platform] },
  }));
  const credential = h.world.environments.credential(env.credentialName);
  const lake = h.world.lakes.of(env.crn);
  const database = str(req.datahubDatabase) ?? 'NON_HA';
  const doc: Omit<ClusterDoc, 'clusterName' | 'crn'> = {
    environmentCrn: env.crn,
    cloudPlatform: env.cloudPlatform,
    region: env.region,
    ...(lake ? { datalakeCrn: lake.crn } : {}),
    ...(credential ? { credentialCrn: credential.crn } : {}),
    clusterTemplateName: template.name,
    clusterTemplateCrn: template.crn,
    ...(def ? { clusterDefinitionName: def.name } : {}),
    workloadType: template.name,
    creationDate: h.ctx.clock.iso(),
    multiAz,
    groups: made,
    runtime: template.runtime,
    imageId: image.imageId,
    catalogName: str(asked.catalogName) ?? DEFAULT_CATALOG,
    services: [...template.services],
    database,
    ...(database !== 'NONE' ? { dbVersion: DEFAULT_DB_VERSION } : {}),
    javaVersion: javaVersion ?? runtime?.java[0] ?? 8,
    ...(platform === 'AWS' ? { imds: 'v2' } : {}),
    ...(platform === 'AZURE' ? { lbSku: str(req.loadBalancerSku) ?? 'BASIC' } : {}),
    loadBalancer: bool(req.enableLoadBalancer),
    ...(custom ? { customConfigurations: custom.name } : {}),
    tags: docs(req.tags).map((t) => ({ key: text(t.key), value: text(t.value) })),
    ...(template.services.includes('KAFKA') ? { kraft: 'ZOOKEEPER' as const } : {}),
    certIssuedAt: h.ctx.clock.now(),
  };
  // The request's instance groups are kept as the groups above, not as the wire's.
  return { ...doc, instanceGroups: undefined };
}

/** What changing a cluster's image catalog and its groups' recipes sets (the effects of its updates, by change). */
export const clusterChanges = {
  catalog: (_h: DatahubHook, _rec: Readonly<EngineRecord>, req: Doc): Doc => {
    const catalog = text(req.catalogName).trim();
    if (!catalog) throw invalid('give the name of the image catalog');
    return { catalogName: catalog };
  },
  // The groups' recipes as the request lists them, and what that attached and detached (the answer's).
  recipes: (h: DatahubHook, rec: Readonly<EngineRecord>, req: Doc): Doc => {
    const c = asCluster(rec);
    if (h.records('cluster').busy(c) && c.activity.action === 'delete')
      throw failedPrecondition(`cluster ${c.doc.clusterName} is being deleted`);
    const attachedRecipes: Doc[] = [];
    const detachedRecipes: Doc[] = [];
    const given = new Map<string, string[]>();
    for (const item of docs(req.instanceGroupRecipes)) {
      const name = text(item.instanceGroupName);
      const g = groupNamed(c, name);
      if (given.has(name)) throw invalid(`instance group ${name} is given twice`);
      const next = [...new Set(strings(item.recipeNames).map((r) => requireOwn(h, 'recipe', r).name ?? r))];
      given.set(name, next);
      const added = next.filter((r) => !g.recipes.includes(r));
      const removed = g.recipes.filter((r) => !next.includes(r));
      if (added.length > 0) attachedRecipes.push({ instanceGroupName: name, recipeNames: added });
      if (removed.length > 0) detachedRecipes.push({ instanceGroupName: name, recipeNames: removed });
    }
    const groups = c.doc.groups.map((g) => ({ ...g, recipes: given.get(g.name) ?? g.recipes }));
    return { groups, recipesReplaced: { attachedRecipes, detachedRecipes } };
  },
};
