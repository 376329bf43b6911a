/**
 * The model-driven resource engine: a service module declares its resources
 * (spec.ts), the engine derives the rest from the model (derive.ts) and
 * serves every operation it can place as a standard verb on stored records
 * (records.ts): create, describe, list (paged as the model pages), update,
 * delete (refused while the resource holds others, or cascading with the
 * request's force), the lifecycle's actions (start, stop, suspend,
 * upgrade...) on the emulator clock with the `fail-` rule, and events.
 * Answers are built from the records and conformed to the operation's
 * response shape (conform.ts). See docs/architecture.md.
 */
import type { Operation, Service } from '../../model/service.js';
import type { Field } from '../../model/shapes.js';
import { requireEnvironment, type EnvironmentRecord } from '../environments.js';
import { alreadyExists, failedPrecondition, invalid } from '../errors.js';
import { crn, stableUuid, uuid } from '../ids.js';
import { Operations } from '../lifecycle.js';
import { paged, pagingOf } from '../paging.js';
import type { Doc, Handler, RequestContext, ServiceModule } from '../types.js';
import { runsAtAll, runsOf, type DependentKind, type WorldScope } from '../world.js';
import { Conformer, type FillContext, type FillMode } from './conform.js';
import { deriveService, type ResourceModel, type ServiceModel } from './derive.js';
import { EngineResources, type EngineRecord, type PastActivity } from './records.js';
import type { Binding, EngineSpec, Hook } from './spec.js';

export type { EngineSpec, Hook, ResourceSpec, Binding } from './spec.js';
export type { EngineRecord } from './records.js';
export { EngineResources } from './records.js';

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
/** A request value that names a record: a string, or a number (the id of an int64 id field). */
const refOf = (v: unknown): string | undefined => (typeof v === 'number' && Number.isFinite(v) ? String(v) : str(v));

/** Where a request puts a resource: the scope it lives in, its environment, its parent. */
interface Place {
  /** The scope to look in; undefined: the request does not say (any scope of the account). */
  readonly scope?: string;
  readonly env?: EnvironmentRecord;
  /** As the store keeps it: frozen (EngineResources.peek). */
  readonly parent?: Readonly<EngineRecord>;
  /** The scope in messages: `environment sales-env`. */
  readonly where?: string;
}

/** A service served by the engine: its derived model and a handler per placed operation. */
export class Engine {
  readonly model: ServiceModel;
  private readonly conformer: Conformer;

  constructor(
    readonly service: Service,
    readonly spec: EngineSpec,
  ) {
    this.model = deriveService(service, spec);
    this.conformer = new Conformer(service.shapes);
  }

  /** Handlers for the placed operations and the hand-written ones. */
  handlers(): Record<string, Handler> {
    const out: Record<string, Handler> = {};
    const setup = this.spec.setup;
    for (const [name, b] of this.model.bindings) {
      const op = this.service.operation(name);
      out[name] = (req, ctx) => {
        setup?.(this.hook(ctx));
        return this.serve(op, b, req, ctx);
      };
    }
    for (const [name, fn] of Object.entries(this.spec.handlers ?? {}))
      out[name] = (req, ctx) => {
        const h = this.hook(ctx);
        setup?.(h);
        return fn(h, req);
      };
    Object.assign(out, this.spec.plain ?? {});
    return out;
  }

  /**
   * How an operation of this service is served (coverage.ts): the map that
   * wins at run time (handlers() puts bindings, then `handlers`, then
   * `plain`), and for a binding the hand-written code its verb runs.
   */
  servedBy(name: string): ServedBy | undefined {
    if (Object.hasOwn(this.spec.plain ?? {}, name)) return { how: 'code', what: 'engine plain' };
    if (Object.hasOwn(this.spec.handlers ?? {}, name)) return { how: 'code', what: 'engine handlers' };
    const b = this.model.bindings.get(name);
    if (!b) return undefined;
    const rs = this.resource(b.resource).spec;
    const verb = typeof b.verb === 'object' ? 'action' : b.verb;
    const h = rs.hooks ?? {};
    const hooks = [
      ...(verb === 'create' && h.creating ? ['creating'] : []),
      ...(verb === 'update' && h.updating ? ['updating'] : []),
      ...(verb === 'action' && h.acting ? ['acting'] : []),
      ...(verb === 'delete' && h.deleting ? ['deleting'] : []),
      // A delete's answer shows the record too (answer()), so `viewing` runs for every verb but events.
      ...(verb !== 'events' && h.viewing ? ['viewing'] : []),
      ...(verb === 'create' && rs.newId ? ['newId'] : []),
      ...(rs.scope ? ['scope'] : []),
      ...(rs.within ? ['within.find'] : []),
      ...(b.answer ? ['answer'] : []),
      ...(b.select ? ['select'] : []),
      ...(b.request ? ['request'] : []),
    ];
    const what = `${b.resource}.${verbName(b.verb)}`;
    return hooks.length > 0 ? { how: 'hook', what, hooks } : { how: 'declared', what };
  }

  /** The engine's lookups for one request. */
  hook(ctx: RequestContext): Hook {
    return { ctx, service: this.service, resources: (name) => this.records(ctx, this.resource(name)), engine: this };
  }

  resource(name: string): ResourceModel {
    const r = this.model.resources.get(name);
    if (!r) throw new Error(`${this.service.name} has no resource ${name}`);
    return r;
  }

  /** The records of a resource for a request; their views carry the fields its `viewing` hook computes. */
  records(ctx: RequestContext, r: ResourceModel): EngineResources {
    const viewing = r.spec.hooks?.viewing;
    return new EngineResources(ctx, r, viewing ? (rec, view) => viewing(this.hook(ctx), rec, view) : undefined);
  }

  fill(ctx: RequestContext, seed: string, r?: ResourceModel): FillContext {
    return {
      seed,
      now: ctx.clock.now(),
      service: this.service.name,
      region: ctx.info.region,
      account: ctx.info.accountId,
      ...(r ? { resource: r.crnType } : {}),
    };
  }

  /** A document of a shape, from what is given; absent fields made up by `mode`. */
  conform(ctx: RequestContext, shape: string, value: Doc, seed: string, mode: FillMode = 'required', r?: ResourceModel): Doc {
    return this.conformer.struct(shape, value, this.fill(ctx, seed, r), mode);
  }

  private serve(op: Operation, b: Binding, sent: Doc, ctx: RequestContext): Doc {
    const r = this.resource(b.resource);
    const h = this.hook(ctx);
    const req = b.request ? b.request(h, sent) : sent;
    const verb = b.verb;
    if (verb === 'create') return this.create(h, op, b, r, req);
    if (verb === 'list') return this.list(h, op, b, r, req);
    // A read only shows its record: it gets it as the store keeps it, frozen, without a copy.
    const rec = this.locate(h, r, req, b, verb === 'read');
    if (verb === 'read') return this.answer(h, op, b, r, rec, req);
    if (verb === 'delete') return this.remove(h, op, b, r, rec, req);
    if (verb === 'update') return this.update(h, op, b, r, rec, req);
    if (verb === 'events') return this.events(h, op, r, rec, req);
    return this.act(h, op, b, r, rec, verb.action, req);
  }

  /**
   * Serves one of the operations the engine has placed, as a request would
   * be served: for hand-written operations made of others (a restore that
   * creates what a backup holds). Its hooks and rules apply.
   */
  perform(h: Hook, opName: string, req: Doc): Doc {
    const b = this.model.bindings.get(opName);
    if (!b) throw new Error(`${this.service.name} ${opName} is not an operation the engine serves`);
    const op = this.service.operation(opName);
    const ctx: RequestContext = { ...h.ctx, op: { service: this.service.name, name: op.name, paging: pagingOf(op) } };
    return this.serve(op, b, req, ctx);
  }

  // ---- finding -----------------------------------------------------------------

  /** Where a request puts a resource of `r`: its parent (found, or NOT_FOUND), or its environment. */
  place(h: Hook, r: ResourceModel, req: Doc, envFields?: readonly string[]): Place {
    if (r.parent) {
      const parentKeys = r.parent.spec.keys.filter((k) => refOf(req[k]) !== undefined);
      if (parentKeys.length === 0) return {};
      // The parent only places the record (its id, name and environment): read as kept, frozen.
      const parent = this.locate(h, r.parent, req, undefined, true);
      return { scope: parent.id, parent, where: `${r.parent.noun} ${parent.name ?? parent.id}` };
    }
    const within = r.spec.within;
    if (within) {
      const ref = within.fields.map((f) => str(req[f])).find(Boolean);
      if (!ref) return {};
      return within.find(h, ref);
    }
    if (r.spec.scope) return r.spec.scope(h, req) ?? {};
    const fields = envFields ?? r.spec.environment;
    if (fields) {
      const ref = fields.map((f) => str(req[f])).find(Boolean);
      if (!ref) return {};
      const env = requireEnvironment(h.ctx, ref);
      return { scope: env.crn, env, where: `environment ${env.environmentName}` };
    }
    return { scope: '' };
  }

  /**
   * The record a request names (by the binding's or resource's keys), or
   * NOT_FOUND; `asKept`: frozen, as EngineResources.peek reads it, for a
   * caller that only looks at it.
   */
  locate(h: Hook, r: ResourceModel, req: Doc, b?: Binding, asKept = false): EngineRecord {
    const place = this.place(h, r, req, b?.environment);
    const keys = b?.keys ?? r.spec.keys;
    const ref = keys.map((k) => refOf(req[k])).find(Boolean);
    const all = this.records(h.ctx, r);
    if (!ref) {
      // A resource the scope holds one of (a service enabled in an environment) is named by the scope alone.
      if (place.scope !== undefined && place.scope !== '') {
        const only = all.all(place.scope);
        if (only.length === 1 && only[0]) return only[0];
      }
      throw invalid(`give ${keys.map((k) => `"${k}"`).join(' or ')} to name the ${r.noun}`);
    }
    return all.get(ref, place.scope, place.where, asKept);
  }

  // ---- verbs ---------------------------------------------------------------------

  private create(h: Hook, op: Operation, b: Binding, r: ResourceModel, req: Doc): Doc {
    const place = this.place(h, r, req, b.environment);
    if (r.parent && !place.parent)
      throw invalid(`give ${r.parent.spec.keys.map((k) => `"${k}"`).join(' or ')} to name the ${r.parent.noun} it belongs to`);
    if (r.spec.environment && !place.env && !b.environment)
      throw invalid(`give ${r.spec.environment.map((k) => `"${k}"`).join(' or ')} to name its environment`);
    if (r.spec.within && place.scope === undefined)
      throw invalid(`give ${r.spec.within.fields.map((k) => `"${k}"`).join(' or ')} to name where the ${r.noun} lives`);
    const all = this.records(h.ctx, r);
    const name = this.nameIn(op, r, req, b.request !== undefined);
    if (name !== undefined && r.spec.uniqueNames !== false && all.find(name, place.scope ?? ''))
      throw alreadyExists(`${r.noun} ${name} already exists${place.where ? ` in ${place.where}` : ''}`);
    const id = r.spec.newId?.(h, req) ?? (this.numbered(r) ? String(this.nextNumber(h.ctx, r)) : uuid());
    const rec: Omit<EngineRecord, 'activity' | 'createdAt'> = {
      id,
      ...(name !== undefined ? { name } : {}),
      ...(r.fields.crn
        ? { crn: crn(this.service.name, h.ctx.info.region, h.ctx.info.accountId, r.crnType, isUuid(id) ? id : stableUuid(id)) }
        : {}),
      scope: place.scope ?? '',
      ...(place.env ? { env: place.env.crn } : place.parent?.env ? { env: place.parent.env } : {}),
      doc: {},
      data: { request: this.kept(op, req) },
    };
    rec.doc = this.conform(h.ctx, r.shape, { ...this.fromRequest(op, r, req), ...this.made(h, r, rec, place) }, id, 'known', r);
    r.spec.hooks?.creating?.(h, rec as EngineRecord, req);
    const made = all.create(rec, b.action ?? 'create');
    return this.answer(h, op, b, r, made, req);
  }

  private list(h: Hook, op: Operation, b: Binding, r: ResourceModel, req: Doc): Doc {
    const all = this.records(h.ctx, r);
    const item = this.listField(op, r);
    const view = (rec: EngineRecord): Doc => (item ? this.conform(h.ctx, item.shape, this.view(h, r, rec), rec.id) : this.view(h, r, rec));
    if (b.select) {
      const chosen = b.select(h, req);
      if (op.paging) return this.conform(h.ctx, op.output, paged(h.ctx, req, chosen, view), op.name);
      return this.answerList(h, op, item?.field, chosen.map(view), req);
    }
    const place = this.place(h, r, req, b.environment);
    const keep = this.filters(h, op, r, req);
    if (op.paging) return this.conform(h.ctx, op.output, paged(h.ctx, req, all.listing(place.scope, keep), view), op.name);
    const items = all.all(place.scope).filter(keep).map(view);
    return this.answerList(h, op, item?.field, items, req);
  }

  private answerList(h: Hook, op: Operation, field: string | undefined, items: Doc[], req: Doc): Doc {
    const out: Doc = { ...this.echo(op, req) };
    if (field) out[field] = items;
    return this.conform(h.ctx, op.output, out, op.name);
  }

  private remove(h: Hook, op: Operation, b: Binding, r: ResourceModel, rec: EngineRecord, req: Doc): Doc {
    const all = this.records(h.ctx, r);
    const force = (r.spec.forceFields ?? ['force', 'forced', 'cascade', 'cascading', 'forceDelete']).some((f) => req[f] === true);
    const held = this.held(h.ctx, r, rec);
    // Parts of the record go with it, and so does all it holds when its delete cascades; anything else needs force.
    const blocking = r.spec.cascades ? [] : held.filter((x) => !partOf(x.model, x.rec));
    if (blocking.length > 0 && !force)
      throw failedPrecondition(
        `${r.noun} ${rec.name ?? rec.id} still has ${blocking.map((x) => `${x.model.noun} ${x.rec.name ?? x.rec.id}`).join(', ')}; delete them first, or delete with force`,
      );
    r.spec.hooks?.deleting?.(h, rec, req);
    if (all.has('delete') && !r.spec.singleton) {
      if (rec.activity.action === 'delete' && all.busy(rec))
        throw failedPrecondition(`${r.noun} ${rec.name ?? rec.id} is already being deleted`);
      for (const x of held.reverse()) this.records(h.ctx, x.model).remove(x.rec);
      all.begin(rec, 'delete', { anyState: true, ...(force ? { fail: false } : {}) });
      return this.answer(h, op, b, r, rec, req);
    }
    // The answer shows what was removed, as it was.
    const answer = this.answer(h, op, b, r, rec, req);
    for (const x of held.reverse()) this.records(h.ctx, x.model).remove(x.rec);
    all.remove(rec);
    return answer;
  }

  /** The records a record holds, children before their own children (all of them, deepest last). */
  private held(ctx: WorldScope, r: ResourceModel, rec: EngineRecord): Array<{ model: ResourceModel; rec: EngineRecord }> {
    const out: Array<{ model: ResourceModel; rec: EngineRecord }> = [];
    for (const child of r.children)
      for (const c of new EngineResources(ctx, child).all(rec.id)) {
        out.push({ model: child, rec: c });
        out.push(...this.held(ctx, child, c));
      }
    return out;
  }

  /** The resources that live directly in environments, as the world sees them (world.ts). */
  dependents(): DependentKind[] {
    return [...this.model.resources.values()]
      .filter((r) => r.spec.environment && !r.parent && !r.spec.partOfEnvironment)
      .map((r) => ({
        service: this.service.name,
        noun: r.noun,
        in: (scope: WorldScope, environmentCrn: string) => {
          const all = new EngineResources(scope, r);
          return all.all(environmentCrn).map((rec) => ({
            service: this.service.name,
            noun: r.noun,
            name: rec.name ?? rec.id,
            what: `${r.noun} ${rec.name ?? rec.id}`,
            status: r.lifecycle ? all.state(rec) : '',
            ref: `${r.kind}/${rec.id}`,
            view: () => all.view(rec),
            remove: () => {
              for (const x of this.held(scope, r, rec)) new EngineResources(scope, x.model).remove(x.rec);
              all.remove(rec);
            },
            follow: (change: 'stop' | 'start') => {
              const action = r.spec.follows?.[change] ?? change;
              const spec = r.lifecycle?.[action];
              if (!spec || all.busy(rec) || (spec.from && !spec.from.includes(all.state(rec)))) return false;
              all.begin(rec, action);
              return true;
            },
            ...(r.lifecycle && runsAtAll(r.lifecycle)
              ? {
                  running: () => ({
                    name: rec.name ?? rec.id,
                    crn: rec.crn,
                    runs: runsOf(r.lifecycle ?? {}, all.events(rec), scope.clock.now()),
                    record: rec.doc,
                  }),
                }
              : {}),
          }));
        },
      }));
  }

  private update(h: Hook, op: Operation, b: Binding, r: ResourceModel, rec: EngineRecord, req: Doc): Doc {
    const all = this.records(h.ctx, r);
    const patch = this.patchFrom(h, op, r, rec, req);
    const action = b.action ?? 'update';
    if (all.has(action)) {
      const before = rec.doc;
      rec.doc = { ...rec.doc, ...patch };
      r.spec.hooks?.updating?.(h, rec, req);
      const changed = rec.doc;
      rec.doc = before;
      all.begin(rec, action, { patch: changed });
    } else {
      rec.doc = { ...rec.doc, ...patch };
      r.spec.hooks?.updating?.(h, rec, req);
      all.save(rec);
    }
    return this.answer(h, op, b, r, rec, req);
  }

  private act(h: Hook, op: Operation, b: Binding, r: ResourceModel, rec: EngineRecord, action: string, req: Doc): Doc {
    const all = this.records(h.ctx, r);
    const previous = all.state(rec);
    const there = r.lifecycle?.[action]?.success;
    if (r.spec.idempotent?.includes(action) && there === previous && !all.busy(rec))
      return this.answer(h, op, b, r, rec, req, { previousStatus: previous, previousState: previous });
    const hooked = r.spec.hooks?.acting?.(h, rec, action, req);
    const patch = { ...this.patchFrom(h, op, r, rec, req), ...(hooked ?? {}) };
    if (all.has(action)) all.begin(rec, action, { patch });
    else {
      rec.doc = { ...rec.doc, ...patch };
      all.save(rec);
    }
    // `wasStarted`, `wasStopped`: the action was taken (a refused one answered with an error).
    const taken = Object.fromEntries(
      this.outputFields(op)
        .filter((f) => /^was[A-Z]/.test(f.name))
        .map((f) => [f.name, true]),
    );
    return this.answer(h, op, b, r, rec, req, { previousStatus: previous, previousState: previous, ...taken });
  }

  private events(h: Hook, op: Operation, r: ResourceModel, rec: EngineRecord, req: Doc): Doc {
    const all = this.records(h.ctx, r);
    const out = this.service.shapes.get(op.output);
    const list = out.kind === 'struct' ? out.fields.find((f) => f.type.kind === 'list') : undefined;
    const itemShape = list?.type.of ? this.service.shapes.struct(list.type.of)?.name : undefined;
    const events = all.events(rec).map((e, i) => eventDoc(e, i, rec, r));
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
  answer(h: Hook, op: Operation, b: Binding | undefined, r: ResourceModel, rec: EngineRecord, req: Doc, extra: Doc = {}): Doc {
    if (b?.answer) return this.conform(h.ctx, op.output, b.answer(h, rec, req), `${rec.id}/${op.name}`);
    const view = this.view(h, r, rec);
    const out = this.service.shapes.get(op.output);
    if (out.kind !== 'struct') return {};
    const doc: Doc = {};
    const structs = out.fields.filter((f) => this.service.shapes.struct(f.type));
    for (const f of out.fields) {
      const v = extra[f.name] ?? this.valueFor(h, f, r, rec, view, req, structs.length === 1);
      if (v !== undefined) doc[f.name] = v;
    }
    return this.conform(h.ctx, op.output, doc, `${rec.id}/${op.name}`);
  }

  /** A record as answers show it: its stored view with its current status, and the fields its `viewing` hook computes (records()). */
  view(h: Hook, r: ResourceModel, rec: EngineRecord): Doc {
    return this.records(h.ctx, r).view(rec);
  }

  private valueFor(h: Hook, f: Field, r: ResourceModel, rec: EngineRecord, view: Doc, req: Doc, onlyStruct: boolean): unknown {
    const shapes = this.service.shapes;
    const s = shapes.struct(f.type);
    if (s) {
      if (s.name === r.shape) return view;
      // The one structure of an answer, or one named after the resource, shows the record in that shape.
      if (onlyStruct || f.name === r.key || r.nouns.some((n) => n.toLowerCase() === f.name.toLowerCase()))
        return this.conform(h.ctx, s.name, view, rec.id);
      return undefined;
    }
    const k = r.key;
    if (f.name === `${k}Id` || f.name === `${k}ID` || f.name === 'id') return rec.doc[r.fields.id ?? ''] ?? rec.id;
    if (f.name === `${k}Crn` || f.name === `${k}CRN` || f.name === 'crn') return rec.crn;
    if (f.name === `${k}Name`) return rec.name;
    if (f.name === 'operationId' && rec.activity.operationId) return rec.activity.operationId;
    if (view[f.name] !== undefined) return view[f.name];
    if (f.name === r.fields.status || f.name === 'status') return view[r.fields.status ?? ''];
    const given = req[f.name];
    if (given !== undefined) return given;
    return undefined;
  }

  private outputFields(op: Operation): readonly Field[] {
    const out = this.service.shapes.get(op.output);
    return out.kind === 'struct' ? out.fields : [];
  }

  /** The request's own fields an answer repeats (`environmentName` of opdb listings). */
  private echo(op: Operation, req: Doc): Doc {
    const out = this.service.shapes.get(op.output);
    if (out.kind !== 'struct') return {};
    const doc: Doc = {};
    for (const f of out.fields) if (req[f.name] !== undefined && !isObject(req[f.name])) doc[f.name] = req[f.name];
    return doc;
  }

  /** The list field of a list answer and its item shape. */
  private listField(op: Operation, r: ResourceModel): { field: string; shape: string } | undefined {
    const out = this.service.shapes.get(op.output);
    if (out.kind !== 'struct') return undefined;
    const lists = out.fields.flatMap((f) => {
      const of = f.type.kind === 'list' && f.type.of ? this.service.shapes.struct(f.type.of) : undefined;
      return of ? [{ field: f.name, shape: of.name }] : [];
    });
    return lists.find((l) => l.shape === r.shape) ?? lists[0];
  }

  // ---- request -> record ---------------------------------------------------------

  /** Whether the record's id field is a number (opdb snapshot ids): ids are then 1, 2, 3... per kind. */
  private numbered(r: ResourceModel): boolean {
    const s = this.service.shapes.get(r.shape);
    const t = r.fields.id && s.kind === 'struct' ? s.byName.get(r.fields.id)?.type.kind : undefined;
    return t === 'int32' || t === 'int64';
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
    const candidates = [...r.spec.keys.filter((f) => /Name$/.test(f)), `${k}Name`, 'name', r.fields.name ?? ''];
    // A request the binding made holds only what it means; one as sent, only the operation's own fields.
    for (const c of candidates) if (str(req[c]) && (made || this.requestHas(op, c))) return str(req[c]);
    return undefined;
  }

  private requestHas(op: Operation, field: string): boolean {
    return this.service.requestShape(op).byName.has(field);
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

  /** The fields an update or action sets: the request's fields the shape has, except those that name the resource. */
  private patchFrom(h: Hook, op: Operation, r: ResourceModel, rec: EngineRecord, req: Doc): Doc {
    const keys = new Set([...r.spec.keys, ...(r.spec.environment ?? []), ...(r.spec.within?.fields ?? []), ...(r.parent?.spec.keys ?? [])]);
    const given: Doc = {};
    for (const [f, v] of Object.entries(this.fromRequest(op, r, req))) if (!keys.has(f) && f !== r.fields.name) given[f] = v;
    if (Object.keys(given).length === 0) return {};
    const merged = this.conform(h.ctx, r.shape, { ...rec.doc, ...given }, rec.id, 'none');
    const patch: Doc = {};
    for (const f of Object.keys(given)) if (merged[f] !== undefined) patch[f] = merged[f];
    return patch;
  }

  /** What a new record is given besides the request: its id, name, CRN, environment, creator and creation time. */
  private made(h: Hook, r: ResourceModel, rec: Omit<EngineRecord, 'activity' | 'createdAt'>, place: Place): Doc {
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
    const s = this.service.shapes.get(r.shape);
    const t = s.kind === 'struct' ? s.byName.get(field)?.type.kind : undefined;
    return t === 'int64' || t === 'int32' || t === 'double' ? ms : new Date(ms).toISOString();
  }

  /** What a record keeps of its create request: every field but the secret ones. */
  private kept(op: Operation, req: Doc): Doc {
    const shape = this.service.requestShape(op);
    const out: Doc = {};
    for (const [k, v] of Object.entries(req)) if (!shape.byName.get(k)?.secret) out[k] = v;
    return out;
  }

  /** A list's filters: request fields (beyond the scope and paging) the records show, compared as given. */
  private filters(h: Hook, op: Operation, r: ResourceModel, req: Doc): (rec: EngineRecord) => boolean {
    const skip = new Set([
      ...(r.spec.environment ?? []),
      ...(r.spec.within?.fields ?? []),
      ...(r.parent?.spec.keys ?? []),
      ...(op.paging ? [op.paging.pageSize, op.paging.inputToken] : []),
    ]);
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

  /** The operation records of a service on the engine (getOperation-style calls). */
  operations(ctx: RequestContext): Operations {
    return new Operations(ctx, `${this.service.name}.operation`);
  }
}

/** Whether a record is a part of its parent, which goes with it without force (a default catalog, a workspace's instance group). */
function partOf(model: ResourceModel, rec: EngineRecord): boolean {
  const part = model.spec.partOfParent;
  return typeof part === 'function' ? part(rec) : part === true;
}

const isUuid = (s: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

/** An event of a record in the words event shapes use: when, what, how it ended. */
function eventDoc(e: PastActivity, i: number, rec: EngineRecord, r: ResourceModel): Doc {
  const when = new Date(e.startedAt).toISOString();
  const message = `${r.noun} ${rec.name ?? rec.id}: ${e.action} ${e.failed ? 'failed' : e.state ? `reached ${e.state}` : 'done'}`;
  return {
    id: `${rec.id}-${i}`,
    eventId: `${rec.id}-${i}`,
    time: when,
    timestamp: when,
    eventTime: when,
    createdAt: when,
    created: when,
    type: e.action.toUpperCase(),
    eventType: e.action.toUpperCase(),
    message,
    eventMessage: message,
    description: message,
    status: e.state,
    state: e.state,
    resourceCrn: rec.crn,
  };
}

/**
 * How one operation is served, as the coverage table shows it (coverage.ts):
 * `declared`, a verb on a resource that runs no hand-written code; `hook`,
 * a verb on a resource with the hooks that run for it named; `code`, a
 * hand-written function (or, for a service not moved onto the table yet,
 * the map of hand-written handlers it is in).
 */
export interface ServedBy {
  readonly how: 'declared' | 'hook' | 'code';
  /** The verb entry (`database.read`, `cluster.act:stop`), or the function. */
  readonly what: string;
  /** The hand-written code a verb entry runs: hooks and entry functions, by name. */
  readonly hooks?: readonly string[];
}

/** What a service module serves: the engine's handlers (when it has a spec) and its own, how each is served (asked by coverage.ts only), and the kinds of its records that live in environments. */
export function serve(
  service: Service,
  mod: ServiceModule,
): { handlers: Record<string, Handler>; servedBy: (op: string) => ServedBy | undefined; dependents: DependentKind[] } {
  const engine = mod.engine ? new Engine(service, mod.engine) : undefined;
  const handlers = { ...(engine?.handlers() ?? {}), ...(mod.handlers ?? {}) };
  const servedBy = (op: string): ServedBy | undefined => {
    if (!Object.hasOwn(handlers, op)) return undefined;
    if (Object.hasOwn(mod.handlers ?? {}, op)) return { how: 'code', what: 'module handlers' };
    return engine?.servedBy(op);
  };
  return { handlers, servedBy, dependents: [...(engine?.dependents() ?? []), ...(mod.dependents ?? [])] };
}

/** The verb of a binding as the coverage table names it. */
const verbName = (verb: Binding['verb']): string => (typeof verb === 'object' ? `act:${verb.action}` : verb);
