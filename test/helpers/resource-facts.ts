/**
 * Issue 28's cross-cutting tests read every service's resource facts
 * (src/lib/model/services/<topic>/resources.ts) and drive them against an
 * emulator through the library's client (signed HTTP). This finds the facts,
 * the operations that create, describe, list, delete and act on each
 * resource (the engine's declarations where the service has them, else the
 * model's names and shapes), and drives a resource the way a script that
 * knows only the model would: every create of its service run as the
 * every-operation harness runs them (plausible requests, values the
 * emulator answered used again), then the resource found by the same means.
 */
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Engine } from '../../src/lib/emulator/engine/index.js';
import type { Doc } from '../../src/lib/emulator/types.js';
import { loadServiceModule } from '../../src/lib/emulator/services/index.js';
import { loadAllServices, type Service } from '../../src/lib/model/index.js';
import type { ResourceFacts, ServiceResources } from '../../src/lib/model/resources.js';
import { ServiceError, type CdpClient } from '../../src/lib/sdk/index.js';
import type { RunningEmulator } from '../../src/lib/sdk/emulator.js';
import { placeIn, resourceOperations as operationsOf, type ResourceOperations } from '../../scripts/resource-operations.mjs';

export type { ResourceOperations };
import { ROOT } from './cli.js';
import { plausibleRequest, ValuePool } from './every-operation.js';

/** A service's facts, with its model and (where it has one) its engine. */
export interface FactsOfService {
  readonly svc: Service;
  readonly resources: Readonly<Record<string, ResourceFacts>>;
  readonly engine?: Engine;
}

/** One resource of a service with facts. */
export interface FactsOfResource {
  readonly of: FactsOfService;
  readonly key: string;
  readonly facts: ResourceFacts;
  /** `opdb database`. */
  readonly id: string;
}

const FACTS_DIR = join(ROOT, 'src', 'lib', 'model', 'services');

/** Every service, split into those with resource facts and those without yet. */
export async function loadFacts(): Promise<{ have: FactsOfService[]; lack: Service[]; all: Service[] }> {
  const all = await loadAllServices();
  const topics = new Set(readdirSync(FACTS_DIR).filter((t) => existsSync(join(FACTS_DIR, t, 'resources.ts'))));
  const have: FactsOfService[] = [];
  for (const svc of all.filter((s) => topics.has(s.topic))) {
    const mod = (await import(`../../src/lib/model/services/${svc.topic}/resources.js`)) as { resources: ServiceResources };
    have.push({ svc, resources: mod.resources.resources, engine: Engine.of(svc, await loadServiceModule(svc.topic)) });
  }
  return { have, lack: all.filter((s) => !topics.has(s.topic)), all };
}

export const resourcesOf = (have: readonly FactsOfService[]): FactsOfResource[] =>
  have.flatMap((of) => Object.entries(of.resources).map(([key, facts]) => ({ of, key, facts, id: `${of.svc.name} ${key}` })));

/** A resource with its operations. */
export type ResourceCase = FactsOfResource & { readonly ops: ResourceOperations };

/**
 * The resources of every service with facts that a test wants, with their
 * operations: those a describe or list shows (`cases`), and the rest
 * (`unseen`: nothing shows them, or the harness cannot make them: CANNOT);
 * and the model's services.
 */
export async function casesOf(
  wanted: (c: ResourceCase) => boolean,
): Promise<{ cases: ResourceCase[]; unseen: ResourceCase[]; lack: Service[]; all: Service[] }> {
  const { have, lack, all } = await loadFacts();
  const withOps = resourcesOf(have)
    .map((r) => ({ ...r, ops: resourceOperations(r) }))
    .filter(wanted);
  const cases = withOps.filter((c) => (c.ops.describe !== undefined || c.ops.list !== undefined) && CANNOT[c.id] === undefined);
  return { cases, unseen: withOps.filter((c) => !cases.includes(c)), lack, all };
}

/** The operations of a resource (scripts/resource-operations.mjs: the docs' deletion table names the same). */
export const resourceOperations = (r: FactsOfResource): ResourceOperations => operationsOf(r.of.svc, r.of.engine, r.key, r.facts);

/** The field a resource's status is in (the facts' role, else the usual names). */
export function statusFieldOf(r: FactsOfResource): string | undefined {
  const shape = r.of.svc.shapes.struct({ kind: 'ref', ref: r.facts.shape });
  return r.facts.fields?.status ?? ['status', `${r.key}Status`, 'state', `${r.key}State`].find((f) => shape?.byName.has(f));
}

/** The fields that tell one record from another, most telling first. */
function identityFields(r: FactsOfResource): string[] {
  const k = r.key;
  const roles = r.facts.fields ?? {};
  return [
    ...[roles.crn, roles.id, roles.name].filter((f): f is string => f !== undefined),
    'crn',
    `${k}Crn`,
    'id',
    `${k}Id`,
    `${k}Name`,
    'name',
  ];
}

/** Whether a list item is the record: a field that names it has the same value in both. */
export function sameRecord(r: FactsOfResource, record: Doc, item: Doc): boolean {
  // Its own names first; where it has none of them, any id or CRN it shows (a diagnostic job's jobId).
  const own = identityFields(r).filter((f) => record[f] !== undefined);
  const fields = own.length > 0 ? own : Object.keys(record).filter((f) => /(Id|Crn)$/.test(f));
  return fields.some(
    (f) => (typeof record[f] === 'number' || (typeof record[f] === 'string' && record[f] !== '')) && item[f] === record[f],
  );
}

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a call ended in: the answer, or the error's code. */
export type Outcome = { readonly request: Doc } & (
  { readonly ok: true; readonly answer: Doc } | { readonly ok: false; readonly code: string; readonly message: string }
);

/**
 * Drives one service of an emulator through the library's client, with the
 * every-operation harness's plausible requests: the values its answers gave
 * fill later requests.
 */
export class Driver {
  readonly pool = new ValuePool();

  constructor(
    readonly emu: RunningEmulator,
    readonly client: CdpClient,
    readonly svc: Service,
    /** The environment requests name: the harness's, or one the resource is (environments' environment). */
    public env: { readonly name: string; readonly crn: string },
  ) {}

  /** Calls an operation of this service (or another's) with a plausible request, and more fields of the caller's. */
  async call(operation: string, extra: Doc = {}, svc: Service = this.svc): Promise<Outcome> {
    const op = svc.operation(operation);
    const request: Doc = { ...plausibleRequest(svc, op, this.pool, this.env), ...extra };
    for (const f of svc.requestFields(op)) {
      if (f.name in extra) continue;
      const seen = this.pool.get(f.name);
      // An id answered as a number and asked for as a string (replicationmanager's commandId) is the same id.
      if (typeof seen === 'number' && f.name in request && svc.shapes.resolve(f.type).kind === 'string') request[f.name] = String(seen);
      // A field named after a thing the emulator answered with (iam's `user`, with userId seen) names one of those,
      // not the example's (`jdoe`).
      else if (typeof request[f.name] === 'string' && !this.pool.has(f.name)) {
        const named = ['Crn', 'Id'].map((x) => this.pool.get(`${f.name}${x}`)).find((v) => typeof v === 'string');
        if (named !== undefined) request[f.name] = named;
      }
    }
    return this.send(svc, operation, request);
  }

  /** Calls an operation with this request as it is. */
  async send(svc: Service, operation: string, request: Doc): Promise<Outcome> {
    try {
      const answer = await this.client.call(svc.name, operation, request);
      this.pool.collect(answer);
      this.pool.collect(request);
      return { request, ok: true, answer };
    } catch (err) {
      if (err instanceof ServiceError) return { request, ok: false, code: err.code, message: err.message };
      return { request, ok: false, code: (err as { code?: string }).code ?? 'CLIENT', message: (err as Error).message };
    }
  }

  /** Runs every create of the service three times, three hours apart on the clock (what one needs, another made first). */
  async createAll(world: ReadonlyArray<{ svc: Service; operation: string }> = [], skip?: string): Promise<void> {
    // The resource's other creates too (createAwsCluster beside createCluster): one may be all an environment can have.
    const noun = skip?.replace(/^(create|add|register|set|put)(AWS|Aws|Azure|GCP|Gcp|Private)?/, '');
    const same = noun ? new RegExp(`^(create|add|register)(AWS|Aws|Azure|GCP|Gcp|Private)?${noun}$`) : undefined;
    for (const w of world) await this.call(w.operation, {}, w.svc);
    if (world.length > 0) this.emu.clock.advance('3h');
    const creates = this.svc
      .operations()
      .filter(
        (op) =>
          op.name !== skip &&
          !(same?.test(op.name) ?? false) &&
          !op.composed &&
          !op.cli.upload &&
          /^(create|add|register|import|enable|put|set|collect|generate)/.test(op.name),
      )
      .map((op) => op.name)
      .sort();
    // Its lists after each round, as a script reads what it made: their ids and CRNs fill later requests.
    const lists = this.svc
      .operations()
      .filter((op) => !op.composed && !op.mutating && op.name.startsWith('list'))
      .map((op) => op.name);
    // Three rounds: a cluster, then its catalog, then a warehouse in it (Data Warehouse) each wait for the one before.
    for (let round = 0; round < 3; round++) {
      // With the recipes a script follows where the model's examples name what this emulator has not (its subnets).
      for (const op of creates) await this.call(op, (await RECIPES[`${this.svc.name} ${op}`]?.(this)) ?? {});
      this.emu.clock.advance('3h');
      for (const op of lists) await this.call(op);
    }
  }
}

/** The records a list answer shows. */
function recordsIn(r: FactsOfResource, operation: string, answer: Doc): Doc[] {
  const { svc } = r.of;
  const listed = placeIn(svc, operation, r.facts.shape, true) ?? Object.keys(answer).find((k) => Array.isArray(answer[k]));
  const items = (listed ? answer[listed] : undefined) as unknown;
  const docs = Array.isArray(items) ? items.filter(isObject) : [];
  // Items of another shape that hold the resource (listTestSessions: flow drafts, each with its runtimeSession).
  const out = svc.shapes.struct({ kind: 'ref', ref: svc.operation(operation).output });
  const of = out?.byName.get(listed ?? '')?.type;
  const item = of?.kind === 'list' && of.of ? svc.shapes.struct(of.of) : undefined;
  const inner =
    item && item.name !== r.facts.shape ? item.fields.find((f) => f.type.kind === 'ref' && f.type.ref === r.facts.shape) : undefined;
  return inner ? docs.map((d) => d[inner.name]).filter(isObject) : docs;
}

/** The resource a describe (or list) answer shows: the record, or, from a list, the item the pool names. */
export function recordIn(r: FactsOfResource, operation: string, answer: Doc, like?: Doc): Doc | undefined {
  const { svc } = r.of;
  const place = placeIn(svc, operation, r.facts.shape);
  if (place !== undefined) {
    const v = place === '' ? answer : answer[place];
    return isObject(v) ? v : undefined;
  }
  const docs = recordsIn(r, operation, answer);
  return like ? docs.find((d) => sameRecord(r, like, d)) : docs[docs.length - 1];
}

/** A status as one word: the value itself, or the state inside it (`{state: 'GOOD_HEALTH'}`). */
export function statusWord(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isObject(v)) return statusWord(v.state ?? v.status);
  return undefined;
}

/** The values of a record that name it, by the field names a request may give them under. */
function namesOf(r: FactsOfResource, record: Doc): Map<RegExp, unknown> {
  const k = r.key;
  const roles = r.facts.fields ?? {};
  const first = (...fields: Array<string | undefined>): unknown =>
    fields.map((f) => (f ? record[f] : undefined)).find((v) => typeof v === 'string' || typeof v === 'number');
  const crn = first(roles.crn, 'crn', `${k}Crn`);
  const id = first(roles.id, 'id', `${k}Id`);
  const name = first(roles.name, `${k}Name`, 'name');
  const revision = first(`${k}Revision`, 'revision');
  return new Map<RegExp, unknown>([
    [new RegExp(`^(${k}Crn|crn|\\w*OrCrn|crnOr\\w*|resourceCrn)$`), crn ?? id ?? name],
    [new RegExp(`^${k}Revision$`), revision],
    [new RegExp(`^(${k}Id|id|${k}IdOr\\w+)$`), id ?? crn],
    // A bulk delete names it among others (datahub's recipeNames).
    [new RegExp(`^(${k}Name|name|${k}|${k}NameOr\\w+|${k}Names)$`), name ?? crn],
  ]);
}

/**
 * The fields of an operation's request that name the record, from the
 * record itself: those of the same name in it, and its own CRN, id and name
 * under the names requests give them (`workspaceCrn`, `accessTokenIdOrCrn`).
 */
export function identify(r: FactsOfResource, operation: string, record: Doc, namesOnly = false): Doc {
  const { svc } = r.of;
  const names = namesOf(r, record);
  const out: Doc = {};
  for (const f of svc.requestFields(svc.operation(operation))) {
    // A deprecated field (ml's id beside modelRegistryCrn) is left to the filler; a list's filters other than names
    // (a status) are not the record's to set.
    if (f.deprecated || (namesOnly && !/(Id|Name|Crn|ID|CRN)s?$|^(id|name|crn)$/.test(f.name))) continue;
    const same = record[f.name];
    let v: unknown = (typeof same === 'string' && same !== '') || typeof same === 'number' ? same : undefined;
    // Its own names: a field that names another thing (envNameOrCrn, identityProviderNameOrCrn) is not one of them;
    // one that names a thing its key names is (accessTokenIdOrCrn of a scimAccessToken).
    const thing = /^(\w+?)(Id|Name)?OrCrn$/.exec(f.name)?.[1]?.toLowerCase();
    const other =
      thing !== undefined && !['id', 'name', 'resource', 'resourcename'].includes(thing) && !r.key.toLowerCase().includes(thing);
    for (const [pattern, named] of names)
      if (v === undefined && named !== undefined && pattern.test(f.name) && !other && !/^env/i.test(f.name)) v = named;
    // As the request types it: an id shown as a number is asked for as a string (and the other way round).
    const type = svc.shapes.resolve(f.type);
    const kind = type.kind;
    // A list of names (datahub's customConfigurations) names it as its one item.
    const item = (x: unknown): unknown => (kind === 'string' ? String(x) : /^int/.test(kind) && typeof x === 'string' ? Number(x) : x);
    if (v !== undefined) out[f.name] = kind === 'list' ? [v] : item(v);
  }
  return out;
}

/** An OpenSSH public key, made for the request that needs one. */
function sshPublicKey(): string {
  const raw = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const part = (b: Buffer): Buffer => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([part(Buffer.from('ssh-ed25519')), part(raw)]).toString('base64')}`;
}

/** A Data Hub cluster, by name, as Replication Manager knows it: its CRN. */
async function replicationCluster(d: Driver, name: string): Promise<string> {
  const listed = await d.send(d.svc, 'listClusters', {});
  const clusters = (listed.ok ? listed.answer.clusters : []) as Array<{ name?: string; crn?: string }>;
  return clusters.find((c) => c.name === name)?.crn ?? '';
}

/** A Data Hub template and definition for AWS every account has. */
const BUILT_IN_TEMPLATE = '7.2.18 - Data Engineering: Apache Spark3, Apache Hive, Apache Oozie';
const BUILT_IN_DEFINITION = '7.2.18 - Data Engineering for AWS';

/**
 * What a script does first where the model's plausible requests cannot make
 * a resource, and the fields it sends: by `<service> <create operation>`.
 * Replication Manager's policies name their clusters inside their
 * definition (`<data center>$<cluster>`), and a diagnostic bundle a policy.
 */
const RECIPES: Readonly<Record<string, (d: Driver) => Promise<Doc>>> = {
  'replicationmanager createPolicy': async (d) => {
    // A policy that copies to cloud storage runs on its source cluster: the harness's Data Hub.
    const clusterCrn = await replicationCluster(d, 'sales-etl');
    // An HDFS path copied to cloud storage daily, named as the policy (its definition's name is the policy's).
    const policyName = 'made-policy';
    const policyDefinition = {
      name: policyName,
      type: 'FS',
      sourceDataset: { hdfsArguments: { path: '/data/sales' } },
      frequencyInSec: 86400,
      targetDataset: 's3a://dr-sales/data/sales',
      cloudCredential: 'dr-aws-keys',
      sourceCluster: `${d.env.name}$sales-etl`,
    };
    return { clusterCrn, policyName, policyDefinition };
  },
  // The world's own Data Hub request: a template and definition for AWS (the pool's may be another cloud's).
  'datahub createAWSCluster': async () => ({ clusterTemplate: BUILT_IN_TEMPLATE, clusterDefinition: BUILT_IN_DEFINITION }),
  // A template's content and a definition's workload template are JSON a script copies from a built-in one
  // (their examples name files).
  'datahub createClusterTemplate': async (d) => {
    const t = await d.send(d.svc, 'describeClusterTemplate', { clusterTemplateName: BUILT_IN_TEMPLATE });
    const content = t.ok ? (t.answer.clusterTemplate as Doc | undefined)?.clusterTemplateContent : undefined;
    return typeof content === 'string' ? { clusterTemplateContent: content } : {};
  },
  'datahub createClusterDefinition': async (d) => {
    const t = await d.send(d.svc, 'describeClusterDefinition', { clusterDefinitionName: BUILT_IN_DEFINITION });
    const workload = t.ok ? (t.answer.clusterDefinition as Doc | undefined)?.workloadTemplate : undefined;
    // For the harness's environment: a definition names the one it is for.
    return typeof workload === 'string'
      ? { workloadTemplate: JSON.stringify({ ...(JSON.parse(workload) as Doc), environmentName: d.env.name }) }
      : {};
  },
  // A Data Warehouse cluster on the subnets of its environment (its example's are made up).
  'dw createCluster': async (d) => ({
    awsOptions: { workerSubnetIds: [`${d.env.name}-subnet-a`, `${d.env.name}-subnet-b`], lbSubnetIds: [`${d.env.name}-subnet-c`] },
  }),
  'dw createAwsCluster': async (d) => ({
    workerSubnetIds: [`${d.env.name}-subnet-a`, `${d.env.name}-subnet-b`],
    lbSubnetIds: [`${d.env.name}-subnet-c`],
  }),
  // A connector's template is the kind of data source it reaches; its example's is an id.
  'dw createConnector': async () => ({ template: 'postgresql' }),
  // A policy of the lakehouse optimizer belongs to a Data Hub it is enabled on (its environments list says which).
  'lakehouseopt createPolicy': async (d) => {
    const envs = await d.send(d.svc, 'listEnvironments', {});
    const on = ((envs.ok ? envs.answer.environments : []) as Doc[]).find((e) => e.isCloEnabled === true);
    return typeof on?.datahubCrn === 'string' ? { datahubCrn: on.datahubCrn } : {};
  },
  // Its example's source is a FreeIPA image: a Runtime image customises the default catalog's Runtime image.
  'imagecatalog setRuntimeImage': async (d) => {
    const found = await d.send(d.svc, 'findDefaultImage', { provider: 'AWS', imageType: 'RUNTIME' });
    return found.ok && typeof found.answer.imageId === 'string' ? { sourceImageId: found.answer.imageId } : {};
  },
  // Its `user` is a user's id or CRN; its example's is a name.
  'iam createUserAccessKey': async (d) => {
    const user = d.pool.get('userId');
    return typeof user === 'string' ? { user } : {};
  },
  // Its example names a file (file://~/.ssh/id_ed25519.pub), which only the CLI reads.
  'iam addSshPublicKey': async () => ({ publicKey: sshPublicKey() }),
  // A new environment of its own, with the credential the harness's uses (it is the resource: requests name it after).
  'environments createAWSEnvironment': async (d) => {
    const env = await d.send(d.svc, 'describeEnvironment', { environmentName: d.env.name });
    const credentialName = env.ok ? (env.answer.environment as Doc).credentialName : undefined;
    return { environmentName: 'made-env', ...(typeof credentialName === 'string' ? { credentialName } : {}) };
  },
  'replicationmanager collectDiagnosticBundle': async (d) => {
    // A policy of its own (the policy resource's name, made-policy, stays free for that resource's create).
    const base: Doc = (await RECIPES['replicationmanager createPolicy']?.(d)) ?? {};
    const definition = { ...(base.policyDefinition as Doc), name: 'bundle-policy' };
    const policy = await d.call('createPolicy', { ...base, policyName: 'bundle-policy', policyDefinition: definition });
    d.emu.clock.advance('10m');
    return policy.ok ? { clusterCrn: policy.request.clusterCrn, policyName: policy.request.policyName } : {};
  },
};

/**
 * Resources the harness cannot make through signed HTTP, with why: a test
 * lists them (todo) rather than fails on them. Each is a resource of a
 * branch's facts the harness was tried on.
 */
export const CANNOT: Readonly<Record<string, string>> = {
  'audit task': 'archiving needs an environments credential of a kind the harness does not make (configureArchiving)',
  'audit run': 'a run is made by archiving, which needs configureArchiving',
  'cloudprivatelinks endpoint':
    "the work on a network's endpoints is read by the tracking id each change answers (a delete's is its own), and its items name no endpoint",
  'df flow': 'a flow definition is imported from a file (importFlowDefinition uploads one)',
  'df flowVersionTag': 'a tag names a flow version, which needs an imported flow',
  'dfworkload reportingTask': 'createReportingTask reads its definition from a file (--file-path)',
  'lakehouseopt task': "a task is made by a policy's run on the optimizer's Data Hub, which the harness does not schedule",
};

/** Fields a script gives a delete beyond the record's names, by `<service> <delete operation>`. */
export const DELETE_FIELDS: Readonly<Record<string, Doc>> = {
  // A policy is deleted from the scope it was created for: every table of the catalog, by default.
  'lakehouseopt deletePolicy': { resourceScope: 'spark_catalog.*' },
};

/** What a resource looks like to a client polling it: its status, `NOT_FOUND`, or another code. */
export interface Look {
  readonly state: string;
  readonly record?: Doc;
}

/** A resource made in an emulator of its own, and the requests that describe and list it. */
export interface MadeResource {
  readonly emu: RunningEmulator;
  readonly driver: Driver;
  readonly ops: ResourceOperations;
  /** The resource as first found. */
  readonly record: Doc;
  /** The states its create went through, polled from the moment it was asked for (where the harness asked for it). */
  readonly createSeen?: readonly string[];
  /** The lifecycle's action that made it (`create`, or one whose operation makes a record: `restore`). */
  readonly createdBy?: string;
  /** The create the harness asked for, and its answer. */
  readonly created?: Outcome;
  /** Its describe's request (or its list's, where it has no describe). */
  readonly describeRequest: Doc;
  readonly listRequest?: Doc;
  /** What describe shows now (where it has no describe: the list). */
  look(): Promise<Look>;
  /** Whether a list shows it (with more fields: a flag), and as what. */
  listed(extra?: Doc): Promise<Look>;
  stop(): Promise<void>;
}

/** The services whose resources other services' operations refer to: made in the environment first. */
export const WORLD: ReadonlyArray<{ service: string; operation: string }> = [
  { service: 'datalake', operation: 'createAWSDatalake' },
  { service: 'datahub', operation: 'createAWSCluster' },
];

/**
 * Starts an emulator (paused clock), runs every create of the resource's
 * service, finds the resource by its describe (else its list) and waits on
 * the clock until it is ready (its create's success state). Throws, saying
 * what it could not do, when the resource cannot be made or found.
 */
export async function makeResource(
  r: FactsOfResource,
  all: readonly Service[],
  startEmulator: (o: { paused: boolean }) => Promise<RunningEmulator>,
): Promise<MadeResource> {
  const ops = resourceOperations(r);
  const emu = await startEmulator({ paused: true });
  try {
    // A service only a private cloud has (drscp) is called as one.
    const formFactors = r.of.svc.def.facts.formFactors;
    const client = emu.createClient({ maxAttempts: 1, formFactor: formFactors.includes('public') ? 'public' : 'private' });
    const env = ((await client.call('environments', 'describeEnvironment', { environmentName: 'sales-env' })) as { environment: Doc })
      .environment;
    const driver = new Driver(emu, client, r.of.svc, { name: String(env.environmentName), crn: String(env.crn) });
    const world = WORLD.filter((w) => w.service !== r.of.svc.name).flatMap((w) => {
      const svc = all.find((s) => s.name === w.service);
      return svc ? [{ svc, operation: w.operation }] : [];
    });
    // Everything else of the service first (what the resource needs), then the resource itself, to watch its create.
    await driver.createAll(world, ops.create);
    const recipe = ops.create ? RECIPES[`${r.of.svc.name} ${ops.create}`] : undefined;
    // A name of its own: the pool's (what else the service made) would name another record, or one of another kind.
    const ownName = ops.create
      ? Object.fromEntries(
          r.of.svc
            .requestFields(r.of.svc.operation(ops.create))
            .filter((f) => [`${r.key}Name`, r.facts.fields?.name].includes(f.name))
            .map((f) => [f.name, `made-${r.key.toLowerCase()}`.slice(0, 20)]),
        )
      : {};
    let created = ops.create ? await driver.call(ops.create, { ...ownName, ...(recipe ? await recipe(driver) : {}) }) : undefined;
    // An example's made-up target (`targetDatabaseName: orders-copy`) names one the emulator has: the same as the source's.
    if (ops.create && created && !created.ok && created.code === 'NOT_FOUND') {
      const targets = Object.entries(created.request).flatMap(([k, v]) => {
        const m = /^(target|source)([A-Z]\w*)$/.exec(k);
        const source = m?.[2] ? m[2].charAt(0).toLowerCase() + m[2].slice(1) : '';
        const same = source ? (created?.request[source] ?? driver.pool.get(source)) : undefined;
        return typeof v === 'string' && same !== undefined ? [[k, same] as const] : [];
      });
      if (targets.length > 0) created = await driver.call(ops.create, Object.fromEntries(targets));
    }
    if (created && !created.ok)
      throw new Error(`${r.id}: ${ops.create} ${JSON.stringify(created.request)}: ${created.code} ${created.message}`);
    // A new environment is the one the resource's requests name from now on.
    const made0 = created?.ok ? created.answer.environment : undefined;
    if (r.of.svc.name === 'environments' && isObject(made0) && typeof made0.crn === 'string')
      driver.env = { name: String(made0.environmentName), crn: made0.crn };
    let reader = ops.describe ?? ops.list;
    if (!reader) throw new Error(`${r.id}: no describe or list operation found for shape ${r.facts.shape}`);
    // What the create named it, and what it answered: the record is the one they name.
    // (As strings: an id answered as a number, backupID 1, is asked for by either.)
    const asked: unknown[] = created
      ? [...Object.values(created.request), ...(created.ok ? Object.values(created.answer) : [])]
          .filter((v) => typeof v === 'string' || typeof v === 'number')
          .map(String)
      : [];
    const names = (d: Doc): string[] => [...namesOf(r, d).values()].filter((v) => v !== undefined).map(String);
    const named = (items: Doc[]): Doc | undefined => items.find((i) => names(i).some((v) => asked.includes(v))) ?? items[items.length - 1];
    // What names it so far: its own name, and what its create answered (a list filtered by name is filtered by that).
    const hint: Doc = {
      ...ownName,
      ...(created?.ok ? (recordIn(r, ops.create ?? '', created.answer) ?? created.answer) : {}),
    };
    let first = await driver.call(reader, identify(r, reader, hint, reader === ops.list));
    const own = (d: Doc | undefined): Doc | undefined =>
      d && (asked.length === 0 || names(d).length === 0 || names(d).some((v) => asked.includes(v))) ? d : undefined;
    // A describe that found another record (the pool's newest of its kind) did not find this one.
    let record = first.ok
      ? reader === ops.list
        ? named(recordsIn(r, reader, first.answer))
        : own(recordIn(r, reader, first.answer))
      : undefined;
    // A describe that could not name it (the create answered no CRN): found in the list by what the create named it,
    // then described by what the list shows of it; else the list is how it is seen.
    if (!record && ops.list) {
      const listing = await driver.call(ops.list, identify(r, ops.list, hint, true));
      const found = named(listing.ok ? recordsIn(r, ops.list, listing.answer) : []);
      if (found && ops.describe) {
        const again = await driver.call(ops.describe, identify(r, ops.describe, found));
        const described = again.ok ? own(recordIn(r, ops.describe, again.answer)) : undefined;
        if (described) [first, record] = [again, described];
      }
      if (!record && found) [reader, first, record] = [ops.list, listing, found];
    }
    if (!record)
      throw new Error(
        `${r.id}: ${reader} ${JSON.stringify(first.request)} found none: ${first.ok ? 'no record' : `${first.code} ${first.message}`}`,
      );
    const listed0 = ops.list
      ? ops.list === reader
        ? first.request
        : (await driver.call(ops.list, identify(r, ops.list, record, true))).request
      : undefined;
    // The list as plain as it comes: without the flag that shows or hides deleted records (an example may set it).
    const flagOf = (d: ResourceFacts['deleted']): string | undefined =>
      d?.ends === 'kept' && d.listed ? ('hiddenWhen' in d.listed ? d.listed.hiddenWhen : d.listed.shownWhen) : undefined;
    const flag = flagOf(r.facts.deleted);
    const listRequest = listed0 && flag ? Object.fromEntries(Object.entries(listed0).filter(([k]) => k !== flag)) : listed0;
    const status = statusFieldOf(r);
    const look = async (): Promise<Look> => {
      // Without a describe, the list that shows deleted records too.
      const shown = r.facts.deleted?.ends === 'kept' && r.facts.deleted.listed && 'shownWhen' in r.facts.deleted.listed;
      const request = reader === ops.list && listRequest ? { ...listRequest, ...(shown && flag ? { [flag]: true } : {}) } : first.request;
      const o = await driver.send(r.of.svc, reader, request);
      if (!o.ok) return { state: reader === ops.list && o.code === 'NOT_FOUND' ? 'NOT_FOUND' : o.code };
      const now = recordIn(r, reader, o.answer, record);
      if (!now) return { state: 'NOT_FOUND' };
      return { state: (status ? statusWord(now[status]) : undefined) ?? 'FOUND', record: now };
    };
    const listed = async (extra: Doc = {}): Promise<Look> => {
      if (!ops.list || !listRequest) return { state: 'NO_LIST' };
      const o = await driver.send(r.of.svc, ops.list, { ...listRequest, ...extra });
      // A list asked for it by name (listGroups' groupNames) answers NOT_FOUND once it is gone.
      if (!o.ok) return { state: o.code === 'NOT_FOUND' ? 'ABSENT' : o.code };
      const item = recordIn(r, ops.list, o.answer, record);
      if (!item) return { state: 'ABSENT' };
      return { state: (status ? statusWord(item[status]) : undefined) ?? 'LISTED', record: item };
    };
    const made = { emu, driver, ops, record, describeRequest: first.request, listRequest, look, listed, stop: () => emu.stop() };
    // The action that made it: its create, or the action whose operation made it (drscp's restore, made by restoreBackup).
    const createdBy = r.facts.lifecycle?.create
      ? 'create'
      : Object.keys(r.facts.lifecycle ?? {}).find((a) => ops.actions[a] !== undefined && ops.actions[a] === ops.create);
    const create = createdBy ? r.facts.lifecycle?.[createdBy] : undefined;
    const createSeen = create && created ? await pollUntil(made, (s) => s === create.success || s === create.failure) : undefined;
    return { ...made, createSeen, createdBy, created };
  } catch (err) {
    await emu.stop();
    throw err;
  }
}

/**
 * Polls a resource on the emulator's clock, as automation's describe loop
 * does (every 15 seconds for an hour, then every minute, then every quarter
 * of an hour after six hours), until `done` says so or a day has passed:
 * the states seen, each once, in the order seen.
 */
export async function pollUntil(made: MadeResource, done: (state: string) => boolean): Promise<string[]> {
  const seen: string[] = [];
  const MIN = 60_000;
  for (let elapsed = 0; elapsed <= 24 * 60 * MIN;) {
    const { state } = await made.look();
    if (seen[seen.length - 1] !== state) seen.push(state);
    if (done(state)) break;
    const step = elapsed < 60 * MIN ? 15_000 : elapsed < 360 * MIN ? MIN : 15 * MIN;
    made.emu.clock.advance(step);
    elapsed += step;
  }
  return seen;
}
