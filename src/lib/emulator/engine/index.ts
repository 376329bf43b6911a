/**
 * The model-driven resource engine: a service's operation table declares its
 * resources and puts each operation on a verb, a fixed answer or code
 * (table.ts, declare.ts); the engine derives the rest from the model
 * (derive.ts) and serves each verb on stored records
 * (records.ts): create, describe, list (paged as the model pages), update,
 * delete (refused while the resource holds others, or cascading with the
 * request's force), the lifecycle's actions (start, stop, suspend,
 * upgrade...) on the emulator clock with the `fail-` rule, and events.
 * Answers are built from the records and conformed to the operation's
 * response shape (conform.ts). See docs/architecture.md.
 */
import type { Operation, Service } from '../../model/service.js';
import type { Field } from '../../model/shapes.js';
import type { EnvironmentView, WorldReads } from '../world/contracts.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../errors.js';
import { crn, stableUuid, uuid } from '../ids.js';
import { str } from '../values.js';
import { paged, pagingFor, pagingOf } from './paging.js';
import { bind, fromTable, type Bound, type CodeFn, type Declared, type EngineHook } from './compile.js';
import { Conformer, type FillMode } from './conform.js';
import type { DependentKind, Doc, Handler, ProviderScope, Providers, RequestContext, Scope, WorldAccess } from './context.js';
import type { Verb, VerbEntry } from './declare.js';
import { deriveService, type ResourceModel, type ServiceModel } from './derive.js';
import { type EngineRecord, nameOf, type PastActivity, readRecord, Records } from './records.js';
import { runsAtAll } from './runs.js';
import type { EmulatedService } from './table.js';
import { failsOnPurpose } from './timeline.js';

export type { EngineRecord } from './records.js';
export { Records } from './records.js';

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A request value that names a record: a string, or a number (the id of an int64 id field). */
const refOf = (v: unknown): string | undefined => (typeof v === 'number' && Number.isFinite(v) ? String(v) : str(v));
/** The request fields that place a record of a resource: its environment's, its world place's, its parent's keys. */
const placing = (r: ResourceModel): string[] => [
  ...(r.rules.environment ?? []),
  ...(r.rules.within?.fields ?? []),
  ...(r.parent?.rules.keys ?? []),
];
/** A record as messages name it: `cluster sales-cluster`. */
const named = (r: { readonly noun: string }, rec: Readonly<EngineRecord>): string => `${r.noun} ${nameOf(rec)}`;
/** Request fields as messages name them: `"clusterName" or "clusterCrn"`. */
const either = (keys: readonly string[]): string => keys.map((k) => `"${k}"`).join(' or ');

/** Where a request puts a resource: the scope it lives in, its environment, its parent. */
interface Place {
  /** The scope to look in; undefined: the request does not say (any scope of the account). */
  readonly scope?: string;
  readonly env?: EnvironmentView;
  /** As the store keeps it: frozen (EngineResources.peek). */
  readonly parent?: Readonly<EngineRecord>;
  /** The scope in messages: `environment sales-env`. */
  readonly where?: string;
}

/** The world of a seed run as the world reads an environment: a seed reads the state only. */
const unread = (): never => {
  throw new Error('a seed reads the state only, not the world');
};
const NO_WORLD: WorldAccess = { in: unread, inEnvironment: unread, follow: unread, place: unread };

/** A service served by the engine: its derived model and a handler per placed operation. */
export class Engine {
  readonly model: ServiceModel;
  private readonly conformer: Conformer;
  /** The built-in records this engine made (a resource's `builtIns`): shown, never changed. */
  private readonly builtInRecords = new WeakSet<EngineRecord>();

  constructor(
    readonly service: Service,
    readonly declared: Declared,
  ) {
    this.model = deriveService(service, declared);
    this.conformer = new Conformer(service.shapes);
  }

  /** The engine of a service's operation table. */
  static of(service: Service, table: EmulatedService): Engine {
    return new Engine(service, fromTable(table));
  }

  /** Handlers for the placed operations and the hand-written ones; each runs the service's setup and guard first. */
  handlers(): Record<string, Handler> {
    const out: Record<string, Handler> = {};
    const { seed, setup, guard } = this.declared;
    const begin = (name: string, req: Doc, ctx: RequestContext): EngineHook => {
      const h = this.hook(ctx);
      seed?.(h);
      setup?.(h);
      guard?.(h, name, req);
      return h;
    };
    for (const name of [...this.model.bindings.keys(), ...this.declared.code.keys(), ...this.declared.fixed.keys()]) {
      const serve = this.server(name);
      out[name] = (req, ctx) => serve(begin(name, req, ctx), req);
    }
    return out;
  }

  /** What serves an operation, given a hook of its request: its verb, its code or its fixed answer (found once, not per request). */
  private server(name: string): (h: EngineHook, req: Doc) => Doc {
    const op = this.service.operation(name);
    const b = this.model.bindings.get(name);
    if (b) return (h, req) => this.serveBound(h, op, b, req);
    const code = this.declared.code.get(name);
    if (code) return (h, req) => code.run(h, req);
    const answer = this.declared.fixed.get(name);
    if (answer) return (h, req) => this.fixedAnswer(h.ctx, op, answer, req);
    throw new Error(`${this.service.name} ${name} is not an operation the engine serves`);
  }

  /**
   * How an operation of this service is served (coverage.ts): a binding's
   * verb and the hand-written code it runs, or the code that serves it.
   */
  servedBy(name: string): ServedBy | undefined {
    const code: CodeFn | undefined = this.declared.code.get(name);
    if (code) return { how: 'code', what: code.name };
    if (this.declared.fixed.has(name)) return { how: 'declared', what: 'fixed answer' };
    const b = this.model.bindings.get(name);
    if (!b) return undefined;
    const r = this.resource(b.resource);
    const w = typeof b.verb === 'object' && 'work' in b.verb ? r.work : undefined;
    // An entry's own answer shows no view of the record, so the hooks that compute views do not run for it (but a list's items).
    const shows = (name: string): boolean => !(b.answer && b.verb !== 'list' && (name === 'show' || name === 'viewing'));
    const hooks = [...(w ?? r).rules.hooks.names(b.verb, b.change).filter(shows), ...b.named];
    const what = `${b.resource}.${verbName(b.verb)}`;
    return hooks.length > 0 ? { how: 'hook', what, hooks } : { how: 'declared', what };
  }

  /**
   * The contracts a service on the table provides, each made for the
   * reading request with a hook of this service (the reader's caller, this
   * service's name).
   */
  providers(svc: EmulatedService): Providers {
    const out: Record<string, (scope: ProviderScope) => unknown> = {};
    for (const [name, provide] of Object.entries(svc.provides ?? {}) as Array<[string, (h: EngineHook) => unknown]>)
      out[name] = (scope) => provide(this.reading(scope));
    return out as Providers;
  }

  /** A hook for a read from outside a request of this service: its caller's, or the account's with no caller. */
  private reading(scope: ProviderScope): EngineHook {
    const caller = scope.caller ?? { accountId: scope.info.accountId, actorCrn: '', kind: 'user' };
    return this.hook({ ...scope, caller, op: { service: this.service.name, name: scope.op?.name ?? '' } });
  }

  /** What hooks and code get for one request: the engine's lookups for this service. */
  hook(ctx: RequestContext): EngineHook {
    return new RequestHook(this, ctx);
  }

  resource(name: string): ResourceModel {
    const r = this.model.resources.get(name);
    if (!r) throw new Error(`${this.service.name} has no resource ${name}`);
    return r;
  }

  /**
   * The records of a resource for a request, made once a request (a hook
   * keeps them); their views carry the fields its `show` hook computes.
   */
  records(h: EngineHook, r: ResourceModel): Records {
    return h instanceof RequestHook ? h.recordsOf(r) : this.newRecords(h, r);
  }

  /** New records of a resource for a request. */
  newRecords(h: EngineHook, r: ResourceModel): Records {
    const view = r.rules.hooks.view;
    return new Records(h.ctx, r, view ? (rec, v) => view(h, rec, v) : undefined);
  }

  /** The CRN of a record of a resource: the one place the engine mints one (`name`: for a resource whose CRNs end with its name and id). */
  crnOf(ctx: RequestContext, r: ResourceModel, id: string, name?: string): string {
    const own = r.facts?.crnUsesId || isUuid(id) ? id : stableUuid(id);
    const tail = r.rules.crnTail === 'name/id' && name !== undefined ? `${name}/${own}` : own;
    const { crnService, crnPartition } = this.declared;
    return crn(crnService ?? this.service.name, ctx.info.region, ctx.info.accountId, r.crnType, tail, crnPartition);
  }

  /** A document of a shape, from what is given; absent fields made up by `mode`. */
  conform(ctx: RequestContext, shape: string, value: Doc, seed: string, mode: FillMode = 'required', r?: ResourceModel): Doc {
    const { region, accountId: account } = ctx.info;
    const fill = { seed, now: ctx.clock.now(), service: this.service.name, region, account, ...(r ? { resource: r.crnType } : {}) };
    return this.conformer.struct(shape, value, fill, mode);
  }

  /** A fixed answer: conformed to the response shape, its list paged when the operation pages. */
  private fixedAnswer(ctx: RequestContext, op: Operation, answer: Doc, req: Doc): Doc {
    const items = op.paging?.result ? answer[op.paging.result] : undefined;
    return this.conform(ctx, op.output, Array.isArray(items) ? { ...answer, ...paged(ctx, req, items) } : answer, op.name);
  }

  /** Serves a verb entry for a code entry that hands its request on (`h.serve(verbs('cluster').create(), req)`), as its own operation. */
  serveEntry(h: EngineHook, entry: VerbEntry, req: Doc): Doc {
    return this.serveBound(h, this.service.operation(h.ctx.op.name), bind(entry), req);
  }

  /** Serves one placed operation: its verb on its resource, for the request as its entry reads it. */
  private serveBound(h: EngineHook, op: Operation, b: Bound, sent: Doc): Doc {
    const r = this.resource(b.resource);
    const req = b.rewrite ? b.rewrite(h, sent) : sent;
    const verb = b.verb;
    if (verb === 'create') return this.create(h, op, b, r, req);
    if (verb === 'list') return this.list(h, op, b, r, req);
    if (verb === 'operation') return this.operation(h, op, b, r, req);
    if (verb === 'delete' && b.each) return this.removeEach(h, op, b, r, req, b.each);
    // A read only shows its record: it gets it as the store keeps it, frozen, without a copy.
    const rec = this.locate(h, r, req, b, verb === 'read');
    if (verb === 'read') return this.answer(h, op, b, r, rec, req);
    if (verb === 'events') return this.events(h, op, r, rec, req);
    this.refuseBuiltIn(r, rec);
    const records = this.records(h, r);
    if (records.isDeleted(rec)) throw notFound(`${named(r, rec)} is ${verb === 'delete' ? 'already ' : ''}deleted`);
    if (verb === 'delete') return this.remove(h, op, b, r, rec, req);
    if (verb === 'update') return this.update(h, op, b, r, rec, req);
    if ('work' in verb) return this.work(h, op, b, r, rec, verb.work, req);
    return this.act(h, op, b, r, rec, verb.action, req);
  }

  /**
   * Serves an operation of this service as a request would be served (its
   * hooks and rules apply): for hand-written operations made of others (a
   * restore that creates what a backup holds).
   */
  perform(h: EngineHook, opName: string, req: Doc): Doc {
    const op = this.service.operation(opName);
    const serve = this.server(opName);
    return serve(this.hook({ ...h.ctx, op: { service: this.service.name, name: op.name, paging: pagingOf(op) } }), req);
  }

  // ---- finding -----------------------------------------------------------------

  /** Where a request puts a resource of `r`: its parent (found, or NOT_FOUND), or its environment. */
  place(h: EngineHook, r: ResourceModel, req: Doc, envFields?: readonly string[]): Place {
    if (r.parent) {
      const parentKeys = r.parent.rules.keys.filter((k) => refOf(req[k]) !== undefined);
      if (parentKeys.length === 0) return {};
      // The parent only places the record (its id, name and environment): read as kept, frozen.
      const parent = this.locate(h, r.parent, req, undefined, true);
      return { scope: parent.id, parent, where: named(r.parent, parent) };
    }
    const within = r.rules.within;
    const fields = within ? within.fields : (envFields ?? r.rules.environment);
    if (fields) {
      const ref = fields.map((f) => str(req[f])).find(Boolean);
      if (!ref) return {};
      if (within) return within.find(h, ref);
      const env = h.world.environments.require(ref);
      return { scope: env.crn, env, where: `environment ${env.environmentName}` };
    }
    return { scope: '' };
  }

  /**
   * The record a request names (by the binding's or resource's keys), or
   * NOT_FOUND; `asKept`: frozen, as Records.peek reads it, for a caller that
   * only looks at it.
   */
  locate(h: EngineHook, r: ResourceModel, req: Doc, b?: Bound, asKept = false): EngineRecord {
    if (r.rules.perAccount) return this.ofAccount(h, r, r.rules.perAccount, asKept);
    const place = this.place(h, r, req, b?.environment);
    const keys = b?.keys ?? r.rules.keys;
    const ref = keys.map((k) => refOf(req[k])).find(Boolean);
    const all = this.records(h, r);
    if (!ref) {
      // A resource the scope holds one of (a service enabled in an environment) is named by the scope alone.
      if (place.scope !== undefined && place.scope !== '') {
        const only = all.all(place.scope);
        if (only.length === 1 && only[0]) return only[0];
      }
      throw invalid(`give ${either(keys)} to name the ${r.noun}`);
    }
    if (r.rules.builtIns) {
      const found = (asKept ? all.peek(ref, place.scope) : all.find(ref, place.scope)) ?? this.builtIn(h, r, ref);
      if (found) return found;
    }
    if (!r.rules.readsFrom) return all.get(ref, place.scope, place.where, asKept);
    const read = r.rules.readsFrom(h, place.scope ?? '');
    const found = read.find((x) => x.id === ref) ?? read.find((x) => x.crn === ref) ?? read.find((x) => x.name === ref);
    if (!found) throw notFound(`${r.noun} ${ref.slice(0, 200)} not found${place.where ? ` in ${place.where}` : ''}`);
    return found;
  }

  /** A resource's built-in records (its `builtIns`), as records of the account's own scope. */
  private builtIns(h: EngineHook, r: ResourceModel): EngineRecord[] {
    return (r.rules.builtIns?.(h) ?? []).map((x) => {
      const rec = readRecord({ id: x.crn ?? x.name, ...x }, '');
      this.builtInRecords.add(rec);
      return rec;
    });
  }

  /** FAILED_PRECONDITION for a built-in record: it is shown, never changed. */
  private refuseBuiltIn(r: ResourceModel, rec: EngineRecord): void {
    if (this.builtInRecords.has(rec)) throw failedPrecondition(`${named(r, rec)} is built in; only an account's own can be changed`);
  }

  /** The built-in record of a resource with this name (any case) or CRN. */
  private builtIn(h: EngineHook, r: ResourceModel, ref: string): EngineRecord | undefined {
    const lc = ref.toLowerCase();
    return this.builtIns(h, r).find((x) => x.crn === ref || x.name?.toLowerCase() === lc);
  }

  /** The account's one record of a resource: a read shows its defaults until a change makes it with them. */
  private ofAccount(h: EngineHook, r: ResourceModel, defaults: (h: EngineHook) => Doc, asKept: boolean): EngineRecord {
    const all = this.records(h, r);
    const id = h.ctx.info.accountId;
    const kept = all.byId(id);
    if (kept) return kept;
    const made = { id, scope: '', doc: defaults(h) };
    return asKept ? all.unsaved(made) : all.create(made);
  }

  // ---- verbs ---------------------------------------------------------------------

  private create(h: EngineHook, op: Operation, b: Bound, r: ResourceModel, req: Doc): Doc {
    const place = this.place(h, r, req, b.environment);
    if (r.parent && !place.parent) throw invalid(`give ${either(r.parent.rules.keys)} to name the ${r.parent.noun} it belongs to`);
    if (place.parent?.deleted) throw notFound(`${r.parent?.noun ?? ''} ${place.parent.name ?? place.parent.id} is deleted`);
    if (r.rules.environment && !place.env && !b.environment) throw invalid(`give ${either(r.rules.environment)} to name its environment`);
    if (r.rules.within && place.scope === undefined)
      throw invalid(`give ${either(r.rules.within.fields)} to name where the ${r.noun} lives`);
    const all = this.records(h, r);
    const name = this.nameIn(op, r, req, b.rewrite !== undefined);
    const taken = name !== undefined && r.rules.uniqueNames ? all.find(name, place.scope ?? '') : undefined;
    if (taken && !taken.deleted && r.rules.replaces) return this.replace(h, op, b, r, taken, req);
    if (taken && !taken.deleted) throw alreadyExists(`${r.noun} ${name} already exists${place.where ? ` in ${place.where}` : ''}`);
    if (name !== undefined && r.rules.builtIns && this.builtIn(h, r, name))
      throw alreadyExists(`${r.noun} ${name} already exists (a built-in one)`);
    // A record whose id field is a number (opdb snapshot ids) gets 1, 2, 3... per kind.
    const numbered = ['int32', 'int64'].includes(this.kindOf(r, r.fields.id) ?? '');
    const id = r.rules.newId?.(h, req) ?? (numbered ? String(this.nextNumber(h.ctx, r)) : uuid());
    const rec: Omit<EngineRecord, 'activity' | 'createdAt'> = {
      id,
      ...(name !== undefined ? { name } : {}),
      ...(r.fields.crn ? { crn: this.crnOf(h.ctx, r, id, name) } : {}),
      scope: place.scope ?? '',
      ...(place.env ? { env: place.env.crn } : place.parent?.env ? { env: place.parent.env } : {}),
      doc: {},
      data: { request: this.kept(op, req) },
    };
    rec.doc = this.conform(h.ctx, r.shape, { ...this.fromRequest(op, r, req), ...this.made(h, r, rec, place) }, id, 'known', r);
    r.rules.hooks.create?.(h, rec as EngineRecord, req);
    return this.answer(h, op, b, r, all.create(rec, b.action ?? 'create'), req);
  }

  /** A create under a name taken, for a resource whose names replace: the record changes in place (its id, CRN and creation stay). */
  private replace(h: EngineHook, op: Operation, b: Bound, r: ResourceModel, rec: EngineRecord, req: Doc): Doc {
    rec.doc = this.conform(h.ctx, r.shape, { ...rec.doc, ...this.fromRequest(op, r, req) }, rec.id, 'known', r);
    rec.data = { ...rec.data, request: this.kept(op, req) };
    r.rules.hooks.create?.(h, rec, req);
    return this.answer(h, op, b, r, this.records(h, r).save(rec), req);
  }

  private list(h: EngineHook, op: Operation, b: Bound, r: ResourceModel, req: Doc): Doc {
    const all = this.records(h, r);
    const item = this.listField(op, r);
    const view = (rec: EngineRecord): Doc => (item ? this.conform(h.ctx, item.shape, this.view(h, r, rec), rec.id) : this.view(h, r, rec));
    const total = this.totalField(op, item?.field);
    // A resource read from the world lists what the world gives for the scope, unless the entry selects.
    const chosen =
      b.select?.(h, req) ??
      (r.rules.readsFrom
        ? [...r.rules.readsFrom(h, this.place(h, r, req, b.environment).scope ?? '')]
        : r.rules.builtIns
          ? this.withBuiltIns(h, op, r, req, b)
          : undefined);
    // Else the records in the request's scope the list keeps: all read for a count, or a page at a time.
    const scope = chosen ? '' : this.place(h, r, req, b.environment).scope;
    const filter = this.filters(h, op, r, req);
    const keep = this.deletedShown(r, req) ? filter : (rec: EngineRecord): boolean => !rec.deleted && filter(rec);
    let kept: EngineRecord[] | undefined;
    // Read once, for the count and the items both.
    const shown = (): EngineRecord[] => (kept ??= chosen ?? all.all(scope).filter(keep));
    // A count of them all, where the answer has one (`totalClusters`).
    const counted = { ...(total ? this.totals(h.ctx, op, total, shown().length, req) : {}), ...b.beside?.(h, req) };
    if (op.paging)
      return this.conform(h.ctx, op.output, { ...counted, ...paged(h.ctx, req, chosen ?? all.listing(scope, keep), view) }, op.name);
    return this.answerList(h, op, item?.field, shown().map(view), req, counted);
  }

  /** A list of a resource with built-in records: those, then the account's own (the request's filters apply to both). */
  private withBuiltIns(h: EngineHook, op: Operation, r: ResourceModel, req: Doc, b: Bound): EngineRecord[] {
    const filter = this.filters(h, op, r, req);
    const own = this.records(h, r).all(this.place(h, r, req, b.environment).scope);
    return [...this.builtIns(h, r), ...own.filter((x) => !x.deleted)].filter(filter);
  }

  /** A list answer's totals: its items (`totalClusters`) and, for a paged one that has the field, its pages (`totalPages`). */
  private totals(ctx: RequestContext, op: Operation, field: string, count: number, req: Doc): Doc {
    if (!op.paging || !this.outputFields(op).some((f) => f.name === 'totalPages')) return { [field]: count };
    const paging = pagingFor(ctx);
    const asked = req[paging.pageSize];
    const size = typeof asked === 'number' && Number.isInteger(asked) && asked > 0 ? asked : paging.defaultSize;
    return { [field]: count, totalPages: Math.max(1, Math.ceil(count / size)) };
  }

  /** The answer's field that counts every item of a list (`totalClusters` beside `clusters`), when it has one. */
  private totalField(op: Operation, field: string | undefined): string | undefined {
    if (!field) return undefined;
    const name = `total${field.charAt(0).toUpperCase()}${field.slice(1)}`;
    const f = this.outputFields(op).find((x) => x.name === name);
    return f && (f.type.kind === 'int32' || f.type.kind === 'int64') ? name : undefined;
  }

  /** Whether a list shows deleted records that are kept (the model's `listed`: a flag that hides or shows them). */
  private deletedShown(r: ResourceModel, req: Doc): boolean {
    const d = r.facts?.deleted;
    if (d?.ends !== 'kept' || !d.listed) return true;
    return 'hiddenWhen' in d.listed ? req[d.listed.hiddenWhen] !== true : req[d.listed.shownWhen] === true;
  }

  private answerList(h: EngineHook, op: Operation, field: string | undefined, items: Doc[], req: Doc, fields: Doc = {}): Doc {
    const out: Doc = { ...this.echo(op, req), ...fields };
    if (field) out[field] = items;
    return this.conform(h.ctx, op.output, out, op.name);
  }

  private remove(h: EngineHook, op: Operation, b: Bound, r: ResourceModel, rec: EngineRecord, req: Doc): Doc {
    const all = this.records(h, r);
    const force = r.rules.forceFields.some((f) => req[f] === true);
    const held = this.held(h.ctx, r, rec);
    // Parts of the record go with it, and so does all it holds when its delete cascades; anything else needs force,
    // except what is going already: a kept deleted record, or one being deleted.
    const blocking = r.rules.cascades ? [] : held.filter((x) => x.model.rules.part?.(x.rec) !== true && !this.going(h.ctx, x.model, x.rec));
    if (blocking.length > 0 && !force)
      throw failedPrecondition(
        `${named(r, rec)} still has ${blocking.map((x) => named(x.model, x.rec)).join(', ')}; delete them first, or delete with force`,
      );
    r.rules.hooks.remove?.(h, rec, req);
    const lasting = all.has('delete') && !r.rules.immediate && !(force && r.rules.forcedAtOnce);
    if (lasting && rec.activity.action === 'delete' && all.busy(rec)) throw failedPrecondition(`${named(r, rec)} is already being deleted`);
    for (const x of held.reverse()) this.records(h, x.model).remove(x.rec);
    if (lasting) {
      all.begin(rec, 'delete', { anyState: true, ...(force ? { fail: false } : {}) });
      return this.answer(h, op, b, r, rec, req);
    }
    // A resource that keeps its deleted records ends in its deleted state now; any other is gone. The answer shows it as it was left.
    if (all.keepsDeleted) {
      all.endDeleted(rec, force);
      return this.answer(h, op, b, r, rec, req);
    }
    const answer = this.answer(h, op, b, r, rec, req);
    all.remove(rec);
    return answer;
  }

  /**
   * A delete of the records a request field lists (by name or CRN): each as
   * a delete of one, all or none (the request's transaction); the answer's
   * list holds them as they were.
   */
  private removeEach(h: EngineHook, op: Operation, b: Bound, r: ResourceModel, req: Doc, field: string): Doc {
    const given: unknown = req[field];
    const refs = Array.isArray(given) ? given.filter((x): x is string => typeof x === 'string' && x !== '') : [];
    if (refs.length === 0) throw invalid(`give the ${r.noun}s to delete ("${field}")`);
    const key = (b.keys ?? r.rules.keys)[0] ?? '';
    const one = { ...b, each: undefined, answer: undefined };
    const found = refs.map((ref) => {
      const rec = this.locate(h, r, { ...req, [key]: ref }, b);
      this.refuseBuiltIn(r, rec);
      if (this.records(h, r).isDeleted(rec)) throw notFound(`${named(r, rec)} is already deleted`);
      return rec;
    });
    const shown = found.map((rec) => this.view(h, r, rec));
    // A record named twice is deleted once.
    for (const rec of new Map(found.map((x) => [x.id, x])).values()) this.remove(h, op, one, r, rec, req);
    const list = this.listField(op, r);
    return this.conform(h.ctx, op.output, list ? { [list.field]: shown } : {}, op.name);
  }

  /** Whether a record is deleted and kept, or being deleted. */
  private going(ctx: Scope, r: ResourceModel, rec: EngineRecord): boolean {
    return rec.deleted !== undefined || (rec.activity.action === 'delete' && new Records(ctx, r).busy(rec));
  }

  /** The records a record holds, children before their own children (all of them, deepest last). */
  private held(ctx: Scope, r: ResourceModel, rec: EngineRecord): Array<{ model: ResourceModel; rec: EngineRecord }> {
    const out: Array<{ model: ResourceModel; rec: EngineRecord }> = [];
    for (const child of r.children)
      for (const c of new Records(ctx, child).all(rec.id)) {
        out.push({ model: child, rec: c });
        out.push(...this.held(ctx, child, c));
      }
    return out;
  }

  /** The resources that live directly in environments, as the world sees them (world.ts); deleted records that are kept are not. */
  dependents(): DependentKind[] {
    const seed = this.declared.seed;
    return [...this.model.resources.values()]
      .filter((r) => r.rules.environment && !r.parent && !r.rules.partOfEnvironment)
      .map((r) => ({ r, noun: r.rules.environmentNoun ?? r.noun }))
      .map(({ r, noun }) => ({
        service: this.service.name,
        noun,
        in: (scope: Scope, environmentCrn: string) => {
          // The seed as the world reads an environment: no caller, and no world to read.
          seed?.(this.reading({ ...scope, caller: undefined, op: undefined, world: NO_WORLD }));
          const all = new Records(scope, r);
          return all
            .all(environmentCrn)
            .filter((rec) => !rec.deleted)
            .map((rec) => ({
              service: this.service.name,
              noun,
              name: nameOf(rec),
              what: `${noun} ${nameOf(rec)}`,
              status: r.lifecycle ? all.state(rec) : '',
              ref: `${r.kind}/${rec.id}`,
              view: () => all.view(rec),
              remove: () => {
                for (const x of this.held(scope, r, rec)) new Records(scope, x.model).remove(x.rec);
                all.remove(rec);
              },
              follow: (change: 'stop' | 'start') => {
                const action = r.rules.follows[change] ?? change;
                const spec = r.lifecycle?.[action];
                if (!spec || all.busy(rec) || (spec.from && !spec.from.includes(all.state(rec)))) return false;
                all.begin(rec, action);
                return true;
              },
              ...(r.lifecycle && runsAtAll(r.lifecycle)
                ? { running: () => ({ name: nameOf(rec), crn: rec.crn, runs: all.runs(rec), record: rec.doc }) }
                : {}),
            }));
        },
      }));
  }

  private update(h: EngineHook, op: Operation, b: Bound, r: ResourceModel, rec: EngineRecord, req: Doc): Doc {
    const all = this.records(h, r);
    const patch = this.patchFrom(h, op, r, b, rec, req);
    // A resource that `renames` takes a new name from the request's name field, or from what its update's effect sets there.
    const nameField = r.rules.renames ? r.fields.name : undefined;
    const rename = (to: string | undefined): void => {
      if (!nameField || to === undefined || to === rec.name) return;
      const taken = r.rules.uniqueNames ? all.find(to, rec.scope) : undefined;
      if (taken && !taken.deleted && taken.id !== rec.id) throw alreadyExists(`${r.noun} ${to} already exists`);
      rec.name = to;
      patch[nameField] = to;
    };
    if (nameField) rename(str(req[nameField]));
    const action = b.action ?? 'update';
    const before = rec.doc;
    rec.doc = { ...rec.doc, ...patch };
    r.rules.hooks.update?.(h, rec, req, b.change);
    if (all.has(action)) {
      // A lasting update sets its fields when it ends: until then the record shows what it had.
      const changed = rec.doc;
      rec.doc = before;
      all.begin(rec, action, { effect: changed });
    } else {
      if (nameField) rename(str(rec.doc[nameField]));
      all.save(rec);
    }
    return this.answer(h, op, b, r, rec, req);
  }

  private act(h: EngineHook, op: Operation, b: Bound, r: ResourceModel, rec: EngineRecord, action: string, req: Doc): Doc {
    const all = this.records(h, r);
    const previous = all.state(rec);
    const was = { previousStatus: previous, previousState: previous };
    const there = r.lifecycle?.[action]?.success;
    if (r.rules.idempotent.includes(action) && there === previous && !all.busy(rec)) return this.answer(h, op, b, r, rec, req, was);
    const hooked = r.rules.hooks.act?.(h, rec, action, req);
    if (r.rules.unchangedIn[action]?.includes(previous)) return this.answer(h, op, b, r, rec, req, was);
    const effect = { ...this.patchFrom(h, op, r, b, rec, req), ...(hooked ?? {}) };
    const minutes = b.minutes?.(h, req);
    if (all.has(action)) all.begin(rec, action, { effect, ...(minutes !== undefined ? { minutes } : {}) });
    else {
      rec.doc = { ...rec.doc, ...effect };
      all.save(rec);
    }
    // `wasStarted`, `wasStopped`: the action was taken (a refused one answered with an error).
    const taken = Object.fromEntries(
      this.outputFields(op)
        .filter((f) => /^was[A-Z]/.test(f.name))
        .map((f) => [f.name, true]),
    );
    return this.answer(h, op, b, r, rec, req, { ...was, ...taken });
  }

  /**
   * Work of a kind beside a record (its resource's `work` child): refused
   * while work of its group runs on the record; a record of its own whose
   * action is the kind, with an operation record under the record it is
   * for; what it sets (its `effect`) reaches that record once it has ended
   * (Records). The record's status stays.
   */
  private work(h: EngineHook, op: Operation, b: Bound, r: ResourceModel, rec: EngineRecord, kind: string, req: Doc): Doc {
    const w = r.work;
    if (!w?.rules.work) throw new Error(`${this.service.name} ${op.name}: ${r.key} holds no work`);
    const groups = w.rules.work.groups;
    const groupOf = (k: string): string => groups[k] ?? (Object.keys(groups).length > 0 ? k : '');
    const works = this.records(h, w);
    const mine = works.all(rec.id);
    // A resource whose check refuses work while other work runs (`refusedBy: 'check'`) is not refused here.
    const running = w.rules.work.refusedBy ? undefined : mine.find((x) => works.busy(x) && groupOf(x.activity.action) === groupOf(kind));
    if (running) {
      const action = running.activity.action;
      const operation = w.rules.work.named === 'operation' ? w.lifecycle?.[action]?.operation : undefined;
      const what = operation ? operation.toLowerCase().replace(/_/g, ' ') : action;
      throw failedPrecondition(`${named(r, rec)} is already running ${what} (operation ${running.id}); wait for it to end`);
    }
    const effect = w.rules.hooks.work?.(h, rec, kind, req) ?? {};
    const id = uuid();
    const ranBefore = mine.some((x) => x.activity.action === kind && works.progress(x).failed);
    const subject = r.rules.subject ? r.rules.subject(rec) : nameOf(rec);
    const made = works.create(
      { id, scope: rec.id, ...(rec.env ? { env: rec.env } : {}), doc: {}, data: { request: this.kept(op, req) } },
      kind,
      {
        effect,
        operationId: id,
        fail: failsOnPurpose(subject, kind, [...Object.keys(r.lifecycle ?? {}), ...Object.keys(w.lifecycle ?? {})], ranBefore),
      },
    );
    // Work always has an operation record (getOperation by the record it is for), named by its facts or its kind.
    if (!w.lifecycle?.[kind]?.operation) works.operations().recordActivity(rec.id, kind.toUpperCase(), made.activity);
    return this.answer(h, op, b, r, rec, req, { operationId: id });
  }

  /**
   * An operation record of a record (getOperation-style): by the request's
   * `operationId`, or the record's newest; one named by id alone when the
   * request names no record.
   */
  private operation(h: EngineHook, op: Operation, b: Bound, r: ResourceModel, req: Doc): Doc {
    const all = this.records(h, r);
    const id = str(req.operationId);
    const keys = b.keys ?? r.rules.keys;
    const named = keys.some((k) => refOf(req[k]) !== undefined);
    if (!named && !id) throw invalid(`give ${either(['operationId', ...keys])}`);
    const ops = all.operations();
    const found = named ? all.operation(this.locate(h, r, req, b, true), id) : ops.get(id ?? '');
    const owner = all.byId(found.owner);
    const shown = ops.view(found);
    if (b.answer && owner) return this.conform(h.ctx, op.output, b.answer(h, owner, req), `${found.operationId}/${op.name}`);
    if (!owner) return this.conform(h.ctx, op.output, shown, `${found.operationId}/${op.name}`);
    return this.answer(h, op, b, r, owner, req, shown);
  }

  private events(h: EngineHook, op: Operation, r: ResourceModel, rec: EngineRecord, req: Doc): Doc {
    const list = this.outputFields(op).find((f) => f.type.kind === 'list');
    const itemShape = list?.type.of ? this.service.shapes.struct(list.type.of)?.name : undefined;
    const events = this.records(h, r)
      .events(rec)
      .map((e, i) => eventDoc(e, i, rec, r));
    const items = itemShape ? events.map((e, i) => this.conform(h.ctx, itemShape, e, `${rec.id}/event/${i}`)) : events;
    if (op.paging) return this.conform(h.ctx, op.output, paged(h.ctx, req, items), op.name);
    return this.conform(h.ctx, op.output, { ...this.echo(op, req), ...(list ? { [list.name]: items } : {}) }, op.name);
  }

  // ---- answers -------------------------------------------------------------------

  /**
   * The answer of an operation on one record: its response shape filled from
   * the record (a field of the resource's shape gets the record; `vwId`,
   * `crn`, `status`... the record's values), the request (fields it echoes)
   * and the record's operation; conformed to the shape.
   */
  answer(h: EngineHook, op: Operation, b: Bound | undefined, r: ResourceModel, rec: EngineRecord, req: Doc, extra: Doc = {}): Doc {
    if (b?.answer) return this.conform(h.ctx, op.output, b.answer(h, rec, req), `${rec.id}/${op.name}`);
    const view = this.view(h, r, rec);
    const fields = this.outputFields(op);
    const doc: Doc = {};
    const structs = fields.filter((f) => this.service.shapes.struct(f.type));
    for (const f of fields) {
      const v = extra[f.name] ?? this.valueFor(h, f, r, rec, view, req, structs.length === 1);
      if (v !== undefined) doc[f.name] = v;
    }
    return this.conform(h.ctx, op.output, doc, `${rec.id}/${op.name}`);
  }

  /** A record as answers show it: its stored view with its current status, and the fields its `viewing` hook computes (records()). */
  view(h: EngineHook, r: ResourceModel, rec: EngineRecord): Doc {
    return this.records(h, r).view(rec);
  }

  private valueFor(h: EngineHook, f: Field, r: ResourceModel, rec: EngineRecord, view: Doc, req: Doc, onlyStruct: boolean): unknown {
    const shapes = this.service.shapes;
    const s = shapes.struct(f.type);
    if (s) {
      if (s.name === r.shape) return view;
      // A structure the record shows beside its shape (a `show` hook's `clusterStatus`) is placed at its name.
      if (view[f.name] !== undefined) return view[f.name];
      // The one structure of an answer, or one named after the resource, shows the record in that shape.
      if (onlyStruct || f.name.toLowerCase() === r.key.toLowerCase()) return this.conform(h.ctx, s.name, view, rec.id);
      return undefined;
    }
    const k = r.key;
    if (f.name === `${k}Id` || f.name === `${k}ID` || f.name === 'id') return rec.doc[r.fields.id ?? ''] ?? rec.id;
    if (f.name === `${k}Crn` || f.name === `${k}CRN` || f.name === 'crn') return rec.crn;
    if (f.name === `${k}Name`) return rec.name;
    if (f.name === 'operationId' && rec.activity.operationId) return rec.activity.operationId;
    if (view[f.name] !== undefined) return view[f.name];
    if (f.name === r.fields.status || f.name === 'status') return view[r.fields.status ?? ''];
    return req[f.name];
  }

  private outputFields(op: Operation): readonly Field[] {
    const out = this.service.shapes.get(op.output);
    return out.kind === 'struct' ? out.fields : [];
  }

  /** The request's own fields an answer repeats (`environmentName` of opdb listings). */
  private echo(op: Operation, req: Doc): Doc {
    const doc: Doc = {};
    for (const f of this.outputFields(op)) if (req[f.name] !== undefined && !isObject(req[f.name])) doc[f.name] = req[f.name];
    return doc;
  }

  /** The list field of a list answer and its item shape. */
  private listField(op: Operation, r: ResourceModel): { field: string; shape: string } | undefined {
    const lists = this.outputFields(op).flatMap((f) => {
      const of = f.type.kind === 'list' && f.type.of ? this.service.shapes.struct(f.type.of) : undefined;
      return of ? [{ field: f.name, shape: of.name }] : [];
    });
    return lists.find((l) => l.shape === r.shape) ?? lists[0];
  }

  // ---- request -> record ---------------------------------------------------------

  /** The type of a field of the record's shape, by its kind (`int64`). */
  private kindOf(r: ResourceModel, field: string | undefined): string | undefined {
    const s = this.service.shapes.get(r.shape);
    return field && s.kind === 'struct' ? s.byName.get(field)?.type.kind : undefined;
  }

  private nextNumber(ctx: RequestContext, r: ResourceModel): number {
    const key = `engine.seq:${r.kind}:${ctx.info.accountId}`;
    const n = Number(ctx.store.meta(key) ?? 0) + 1;
    ctx.store.setMeta(key, String(n));
    return n;
  }

  /** The name a create gives its resource: the first of the name-like request fields it has (`made`: by the binding). */
  private nameIn(op: Operation, r: ResourceModel, req: Doc, made = false): string | undefined {
    const k = r.key;
    const candidates = [...r.rules.keys.filter((f) => /Name$/.test(f)), `${k}Name`, 'name', r.fields.name ?? ''];
    // A request the binding made holds only what it means; one as sent, only the operation's own fields.
    for (const c of candidates) if (str(req[c]) && (made || this.service.requestShape(op).byName.has(c))) return str(req[c]);
    return undefined;
  }

  /** The request's fields the record's shape has, by name; `<resource>Name` etc. become the shape's own name fields. */
  private fromRequest(op: Operation, r: ResourceModel, req: Doc): Doc {
    const shape = this.service.shapes.get(r.shape);
    if (shape.kind !== 'struct') return {};
    const doc: Doc = {};
    const k = r.key;
    const alias: Record<string, string | undefined> = { [`${k}Name`]: r.fields.name, [`${k}Id`]: r.fields.id, [`${k}Crn`]: r.fields.crn };
    for (const [field, v] of Object.entries(req)) {
      if (v === undefined || v === null) continue;
      const to = shape.byName.has(field) ? field : alias[field];
      if (to && shape.byName.has(to)) doc[to] = v;
    }
    return doc;
  }

  /**
   * The fields an update or action sets: the request's fields the shape has,
   * except those that name the record or its place, the resource's or the
   * entry's own (datalake's actions name a lake by `crn`, which must not
   * become its CRN).
   */
  private patchFrom(h: EngineHook, op: Operation, r: ResourceModel, b: Bound, rec: EngineRecord, req: Doc): Doc {
    const keys = new Set([...r.rules.keys, ...(b.keys ?? []), ...(b.environment ?? []), ...placing(r)]);
    const given: Doc = {};
    for (const [f, v] of Object.entries(this.fromRequest(op, r, req))) if (!keys.has(f) && f !== r.fields.name) given[f] = v;
    if (Object.keys(given).length === 0) return {};
    const merged = this.conform(h.ctx, r.shape, { ...rec.doc, ...given }, rec.id, 'none');
    const patch: Doc = {};
    for (const f of Object.keys(given)) if (merged[f] !== undefined) patch[f] = merged[f];
    return patch;
  }

  /** What a new record is given besides the request: its id, name, CRN, environment, creator and creation time. */
  private made(h: EngineHook, r: ResourceModel, rec: Omit<EngineRecord, 'activity' | 'createdAt'>, place: Place): Doc {
    const f = r.fields;
    const doc: Doc = {};
    if (f.id) doc[f.id] = rec.id;
    if (f.name && rec.name !== undefined) doc[f.name] = rec.name;
    if (f.crn && rec.crn) doc[f.crn] = rec.crn;
    const env = place.env;
    if (env && f.environmentCrn) doc[f.environmentCrn] = env.crn;
    if (env && f.environmentName) doc[f.environmentName] = env.environmentName;
    if (!env && rec.env && f.environmentCrn) doc[f.environmentCrn] = rec.env;
    if (f.created) doc[f.created] = this.timeAs(r, f.created, h.ctx.clock.now());
    if (f.creator) doc[f.creator] = h.ctx.caller.actorCrn;
    return doc;
  }

  /** A time as a field of the record's shape holds it: epoch ms for an integer, else ISO 8601. */
  private timeAs(r: ResourceModel, field: string, ms: number): number | string {
    return ['int64', 'int32', 'double'].includes(this.kindOf(r, field) ?? '') ? ms : new Date(ms).toISOString();
  }

  /** What a record keeps of its create request: every field but the secret ones. */
  private kept(op: Operation, req: Doc): Doc {
    const shape = this.service.requestShape(op);
    const out: Doc = {};
    for (const [k, v] of Object.entries(req)) if (!shape.byName.get(k)?.secret) out[k] = v;
    return out;
  }

  /** A list's filters: request fields (beyond the scope and paging) the records show, compared as given. */
  private filters(h: EngineHook, op: Operation, r: ResourceModel, req: Doc): (rec: EngineRecord) => boolean {
    const skip = new Set([...placing(r), ...(op.paging ? [op.paging.pageSize, op.paging.inputToken] : [])]);
    const shape = this.service.shapes.get(r.shape);
    if (shape.kind !== 'struct') return () => true;
    const tests: Array<[string, unknown]> = [];
    for (const [f, v] of Object.entries(req))
      if (!skip.has(f) && shape.byName.has(f) && (typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number'))
        tests.push([f, v]);
    if (tests.length === 0) return () => true;
    // Compared with what the record shows now: its current status, not the one it last settled in.
    return (rec) => {
      const shown = this.view(h, r, rec);
      return tests.every(([f, v]) => shown[f] === v || (typeof v === 'string' && String(shown[f] ?? '').toLowerCase() === v.toLowerCase()));
    };
  }
}

/**
 * What hooks and code get for one request: the engine's lookups for this
 * service, the records of each
 * resource made once, and the world bound to the request when first read.
 */
class RequestHook implements EngineHook {
  private readonly made = new Map<ResourceModel, Records>();
  private bound?: WorldReads;

  constructor(
    private readonly engine: Engine,
    readonly ctx: RequestContext,
  ) {}

  get world(): WorldReads {
    return (this.bound ??= this.ctx.world.in(this.ctx));
  }

  recordsOf(r: ResourceModel): Records {
    let made = this.made.get(r);
    if (!made) {
      made = this.engine.newRecords(this, r);
      this.made.set(r, made);
    }
    return made;
  }

  records(name: string): Records {
    return this.recordsOf(this.engine.resource(name));
  }

  locate(name: string, req: Doc): EngineRecord {
    return this.engine.locate(this, this.engine.resource(name), req);
  }

  perform(op: string, req: Doc): Doc {
    return this.engine.perform(this, op, req);
  }

  serve(entry: VerbEntry, req: Doc): Doc {
    return this.engine.serveEntry(this, entry, req);
  }

  conform(shape: string, doc: Doc, seed: string): Doc {
    return this.engine.conform(this.ctx, shape, doc, seed);
  }

  crn(name: string, id: string, recordName?: string): string {
    return this.engine.crnOf(this.ctx, this.engine.resource(name), id, recordName);
  }
}

const isUuid = (s: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/** An event of a record in the words event shapes use: when, what, how it ended. */
function eventDoc(e: PastActivity, i: number, rec: EngineRecord, r: ResourceModel): Doc {
  const when = new Date(e.startedAt).toISOString();
  const message = `${named(r, rec)}: ${e.action} ${e.failed ? 'failed' : e.state ? `reached ${e.state}` : 'done'}`;
  const id = `${rec.id}-${i}`;
  const type = e.action.toUpperCase();
  const each = (names: string, v: unknown): Doc => Object.fromEntries(names.split(' ').map((n) => [n, v]));
  return {
    ...each('id eventId', id),
    ...each('time timestamp eventTime createdAt created', when),
    ...each('type eventType', type),
    ...each('message eventMessage description', message),
    ...each('status state', e.state),
    resourceCrn: rec.crn,
  };
}

/**
 * How one operation is served, as the coverage table shows it (coverage.ts):
 * `declared`, a verb on a resource that runs no hand-written code; `hook`,
 * a verb on a resource with the hooks that run for it named; `code`, a
 * hand-written function of the service's own files.
 */
export interface ServedBy {
  readonly how: 'declared' | 'hook' | 'code';
  /** The verb entry (`database.read`, `cluster.act:stop`), or the function. */
  readonly what: string;
  /** The hand-written code a verb entry runs: hooks and entry functions, by name. */
  readonly hooks?: readonly string[];
}

/**
 * A table's engine is derived from its model when it is first used (a
 * request, the world reading what lives in an environment, a contract, the
 * coverage table), not at start: the emulator loads nineteen tables and a
 * run touches a few, and deriving all of them was most of what start-up
 * added over the build before the tables. Every table is still derived and
 * checked by the coverage table's test, which asks how each operation is
 * served.
 */
export function serve(
  service: Service,
  mod: EmulatedService,
): {
  handlers: Record<string, Handler>;
  /** How each operation is served (asked by coverage.ts only). */
  servedBy: (op: string) => ServedBy | undefined;
  /** The kinds of its records that live in environments. */
  dependents: DependentKind[];
  provides: Providers;
} {
  let built: { engine: Engine; handlers: Record<string, Handler>; providers: Providers; lives: DependentKind[] } | undefined;
  const engine = (): NonNullable<typeof built> => {
    if (!built) {
      const e = Engine.of(service, mod);
      built = { engine: e, handlers: e.handlers(), providers: e.providers(mod), lives: e.dependents() };
    }
    return built;
  };
  const handlers: Record<string, Handler> = {};
  for (const op of Object.keys(mod.operations)) handlers[op] = (req, ctx) => (engine().handlers[op] as Handler)(req, ctx);
  const provides: Record<string, (scope: ProviderScope) => unknown> = {};
  for (const name of Object.keys(mod.provides ?? {}))
    provides[name] = (scope) => (engine().providers as Record<string, (scope: ProviderScope) => unknown>)[name]?.(scope);
  const lives: DependentKind = {
    service: service.name,
    noun: service.name,
    in: (scope, environmentCrn) => engine().lives.flatMap((k) => k.in(scope, environmentCrn)),
  };
  return {
    handlers,
    servedBy: (op) => (Object.hasOwn(handlers, op) ? engine().engine.servedBy(op) : undefined),
    dependents: [lives, ...(mod.dependents ?? [])],
    provides: provides as Providers,
  };
}

/** The verb of a binding as the coverage table names it. */
const verbName = (verb: Verb): string => (typeof verb === 'string' ? verb : 'action' in verb ? `act:${verb.action}` : `work:${verb.work}`);
