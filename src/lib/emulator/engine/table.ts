/**
 * One exhaustive operation table per service. A service module exports
 * `defineService<OperationName>()({ service, facts, resources, operations })`:
 * `OperationName` is the union the model generates into the service's
 * wire.ts, the resource names are the keys of its resource facts, and the
 * table maps every operation, exactly once, to a verb on a resource
 * (`r.cluster.act('stop')`, served by the engine from the declaration), a
 * fixed answer (`fixed({...})`, a static catalogue), or `code(namedFunction)`
 * of the service's own files. An operation left out,
 * or one the model does not have, is a type error (spreads included); the
 * engine serves the table and nothing else.
 */
import type { ServiceResources } from '../../model/resources.js';
import type { ContractName, WorldReads } from '../world/contracts.js';
import type { CallObserver, DependentKind, Doc } from './context.js';
import type { EntryOptions, Hook, Resource, Verb, VerbEntry } from './declare.js';

/** An operation served by one named function of the service's own files (its name shows in the coverage table). */
export interface CodeEntry<R extends string = string> {
  readonly serve: 'code';
  readonly run: (h: Hook<R>, req: Doc) => Doc;
}

/**
 * An operation that answers the same whatever the state (a static
 * catalogue: log descriptors, secret types, instance types): its answer as
 * data, conformed to the response shape and paged as the operation pages.
 */
export interface FixedEntry {
  readonly serve: 'fixed';
  readonly answer: Doc;
}

export type Entry<R extends string = string> = VerbEntry<R> | CodeEntry<R> | FixedEntry;

/** Every operation of a service, exactly once. */
export type OperationTable<Op extends string, R extends string> = { readonly [op in Op]: Entry<R> };

/** The verbs of one resource, for writing its entries: `r.cluster.act('stop')`. */
export interface Verbs<R extends string> {
  create(o?: EntryOptions<R>): VerbEntry<R>;
  read(o?: EntryOptions<R>): VerbEntry<R>;
  list(o?: EntryOptions<R>): VerbEntry<R>;
  update(o?: EntryOptions<R>): VerbEntry<R>;
  delete(o?: EntryOptions<R>): VerbEntry<R>;
  events(o?: EntryOptions<R>): VerbEntry<R>;
  /** getOperation-style: an operation record of the record, by the request's operation id or its newest. */
  operation(o?: EntryOptions<R>): VerbEntry<R>;
  /** An action of its lifecycle (facts): its status passes through the action's states. */
  act(action: string, o?: EntryOptions<R>): VerbEntry<R>;
  /** Work of a kind beside the record (its `work` resource); the record's status does not change. */
  work(kind: string, o?: EntryOptions<R>): VerbEntry<R>;
}

/** The verbs of a resource: for a table's entries, and for a code entry that hands a request on (`h.serve(verbs<R>('cluster').create(), req)`). */
export function verbs<R extends string>(resource: R): Verbs<R> {
  const v = (verb: Verb, options: EntryOptions<R> = {}): VerbEntry<R> => ({ serve: 'verb', resource, verb, options });
  return {
    create: (o) => v('create', o),
    read: (o) => v('read', o),
    list: (o) => v('list', o),
    update: (o) => v('update', o),
    delete: (o) => v('delete', o),
    events: (o) => v('events', o),
    operation: (o) => v('operation', o),
    act: (action, o) => v({ action }, o),
    work: (kind, o) => v({ work: kind }, o),
  };
}

/** The operation answers this, whatever the state (a static catalogue). */
export const fixed = (answer: Doc): FixedEntry => ({ serve: 'fixed', answer });

/** A named function of the service's own files serves the operation. */
export const code = <R extends string>(run: (h: Hook<R>, req: Doc) => Doc): CodeEntry<R> => ({ serve: 'code', run });

/** What a service on the table is: made by defineService, served by the engine (engine/index.ts `serve`). */
export interface EmulatedService<Op extends string = string, R extends string = string> {
  /** Wire service name: opdb, compute, cloudprivatelinks... */
  readonly service: string;
  /** What the model says of its resources (model/services/<topic>/resources.ts). */
  readonly facts: ServiceResources<R>;
  readonly resources: { readonly [key in R]: Resource<R> };
  readonly operations: OperationTable<Op, R>;
  /** Runs before each of its operations: makes what the service has from the start in an account (built-in templates), once. */
  setup?(h: Hook<R>): void;
  /**
   * Makes what the service has in environments from the start (DataFlow in
   * the pre-created ones), before anything reads it: before each of its
   * operations, and before the world reads what lives in an environment
   * (the environments service, the console), which reads carry no caller.
   * It reads the state only: its hook's world is not there.
   */
  seed?(h: Hook<R>): void;
  /** Runs before every entry: refuses a caller the operation is not for (iam's read and write access). */
  guard?(h: Hook<R>, op: Op, req: Doc): void;
  /** What it tells the other services (world/contracts.ts): each contract has exactly one provider. */
  readonly provides?: { readonly [K in ContractName]?: Provide<R, K> };
  /**
   * What lives in environments beyond its resources that live in one: kinds
   * of records of its own still (a service moving onto the table one
   * resource at a time). They hold up an environment's delete and follow its
   * stop and start as before.
   */
  readonly dependents?: readonly DependentKind[];
  /** Sees every mutating call of every service (the audit trail). */
  readonly observe?: CallObserver;
  /** For a workload service: the workload name its Bearer tokens must be issued for (DF). */
  readonly workloadName?: string;
  /** The service its CRNs name, when not its own: the DataFlow workload's (dfworkload) are DataFlow's, `crn:cdp:df:`. */
  readonly crnService?: string;
  /** The partition its CRNs are in, when not `cdp`: iam's are `altus` (`crn:altus:iam:`). */
  readonly crnPartition?: string;
  /** Operations that take their file at another address: operation name -> the path the file goes to. */
  readonly redirectedUploads?: { readonly [op in Op]?: string };
}

/** A provider of a contract (a method's type, so that a service of any operations is an EmulatedService). */
type Provide<R extends string, K extends ContractName> = { make(h: Hook<R>): WorldReads[K] }['make'];

/** The optional parts of a service, as defineService takes them. */
type ServiceOptions<Op extends string, R extends string> = Omit<EmulatedService<Op, R>, 'service' | 'facts' | 'resources' | 'operations'>;

/**
 * A service on the table. `Op` is the model's generated union of the
 * service's operation names; the resource names come from its facts. The
 * table is a function of the resources' verbs: `operations: (r) => ({
 * createDatabase: r.database.create(), ... })`. An operation or a resource
 * left out, or one the model does not have, is a type error, spreads
 * included (`T & Record<Exclude<keyof T, Op>, never>`: excess-property
 * checks do not reach spreads, so every key outside `Op` must be `never`).
 */
export function defineService<Op extends string>() {
  return <F extends ServiceResources, T extends OperationTable<Op, keyof F['resources'] & string>>(
    def: {
      readonly service: string;
      readonly facts: F;
      readonly resources: { readonly [key in keyof F['resources'] & string]: Resource<keyof F['resources'] & string> };
      readonly operations: (r: { readonly [key in keyof F['resources'] & string]: Verbs<keyof F['resources'] & string> }) => T &
        Record<Exclude<keyof T, Op>, never>;
    } & ServiceOptions<Op, keyof F['resources'] & string>,
  ): EmulatedService<Op, keyof F['resources'] & string> => {
    type R = keyof F['resources'] & string;
    const { operations, ...rest } = def;
    const handles = Object.fromEntries(Object.keys(def.resources).map((k) => [k, verbs(k as R)])) as { [key in R]: Verbs<R> };
    return { ...rest, facts: def.facts as ServiceResources<R>, operations: operations(handles) };
  };
}

/** Whether a service module is on the table (else it is a module of handlers or an engine spec, not yet moved). */
export const isTable = (mod: object): mod is EmulatedService => 'operations' in mod && 'facts' in mod;
