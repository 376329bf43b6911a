/**
 * What the engine derives from a service's model and its operation table:
 * for each resource its record shape (its facts', else what its describe or
 * list answers), the fields that hold its id, name, CRN, status and
 * environment (read off their names, the facts naming the rest), and its
 * lifecycle from the model's resource facts (model/services/<topic>/
 * resources.ts: the states each action passes through and ends in; the
 * emulator adds only how many emulated minutes each takes); for each
 * operation the verb on a resource its table entry names, checked at start
 * for what the compiler cannot check.
 */
import type { ActionFacts, FieldRoles, ResourceFacts } from '../../model/resources.js';
import type { Operation, Service } from '../../model/service.js';
import type { Field } from '../../model/shapes.js';
import type { Bound, Declared, ResourceRules } from './compile.js';
import type { ActionSpec, Lifecycle } from './timeline.js';

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
  /** What its declaration says: where it lives, how it is named and deleted, its hooks. */
  readonly rules: ResourceRules;
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
  /** The child resource that holds work beside its records (the `work` verb). */
  work?: ResourceModel;
}

export interface ServiceModel {
  readonly service: Service;
  readonly resources: ReadonlyMap<string, ResourceModel>;
  readonly bindings: ReadonlyMap<string, Bound>;
}

const low = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);

/** Derives the resources and bindings of a service from its model and declaration. */
export function deriveService(service: Service, declared: Declared): ServiceModel {
  const resources = new Map<string, ResourceModel>();
  for (const [op, b] of declared.bindings) {
    if (!service.has(op)) throw new Error(`${service.name}: no operation ${op}`);
    if (!declared.resources.has(b.resource)) throw new Error(`${service.name} ${op}: no resource ${b.resource}`);
  }
  for (const [key, rules] of declared.resources) {
    const ops = [...declared.bindings].filter(([, b]) => b.resource === key).map(([name, b]) => ({ op: service.operation(name), b }));
    const facts = declared.facts?.resources[key];
    const shape = facts?.shape ?? shapeFromOperations(service, ops);
    if (!shape) throw new Error(`${service.name} resource ${key}: no describe or list operation shows its shape; give it a shape`);
    const fields = fieldsOf(service, shape, key, rules, facts);
    // A lifecycle is made of the model's facts and the emulated minutes the declaration gives.
    const lifecycle = facts?.lifecycle ? lifecycleOf(facts, rules.minutes) : undefined;
    const names = Object.values(facts?.lifecycle ?? {}).some((a) => a.operation !== undefined);
    resources.set(key, {
      key,
      service: service.name,
      kind: `${service.name}.${key}`,
      noun: rules.noun ?? key,
      rules,
      ...(facts ? { facts } : {}),
      shape,
      fields,
      lifecycle,
      initialState: lifecycle ? initialStateOf(service, shape, fields, lifecycle) : undefined,
      // Operation records: the facts say so by naming an action's operation (work always has them).
      operationKind: names || rules.work ? `${service.name}.operation` : undefined,
      // Its key as it is: a CRN's resource type is word characters only (CDP's CRN parser), as the API writes them (`proxyConfig`).
      crnType: facts?.crnType ?? key,
      children: [],
    });
  }
  for (const r of resources.values()) {
    const parentKey = r.rules.parent;
    if (!parentKey) continue;
    const parent = resources.get(parentKey);
    if (!parent) throw new Error(`${service.name} resource ${r.key}: no parent resource ${parentKey}`);
    r.parent = parent;
    parent.children.push(r);
    if (r.rules.work) {
      if (parent.work) throw new Error(`${service.name} resource ${parentKey}: two resources hold its work (${parent.work.key}, ${r.key})`);
      parent.work = r;
    }
  }
  // What the compiler cannot check of the table's entries is checked at start.
  for (const [op, b] of declared.bindings) checkBinding(service, op, b, resources);
  return { service, resources, bindings: declared.bindings };
}

/** What the compiler cannot check of an entry: its action and work kind exist, its keys are request fields. */
function checkBinding(service: Service, op: string, b: Bound, resources: ReadonlyMap<string, ResourceModel>): void {
  const r = resources.get(b.resource);
  if (!r) throw new Error(`${service.name} ${op}: no resource ${b.resource}`);
  const verb = b.verb;
  if (typeof verb === 'object' && 'action' in verb && !r.lifecycle?.[verb.action])
    throw new Error(`${service.name} ${op}: ${r.key} has no action ${verb.action} in its lifecycle`);
  if (typeof verb === 'object' && 'work' in verb && !r.work?.lifecycle?.[verb.work])
    throw new Error(`${service.name} ${op}: ${r.key} has no work resource whose lifecycle has ${verb.work}`);
  if (b.action && !r.lifecycle?.[b.action]) throw new Error(`${service.name} ${op}: ${r.key} has no action ${b.action} in its lifecycle`);
  if (r.rules.readsFrom && b.verb !== 'read' && b.verb !== 'list')
    throw new Error(`${service.name} ${op}: ${r.key} is read from the world; only its reads and lists are served`);
  const request = service.requestShape(service.operation(op));
  if (b.change && b.verb !== 'update') throw new Error(`${service.name} ${op}: change (${b.change}) names an update's hooks`);
  if (b.each && (b.verb !== 'delete' || !request.byName.has(b.each)))
    throw new Error(`${service.name} ${op}: each (${b.each}) is a list field of a delete's request`);
  for (const k of [...(b.keys ?? []), ...(b.environment ?? [])])
    if (!b.rewrite && !request.byName.has(k)) throw new Error(`${service.name} ${op}: its request has no field ${k}`);
}

/** The shape a resource's describe (or get, or list, or create) operation shows it in. */
function shapeFromOperations(service: Service, ops: ReadonlyArray<{ op: Operation; b: Bound }>): string | undefined {
  for (const verb of ['read', 'list', 'create'] as const)
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

function fieldsOf(service: Service, shape: string, key: string, rules: ResourceRules, facts?: ResourceFacts): RecordFields {
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
    status: pick('status', `${k}Status`, 'state', `${k}State`),
    statusReason: pick('statusReason', 'statusMessage', 'failureReason', 'errorMessage'),
    environmentCrn: pick('environmentCrn', 'envCrn', 'environmentCRN'),
    environmentName: pick('environmentName', 'envName', 'environment'),
    created: like(/^(created|creationDate|creationTime|createdAt|creationTimestamp|createTime|createdDate|creationDateTime|created_at)$/i),
    creator: like(/^(creator|creatorCrn|createdBy|creatorName|ownerCrn)$/),
    ...facts?.fields,
  };
}

// ---- lifecycles from the model's facts ----------------------------------------------

/** Emulated minutes an action takes when the declaration gives none. */
const DEFAULT_MINUTES: Readonly<Record<string, number>> = { create: 5, delete: 2 };
const OTHER_MINUTES = 3;

/**
 * A lifecycle from a resource's facts: each action's states in order, each
 * lasting its share of the action's emulated minutes (a number, spread
 * evenly; or one number per state), ending in its success or failure
 * state. A delete removes the record unless the facts keep it (`kept`).
 */
export function lifecycleOf(facts: ResourceFacts, minutes: ResourceRules['minutes'] = {}): Lifecycle {
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
const UP = new Set(
  'AVAILABLE RUNNING ACTIVE READY HEALTHY GOODHEALTH CREATED ENABLED INSTALLED SUCCEEDED SUCCESSFUL COMPLETED FINISHED UP'.split(' '),
);

/** The state a record without a create action starts in: an up value of its status field's enum, else its first. */
function initialStateOf(service: Service, shape: string, fields: RecordFields, lc: Lifecycle): string | undefined {
  if (lc.create?.success) return lc.create.success;
  const s = service.shapes.get(shape);
  const f: Field | undefined = s.kind === 'struct' && fields.status ? s.byName.get(fields.status) : undefined;
  const values = (f ? service.shapes.resolve(f.type).enum : undefined) ?? [];
  return values.find((v) => UP.has(norm(v))) ?? values[0];
}
