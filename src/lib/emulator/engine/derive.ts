/**
 * What the engine derives from a service's model: for each resource its
 * record shape, the fields that hold its id, name, CRN, status and
 * environment, and its lifecycle; for each operation the verb it is on
 * which resource. Operation names carry most of it (`createVw`,
 * `describeVw`, `listVws`, `suspendVw`, `listVwEvents`), the response shapes
 * the rest (`describeVw` answers `{vw: VwSummary}`), and the model's
 * resource facts (model/services/<topic>/resources.ts) say what states each
 * action passes through and ends in; the emulator adds only how many
 * emulated minutes each takes. A service's spec (spec.ts) gives only what
 * the names cannot: which request fields name a resource, where it lives,
 * and what the data cannot say.
 */
import type { ActionFacts, FieldRoles, ResourceFacts } from '../../model/resources.js';
import type { Operation, Service } from '../../model/service.js';
import type { Field, Type } from '../../model/shapes.js';
import type { ActionSpec, Lifecycle } from '../lifecycle.js';
import type { Binding, EngineSpec, ResourceSpec, Verb } from './spec.js';

/** The roles of a record's fields, by name in its shape. */
export type RecordFields = FieldRoles;

export interface ResourceModel {
  /** Its key in the service's resources (`vw`). */
  readonly key: string;
  /** The wire service it belongs to. */
  readonly service: string;
  /** Its store kind: `dw.vw`. */
  readonly kind: string;
  readonly noun: string;
  readonly nouns: readonly string[];
  readonly spec: ResourceSpec;
  /** What the model's resource facts say of it, when it has facts. */
  readonly facts?: ResourceFacts;
  readonly shape: string;
  readonly fields: RecordFields;
  readonly lifecycle?: Lifecycle;
  /** The state a record without a create action is in (a resource that just is). */
  readonly initialState?: string;
  /** The store kind of its operation records. */
  readonly operationKind?: string;
  /** The resource type in its CRNs: `vw`. */
  readonly crnType: string;
  parent?: ResourceModel;
  readonly children: ResourceModel[];
}

export interface ServiceModel {
  readonly service: Service;
  readonly resources: ReadonlyMap<string, ResourceModel>;
  readonly bindings: ReadonlyMap<string, Binding>;
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
const low = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);

/** The plural of a noun as operation names write it (`Vws`, `Policies`, `Access`, `Statuses`). */
export function plural(noun: string): string[] {
  if (/(s|x|sh|ch)$/.test(noun)) return [`${noun}es`, noun];
  if (/[^aeiou]y$/.test(noun)) return [`${noun.slice(0, -1)}ies`, `${noun}s`];
  return [`${noun}s`];
}

/** Verb words that mean a standard verb. */
const VERB_WORDS: Readonly<Record<string, 'create' | 'read' | 'list' | 'delete' | 'update'>> = {
  create: 'create',
  add: 'create',
  register: 'create',
  import: 'create',
  describe: 'read',
  get: 'read',
  list: 'list',
  delete: 'delete',
  drop: 'delete',
  remove: 'delete',
  deregister: 'delete',
  update: 'update',
  modify: 'update',
  set: 'update',
  change: 'update',
  edit: 'update',
};

/** Derives the resources and bindings of a service from its model and spec. */
export function deriveService(service: Service, spec: EngineSpec): ServiceModel {
  const resources = new Map<string, ResourceModel>();
  const factsOf = (key: string): ResourceFacts | undefined => spec.facts?.resources[key];
  // A lifecycle is declared, or made of the model's facts and the emulated minutes the spec gives.
  const lifecycles = new Map<string, Lifecycle | undefined>(
    Object.entries(spec.resources).map(([key, rs]) => {
      const facts = factsOf(key);
      return [key, facts?.lifecycle ? lifecycleOf(facts, rs.minutes) : rs.lifecycle];
    }),
  );
  const placed = new Map<string, Binding>();
  const handWritten = new Set([...Object.keys(spec.handlers ?? {}), ...Object.keys(spec.plain ?? {})]);
  const served = service.operations().filter((op) => !op.composed && !handWritten.has(op.name));

  // Explicit bindings first: they also tell the derivation which operations are whose.
  for (const [key, rs] of Object.entries(spec.resources))
    for (const [opName, b] of Object.entries(rs.ops ?? {})) {
      if (!service.has(opName)) throw new Error(`${service.name} resource ${key}: no operation ${opName}`);
      placed.set(opName, isVerb(b) ? { resource: key, verb: b } : { resource: key, ...b });
    }

  // Name matching: the longest noun wins (`DbcConfig` before `Dbc`).
  const nounsOf = (key: string, rs: ResourceSpec): string[] => [...(rs.nouns ?? [cap(key)])];
  const candidates = Object.entries(spec.resources)
    .flatMap(([key, rs]) => nounsOf(key, rs).map((noun) => ({ key, rs, noun })))
    .sort((a, b) => b.noun.length - a.noun.length);
  for (const op of served) {
    if (placed.has(op.name)) continue;
    const m = /^([a-z]+)([A-Z]\w*)$/.exec(op.name);
    if (!m) continue;
    const [, word = '', rest = ''] = m;
    for (const { key, rs, noun } of candidates) {
      const verb = verbOf(word, rest, noun, rs, lifecycles.get(key));
      if (verb) {
        placed.set(op.name, { resource: key, verb });
        break;
      }
    }
  }

  for (const [key, rs] of Object.entries(spec.resources)) {
    const ops = [...placed.entries()].filter(([, b]) => b.resource === key).map(([name, b]) => ({ op: service.operation(name), b }));
    const facts = factsOf(key);
    const shape = facts?.shape ?? rs.shape ?? shapeFromOperations(service, ops);
    if (!shape) throw new Error(`${service.name} resource ${key}: no describe or list operation shows its shape; give it a shape`);
    const fields = fieldsOf(service, shape, key, rs, facts);
    const lifecycle = lifecycles.get(key);
    resources.set(key, {
      key,
      service: service.name,
      kind: `${service.name}.${key}`,
      noun: rs.noun ?? key,
      nouns: nounsOf(key, rs),
      spec: rs,
      ...(facts ? { facts } : {}),
      shape,
      fields,
      lifecycle,
      initialState: lifecycle ? initialStateOf(service, shape, fields, lifecycle) : undefined,
      operationKind: rs.operations ? `${service.name}.operation` : undefined,
      crnType: facts?.crnType ?? rs.crnType ?? key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
      children: [],
    });
  }
  for (const r of resources.values()) {
    const parentKey = r.spec.parent;
    if (!parentKey) continue;
    const parent = resources.get(parentKey);
    if (!parent) throw new Error(`${service.name} resource ${r.key}: no parent resource ${parentKey}`);
    r.parent = parent;
    parent.children.push(r);
  }
  return { service, resources, bindings: placed };
}

// A binding has a verb (and may name the action it starts); a verb alone is a word or `{ action }`.
const isVerb = (b: Verb | Omit<Binding, 'resource'>): b is Verb => typeof b === 'string' || !('verb' in b);

/** The verb an operation name's word and rest make on a noun, if they name it. */
function verbOf(word: string, rest: string, noun: string, rs: ResourceSpec, lc: Lifecycle | undefined): Verb | undefined {
  const std = rs.verbs?.[word] ?? VERB_WORDS[word];
  if (rest === `${noun}Events` && (word === 'list' || word === 'get' || word === 'describe')) return 'events';
  if (word === 'list' && (plural(noun).includes(rest) || rest === noun)) return 'list';
  if (rest !== noun) return undefined;
  if (std === 'list') return 'list';
  if (std) return std;
  if (lc?.[word]) return { action: word };
  return undefined;
}

/** The shape a resource's describe (or get, or list, or create) operation shows it in. */
function shapeFromOperations(service: Service, ops: ReadonlyArray<{ op: Operation; b: Binding }>): string | undefined {
  const order: ReadonlyArray<Verb> = ['read', 'list', 'create'];
  for (const verb of order)
    for (const { op, b } of ops) {
      // A computed answer shows something else than the resource.
      if (b.verb !== verb || b.answer) continue;
      const out = service.shapes.get(op.output);
      if (out.kind !== 'struct') continue;
      for (const f of out.fields) {
        const t = verb === 'list' ? (f.type.kind === 'list' ? f.type.of : undefined) : f.type;
        const s = t ? service.shapes.struct(t) : undefined;
        if (s && !/^(Error|Response)$/.test(s.name)) return s.name;
      }
    }
  return undefined;
}

function fieldsOf(service: Service, shape: string, key: string, rs: ResourceSpec, facts?: ResourceFacts): RecordFields {
  const s = service.shapes.get(shape);
  if (s.kind !== 'struct') throw new Error(`${service.name} resource ${key}: ${shape} is not a structure`);
  const has = (n: string): boolean => s.byName.has(n);
  const pick = (...names: string[]): string | undefined => names.find(has);
  const like = (re: RegExp): string | undefined => s.fields.find((f) => re.test(f.name))?.name;
  const k = low(key);
  return {
    id: pick('id', `${k}Id`, `${k}ID`),
    name: pick('name', `${k}Name`, 'displayName'),
    crn: pick('crn', `${k}Crn`, `${k}CRN`),
    status: rs.status ?? pick('status', `${k}Status`, 'state', `${k}State`),
    statusReason: pick('statusReason', 'statusMessage', 'failureReason', 'errorMessage'),
    environmentCrn: pick('environmentCrn', 'envCrn', 'environmentCRN'),
    environmentName: pick('environmentName', 'envName', 'environment'),
    created: like(/^(created|creationDate|creationTime|createdAt|creationTimestamp|createTime|createdDate|creationDateTime|created_at)$/i),
    creator: like(/^(creator|creatorCrn|createdBy|creatorName|ownerCrn)$/),
    ...rs.fields,
    ...facts?.fields,
  };
}

// ---- lifecycles from the model's facts ----------------------------------------------

/** Emulated minutes an action takes when the spec gives none. */
const DEFAULT_MINUTES: Readonly<Record<string, number>> = { create: 5, delete: 2 };
const OTHER_MINUTES = 3;

/**
 * A lifecycle from a resource's facts: each action's states in order, each
 * lasting its share of the action's emulated minutes (a number, spread
 * evenly; or one number per state), ending in its success or failure
 * state. A delete removes the record unless the facts keep it (`kept`).
 */
export function lifecycleOf(facts: ResourceFacts, minutes: ResourceSpec['minutes'] = {}): Lifecycle {
  const lc: Record<string, ActionSpec> = {};
  for (const [action, a] of Object.entries(facts.lifecycle ?? {}) as Array<[string, ActionFacts]>) {
    const given = minutes[action] ?? DEFAULT_MINUTES[action] ?? OTHER_MINUTES;
    const each = (i: number): number => (typeof given === 'number' ? given / a.through.length : (given[i] ?? 0));
    lc[action] = {
      phases: a.through.map((state, i) => [state, each(i)] as const),
      ...(a.success !== undefined ? { success: a.success } : {}),
      ...(a.failure !== undefined ? { failure: a.failure } : {}),
      ...(a.from ? { from: a.from } : {}),
      ...(a.operation ? { operation: a.operation } : {}),
      ...(action === 'delete' && facts.deleted?.ends !== 'kept' ? { removes: true } : {}),
    };
  }
  return lc;
}

const norm = (s: string): string => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** States that mean the resource is up. */
const UP = [
  'AVAILABLE',
  'RUNNING',
  'ACTIVE',
  'READY',
  'HEALTHY',
  'GOODHEALTH',
  'CREATED',
  'ENABLED',
  'INSTALLED',
  'SUCCEEDED',
  'SUCCESSFUL',
  'COMPLETED',
  'FINISHED',
  'UP',
];

/** The status values a resource's status field can take (its enum), or none. */
function statusValues(service: Service, shape: string, fields: RecordFields): readonly string[] {
  const s = service.shapes.get(shape);
  if (s.kind !== 'struct' || !fields.status) return [];
  const f: Field | undefined = s.byName.get(fields.status);
  const t: Type | undefined = f ? service.shapes.resolve(f.type) : undefined;
  return t?.enum ?? [];
}

function initialStateOf(service: Service, shape: string, fields: RecordFields, lc: Lifecycle): string | undefined {
  const create = lc.create;
  if (create?.success) return create.success;
  const values = statusValues(service, shape, fields);
  return values.find((v) => UP.includes(norm(v))) ?? values[0];
}
