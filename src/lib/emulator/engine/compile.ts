/**
 * A service's operation table (table.ts, declare.ts) made into the form the
 * engine serves: the rules of each resource (where it lives, how it is
 * named and deleted, its hooks as the engine calls them) and the operations
 * placed on verbs, fixed answers or code.
 */
import type { ServiceResources } from '../../model/resources.js';
import { invalid } from '../errors.js';
import { randomToken, uuid } from '../ids.js';
import { str } from '../values.js';
import type { Doc } from './context.js';
import type { EntryOptions, Hook, Resource, Verb, VerbEntry } from './declare.js';
import type { EngineRecord } from './records.js';
import type { EmulatedService } from './table.js';

/** The hook object every hand-written function of a service gets, its resources named by any string as the engine sees them. */
export type EngineHook = Hook<string>;

/** Where a resource lives when that is a record of another service: the request fields that name it, and how to find it. */
export interface Within {
  readonly fields: readonly string[];
  /** The scope its records are kept under (the thing's CRN) and the words messages name it by; NOT_FOUND when there is none. */
  readonly find: (h: EngineHook, ref: string) => { readonly scope: string; readonly where: string };
}

/** A resource's hand-written code, as the engine calls it. */
export interface RuleHooks {
  /** Before a new record is saved: refuses, or sets computed fields on its document. */
  readonly create?: (h: EngineHook, rec: EngineRecord, req: Doc) => void;
  /** Before an update is saved (`rec.doc` already has the request's fields); `change`: the entry's name for it (default update). */
  readonly update?: (h: EngineHook, rec: EngineRecord, req: Doc, change?: string) => void;
  /** Before an action starts; may return the fields its success sets. */
  readonly act?: (h: EngineHook, rec: EngineRecord, action: string, req: Doc) => Doc | void;
  /** Before a delete starts or the record is removed. */
  readonly remove?: (h: EngineHook, rec: EngineRecord, req: Doc) => void;
  /** Fields computed whenever it is shown. */
  readonly view?: (h: EngineHook, rec: EngineRecord, view: Doc) => Doc;
  /** Before work of a kind starts beside `parent` (this resource holds work): refuses, or returns what its success sets on the parent. */
  readonly work?: (h: EngineHook, parent: EngineRecord, kind: string, req: Doc) => Doc | void;
  /** The hand-written hooks that run for a verb (an update under its entry's `change`), by name (the coverage table). */
  readonly names: (verb: Verb, change?: string) => string[];
}

/** A resource as the engine serves it: what its declaration says beyond the model's facts (its own words, declare.ts, and these). */
export interface ResourceRules extends Pick<
  Resource,
  | 'noun'
  | 'keys'
  | 'crnTail'
  | 'renames'
  | 'failsFor'
  | 'environmentNoun'
  | 'minutes'
  | 'readsFrom'
  | 'perAccount'
  | 'goneWith'
  | 'builtIns'
> {
  /** Request fields that name the environment it lives in. */
  readonly environment?: readonly string[];
  /** The resource of this service it lives in. */
  readonly parent?: string;
  /** Whether a record is a part of its parent (goes with it without force). */
  readonly part?: (rec: EngineRecord) => boolean;
  /** Where it lives when that is a record of another service. */
  readonly within?: Within;
  readonly newId?: (h: EngineHook, req: Doc) => string;
  readonly uniqueNames: boolean;
  /** A create under a name taken changes that record in place. */
  readonly replaces?: boolean;
  /** The name the fail- rule reads. */
  readonly subject?: (rec: EngineRecord) => string | undefined;
  readonly idempotent: readonly string[];
  /** States in which an action changes nothing once its checks pass, by action. */
  readonly unchangedIn: Readonly<Record<string, readonly string[]>>;
  readonly forceFields: readonly string[];
  readonly cascades: boolean;
  /** A delete ends at once even when its lifecycle has one. */
  readonly immediate: boolean;
  /** A forced delete ends now, in the deleted state. */
  readonly forcedAtOnce: boolean;
  readonly follows: Partial<Record<'stop' | 'start', string>>;
  readonly partOfEnvironment: boolean;
  /** Its records are work beside its parent: one at a time a parent, or a group of kinds. */
  readonly work?: { readonly groups: Readonly<Record<string, string>>; readonly named?: 'operation'; readonly refusedBy?: 'check' };
  readonly hooks: RuleHooks;
}

/** How an operation is placed on a resource's verb, as the engine serves it: its entry's options, as declared. */
export interface Bound extends EntryOptions {
  readonly resource: string;
  readonly verb: Verb;
  /** What the entry's own functions are called in the coverage table: answer, select, rewrite, beside, minutes. */
  readonly named: readonly string[];
}

/** A hand-written operation with the engine's lookups at hand. */
export interface CodeFn {
  readonly run: (h: EngineHook, req: Doc) => Doc;
  /** Its name in the coverage table. */
  readonly name: string;
}

/** A service as the engine serves it. */
export interface Declared {
  readonly facts?: ServiceResources;
  readonly resources: ReadonlyMap<string, ResourceRules>;
  /** Operations on verbs, as declared. */
  readonly bindings: ReadonlyMap<string, Bound>;
  readonly code: ReadonlyMap<string, CodeFn>;
  /** Operations that answer the same whatever the state. */
  readonly fixed: ReadonlyMap<string, Doc>;
  readonly setup?: (h: EngineHook) => void;
  /** Makes what it has in environments from the start: before each operation and each read of an environment's dependents. */
  readonly seed?: (h: EngineHook) => void;
  readonly guard?: (h: EngineHook, op: string, req: Doc) => void;
  /** The service its CRNs name, when not its own. */
  readonly crnService?: string;
  /** The partition its CRNs are in, when not `cdp`. */
  readonly crnPartition?: string;
}

const FORCE_FIELDS = ['force', 'forced', 'cascade', 'cascading', 'forceDelete'];

/** A record path (`doc.description`, `data.owner`) read off a record. */
function atPath(rec: EngineRecord, path: string): unknown {
  const [root, ...rest] = path.split('.');
  let v: unknown = root === 'data' ? rec.data : rec.doc;
  for (const k of rest) v = typeof v === 'object' && v !== null ? (v as Doc)[k] : undefined;
  return v;
}

/** A resource's id maker from its declared style. */
function idMaker(ids: NonNullable<Resource['ids']>): (h: EngineHook, req: Doc) => string {
  return (h, req) => {
    const p = ids.prefix;
    const prefix = typeof p === 'string' ? p : (p.map[String(req[p.field])] ?? p.otherwise);
    const chars = (n: number): string => (ids.chars === 'hex' ? uuid().replace(/-/g, '').slice(0, n) : randomToken(n));
    return ids.style === 'short'
      ? `${prefix}-${chars(ids.length ?? 8)}`
      : `${prefix}-${Math.floor(h.ctx.clock.now() / 1000)}-${chars(ids.length ?? 4)}`;
  };
}

/** The hooks of a resource on the table, as the engine calls them, and their names per verb. */
function tableHooks(res: Resource): RuleHooks {
  const hk = res.hooks ?? {};
  const check = hk.check ?? {};
  const effect = hk.effect ?? {};
  const keep = hk.keep ?? {};
  const fill = hk.fill;
  const show = hk.show;
  /** What the change keeps beside the record, merged into its data. */
  const kept = (change: string, h: EngineHook, rec: EngineRecord, req: Doc): void => {
    const k = keep[change]?.(h, rec, req);
    if (k) rec.data = { ...rec.data, ...k };
  };
  const names = (verb: Verb, named?: string): string[] => {
    const change = named ?? (typeof verb === 'string' ? verb : 'action' in verb ? verb.action : verb.work);
    // Work runs its check and effect only; an action or an update has an effect, and keeps what it keeps as a create does.
    const work = typeof verb === 'object' && 'work' in verb;
    const changes = typeof verb === 'object' || verb === 'update';
    return [
      check[change] && `check.${change}`,
      verb === 'create' && fill && 'fill',
      changes && effect[change] && `effect.${change}`,
      !work && (changes || verb === 'create') && keep[change] && `keep.${change}`,
      !work && verb !== 'events' && verb !== 'operation' && show && 'show',
    ].filter((x): x is string => typeof x === 'string');
  };
  return {
    names,
    ...(check.create || fill || keep.create
      ? {
          create: (h, rec, req) => {
            check.create?.(h, rec, req);
            if (fill) Object.assign(rec.doc, fill(h, rec, req));
            kept('create', h, rec, req);
          },
        }
      : {}),
    ...(Object.keys(check).length + Object.keys(effect).length + Object.keys(keep).length > 0
      ? {
          update: (h, rec, req, change = 'update') => {
            check[change]?.(h, rec, req);
            // What an update sets beyond the request's fields (a new version of the record's own making).
            const sets = effect[change]?.(h, rec, req);
            if (sets) Object.assign(rec.doc, sets);
            kept(change, h, rec, req);
          },
        }
      : {}),
    ...(check.delete ? { remove: check.delete } : {}),
    act: (h, rec, action, req) => {
      check[action]?.(h, rec, req);
      const sets = effect[action]?.(h, rec, req);
      kept(action, h, rec, req);
      return sets;
    },
    work: (h, parent, kind, req) => {
      check[kind]?.(h, parent, req);
      return effect[kind]?.(h, parent, req);
    },
    ...(show ? { view: show } : {}),
  };
}

/** How work beside a record runs: its groups, and what a refusal calls running work. */
function workRules(work: NonNullable<Resource['work']>): NonNullable<ResourceRules['work']> {
  if (work === true) return { groups: {} };
  return { groups: work.groups ?? {}, named: work.named === 'operation' ? 'operation' : undefined, refusedBy: work.refusedBy };
}

/** A resource on the table as the engine serves it. */
function tableRules(res: Resource): ResourceRules {
  const lives = res.lives ?? { in: 'account' };
  const del = res.deletes ?? {};
  const withEnv = res.withEnvironment;
  const part = lives.in === 'parent' ? lives.part : undefined;
  const failsBy = res.failsBy;
  return {
    ...res,
    ...(lives.in === 'environment' ? { environment: lives.by } : {}),
    ...(lives.in === 'parent' ? { parent: lives.parent } : {}),
    ...(part === true ? { part: () => true } : part ? { part: (rec: EngineRecord) => atPath(rec, part) === true } : {}),
    ...(lives.in === 'world' ? { within: worldPlace(lives.place, lives.by) } : {}),
    ...(res.ids ? { newId: idMaker(res.ids) } : {}),
    uniqueNames: res.names !== 'repeat',
    ...(res.names === 'replace' ? { replaces: true } : {}),
    ...(failsBy ? { subject: (rec: EngineRecord) => str(atPath(rec, failsBy)) } : {}),
    idempotent: res.idempotent ?? [],
    unchangedIn: res.unchangedIn ?? {},
    forceFields: del.force ?? FORCE_FIELDS,
    cascades: del.cascades === true,
    immediate: del.immediate === true,
    forcedAtOnce: del.forcedAtOnce === true,
    follows: typeof withEnv === 'object' ? withEnv : {},
    partOfEnvironment: withEnv === 'part',
    work: res.work ? workRules(res.work) : undefined,
    hooks: tableHooks(res),
  };
}

/** A resource that lives in a record of another service: found through the world's places, by the request's fields. */
function worldPlace(place: string, by: readonly string[]): Within {
  return {
    fields: by,
    find: (h, ref) => {
      const found = h.ctx.world.place(h.ctx, place, ref);
      if (!found) throw invalid(`${ref.slice(0, 200)} names nothing a ${place} place holds`);
      return found;
    },
  };
}

/** The options of a verb entry as the engine binds them. */
function boundOf(entry: VerbEntry, o: EntryOptions): Bound {
  return {
    ...o,
    resource: entry.resource,
    verb: entry.verb,
    named: (['answer', 'select', 'rewrite', 'beside', 'minutes'] as const).filter((k) => o[k]),
  };
}

/** A verb entry, bound (for a code entry that serves one: `h.serve(verbs('cluster').create(), req)`). */
export const bind = (entry: VerbEntry): Bound => boundOf(entry, entry.options);

/** A service on the operation table, as the engine serves it. */
export function fromTable(svc: EmulatedService): Declared {
  const bindings = new Map<string, Bound>();
  const code = new Map<string, CodeFn>();
  const fixed = new Map<string, Doc>();
  for (const [op, entry] of Object.entries(svc.operations)) {
    if (entry.serve === 'code') code.set(op, { run: entry.run, name: entry.run.name || op });
    else if (entry.serve === 'fixed') fixed.set(op, entry.answer);
    else bindings.set(op, bind(entry));
  }
  const resources = new Map(Object.entries(svc.resources).map(([k, r]) => [k, tableRules(r as Resource)]));
  const { setup, seed, guard } = svc;
  return {
    facts: svc.facts,
    resources,
    bindings,
    code,
    fixed,
    ...(setup ? { setup } : {}),
    ...(seed ? { seed } : {}),
    ...(guard ? { guard } : {}),
    ...(svc.crnService ? { crnService: svc.crnService } : {}),
    ...(svc.crnPartition ? { crnPartition: svc.crnPartition } : {}),
  };
}
