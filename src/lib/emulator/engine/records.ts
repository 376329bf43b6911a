/**
 * The records of the emulator: THE record API. A resource's records are one
 * stored document each, whatever the service (`EngineRecord`): the resource
 * as the model shows it (`doc`, made to conform to its shape when it was
 * created), where it lives (`scope`: its parent's id or its environment's
 * CRN), its lifecycle activity (timeline.ts, read off the clock), the
 * actions it has been through (`past`: events and runs are read from them),
 * and how its delete ended when the model keeps deleted records. `Records`
 * looks them up by id, a name (any case) or a CRN, within a scope when a
 * request gives one, and settles what it reads: an action that has ended
 * has its effect merged into the document and its end state written, once;
 * a delete that has ended removes the record (`gone`) or keeps it in its
 * deleted state with its name freed, for its retention on the emulator
 * clock (`kept`: model/resources.ts); work beside a record (the `work` verb)
 * brings its effect to the record once it has ended.
 */
import { failedPrecondition, notFound } from '../errors.js';
import { uuid } from '../ids.js';
import type { Listing } from './paging.js';
import type { Doc, RequestContext } from './context.js';
import type { ResourceModel } from './derive.js';
import { Operations, type OperationRecord } from './operations.js';
import { runsOf, spanOf, type Run } from './runs.js';
import { progress, settle, settledIn, start, type Activity, type EngineContext, type Lifecycle, type Progress } from './timeline.js';
import type { StartOptions } from './timeline.js';

/** An action a record has been through. */
export interface PastActivity {
  readonly action: string;
  readonly startedAt: number;
  readonly endedAt: number;
  /** The state it ended in (or was in when the next action began). */
  readonly state: string;
  readonly failed: boolean;
}

export interface EngineRecord {
  /** Its store id, unique in its kind. */
  id: string;
  name?: string;
  crn?: string;
  /** Where it lives: its parent's id, its environment's CRN, or '' (the account). */
  scope: string;
  /** The CRN of the environment it belongs to, directly or through its parent. */
  env?: string;
  /** The resource as the model shows it, without its current status. */
  doc: Doc;
  /** What the service keeps beside it and never shows as is. */
  data?: Doc;
  activity: Activity;
  /** Actions it has been through, oldest first (at most PAST_KEPT). */
  past?: PastActivity[];
  createdAt: number;
  /** When its delete ended, for a resource whose deleted records are kept; `forced`: at once, by a forced delete. */
  deleted?: { readonly at: number; readonly forced?: true };
  /** Work beside a record (the `work` verb): its effect has reached the record it was for. */
  delivered?: true;
}

/**
 * A record of another service as a resource read from the world holds it
 * (a table's `readsFrom`): its names and document, in a scope, simply there.
 */
export function readRecord(
  x: { readonly id: string; readonly name?: string; readonly crn?: string; readonly doc?: Doc },
  scope: string,
): EngineRecord {
  return { ...x, doc: x.doc ?? {}, scope, activity: settledIn('read', '', 0), createdAt: 0 };
}

/** What a message calls a record: its name, else its id. */
export const nameOf = (rec: { readonly id: string; readonly name?: string }): string => rec.name ?? rec.id;

const PAST_KEPT = 100;
const NO_LIFECYCLE: Lifecycle = {};
const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A retention as the model writes it (`1h`, `30m`, `7d`), in ms. */
export function durationMs(text: string): number {
  const m = DURATION.exec(text);
  if (!m) throw new Error(`not a duration: ${text} (a number and s, m, h or d)`);
  return Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? 0);
}

/** Options of an action's start (timeline.ts's, and these). */
export interface BeginOptions extends Pick<StartOptions, 'effect' | 'at' | 'fail' | 'retry' | 'minutes' | 'operationId'> {
  /** Skip the spec's `from` check (e.g. a forced delete). */
  readonly anyState?: boolean;
  /** Who starts it, kept with its operation record. */
  readonly startedBy?: string;
}

const keepsDeleted = (m: ResourceModel): boolean => m.facts?.deleted?.ends === 'kept';

/** Writes how an action ended into a record's document (its status, why it failed), and a kept delete's end. */
function ended(m: ResourceModel, r: EngineRecord, end: Progress): void {
  const f = m.fields;
  // Stored before state format 3, an engine activity named its effect `patch`: it is applied as the effect it is.
  const stored = (r.activity as Activity & { patch?: Doc }).patch;
  if (end.succeeded && stored && !r.activity.effect) Object.assign(r.doc, stored);
  if (f.status) r.doc[f.status] = end.state;
  if (f.statusReason) {
    if (end.failed && r.activity.reason) r.doc[f.statusReason] = r.activity.reason;
    else delete r.doc[f.statusReason];
  }
  if (end.succeeded && r.activity.action === 'delete' && keepsDeleted(m)) r.deleted = { at: end.endsAt };
}

/** Removes a record, and what its service keeps under its id or CRN in the kinds `with_` (as their id or their parent). */
function goneWith(ctx: EngineContext, r: EngineRecord, kind: string, with_: readonly string[]): void {
  ctx.store.delete(kind, r.id);
  const keys = r.crn ? [r.id, r.crn] : [r.id];
  for (const k of with_)
    for (const key of keys) {
      ctx.store.delete(k, key);
      for (const part of ctx.store.children(k, key)) ctx.store.delete(k, part.id);
    }
}

/** The records of one resource of one service, for one request. */
export class Records {
  private readonly retention?: number;
  private readonly lifecycle: Lifecycle;
  /** The actions the fail- rule knows a `fail-<action>-` name by: its own, its work's and others' it names (`failsFor`). */
  private readonly failActions?: readonly string[];

  /**
   * `computed` adds the fields other records say of a record to its views
   * (the resource's `show` hook).
   */
  constructor(
    private readonly ctx: EngineContext,
    readonly model: ResourceModel,
    private readonly computed?: (r: EngineRecord, view: Doc) => Doc,
  ) {
    const deleted = model.facts?.deleted;
    if (deleted?.ends === 'kept' && deleted.retention) this.retention = durationMs(deleted.retention);
    this.lifecycle = model.lifecycle ?? NO_LIFECYCLE;
    // `fail-renew-` names work of a record (or `fail-restore-`, an action of others it names): its own actions do not fail for it.
    if (model.work || model.rules.failsFor)
      this.failActions = [...Object.keys(this.lifecycle), ...Object.keys(model.work?.lifecycle ?? {}), ...(model.rules.failsFor ?? [])];
  }

  private get now(): number {
    return this.ctx.clock.now();
  }

  /** Who the request is from, when it is a request (what operation records keep of who started them). */
  private get caller(): string | undefined {
    return (this.ctx as Partial<RequestContext>).caller?.actorCrn || undefined;
  }

  get kind(): string {
    return this.model.kind;
  }

  /** Whether its deleted records stay visible (the model's `kept` deletion end). */
  get keepsDeleted(): boolean {
    return keepsDeleted(this.model);
  }

  /** Whether a record's delete has ended and it is kept in its deleted state. */
  isDeleted(r: Readonly<EngineRecord>): boolean {
    return r.deleted !== undefined;
  }

  /** A kept deleted record past its retention: it is gone (removed now, as the read that finds it). */
  private expired(r: Readonly<EngineRecord>): boolean {
    if (!r.deleted || this.retention === undefined || this.now < r.deleted.at + this.retention) return false;
    this.ctx.store.delete(this.kind, r.id);
    return true;
  }

  /** A record as read: undefined when its retention is over; work beside it delivered. */
  private read<R extends Readonly<EngineRecord>>(r: R | undefined): R | undefined {
    if (!r || this.expired(r)) return undefined;
    return this.model.work && !Object.isFrozen(r) ? (this.settleWork(r as EngineRecord) as R) : r;
  }

  /**
   * Brings what ended work beside a record changed to the record, once
   * (the `work` verb: a certificate renewed, a version moved on).
   */
  private settleWork(r: EngineRecord): EngineRecord {
    const w = this.model.work;
    if (!w) return r;
    const works = new Records(this.ctx, w);
    let changed = false;
    for (const x of works.all(r.id)) {
      const p = works.progress(x);
      if (x.delivered || !p.done) continue;
      if (p.succeeded && x.activity.effect) Object.assign(r.doc, x.activity.effect);
      x.delivered = true;
      works.save(x);
      changed = true;
    }
    if (changed) this.save(r);
    return r;
  }

  /** Whether a record has ended work not yet delivered to it (a read that looks must then read a copy). */
  private undelivered(id: string): boolean {
    const w = this.model.work;
    if (!w) return false;
    return this.ctx.store.children<EngineRecord>(w.kind, id).some((x) => !x.doc.delivered && progress(x.doc.activity, this.now).done);
  }

  /** By CRN, id or name (any case); within a scope when one is given. */
  find(ref: string, scope?: string): EngineRecord | undefined {
    return this.lookup(ref, scope, false);
  }

  /**
   * As find, but the record as the store keeps it: frozen (Store.peek), no
   * copy made. For a read that only shows it (a describe, its parent).
   */
  peek(ref: string, scope?: string): Readonly<EngineRecord> | undefined {
    return this.lookup(ref, scope, true);
  }

  private lookup(ref: string, scope: string | undefined, asKept: boolean): EngineRecord | undefined {
    const kept = asKept && !this.model.work;
    const byId = (id: string): EngineRecord | undefined =>
      this.read(kept && !this.undelivered(id) ? this.peekById(id) : this.settledById(id));
    let r: EngineRecord | undefined;
    if (ref.startsWith('crn:')) {
      const hit = this.ctx.store.idByCrn(ref);
      const id = hit?.kind === this.kind ? hit.id : undefined;
      r = id !== undefined ? byId(id) : undefined;
    } else r = byId(ref) ?? this.byName(ref, scope, byId);
    if (r && scope !== undefined && r.scope !== scope) return undefined;
    return r;
  }

  /**
   * By name (any case), within a scope when one is given: the live record
   * that has it, else the newest deleted one that is kept (a name is free
   * once its record is deleted, and still finds it until another takes it).
   */
  private byName(name: string, scope: string | undefined, byId: (id: string) => EngineRecord | undefined): EngineRecord | undefined {
    if (!this.keepsDeleted) {
      const id = scope !== undefined ? this.ctx.store.childIdByName(this.kind, scope, name) : this.ctx.store.idByName(this.kind, name);
      return id !== undefined ? byId(id) : undefined;
    }
    let deleted: EngineRecord | undefined;
    for (const id of this.ctx.store.idsByName(this.kind, name, scope)) {
      const r = byId(id);
      if (r && !r.deleted) return r;
      deleted ??= r;
    }
    return deleted;
  }

  /**
   * By CRN, id or name, or NOT_FOUND naming what was looked for (and where);
   * `asKept`: as peek finds it.
   */
  get(ref: string, scope?: string, where?: string, asKept = false): EngineRecord {
    const r = this.lookup(ref, scope, asKept);
    if (!r) throw notFound(`${this.model.noun} ${ref.slice(0, 200)} not found${where ? ` in ${where}` : ''}`);
    return r;
  }

  byId(id: string): EngineRecord | undefined {
    return this.read(this.settledById(id));
  }

  /** Every record in a scope (every one of the account when none is given), settled, in creation order. */
  all(scope?: string): EngineRecord[] {
    const rows =
      scope === undefined ? this.ctx.store.list<EngineRecord>(this.kind) : this.ctx.store.children<EngineRecord>(this.kind, scope);
    return rows.flatMap((x) => this.read(this.settled(x.doc)) ?? []);
  }

  /** The records in a scope as a paged listing: one range scan a page. */
  listing(scope?: string, keep: (r: EngineRecord) => boolean = () => true): Listing<EngineRecord> {
    const store = this.ctx.store;
    return {
      read: (after, count) => {
        const out: Array<{ item: EngineRecord; position: number }> = [];
        let from = after;
        // Records removed as they settle, or left out by `keep`, make a page read more.
        for (;;) {
          const rows =
            scope === undefined
              ? store.list<EngineRecord>(this.kind, from, count)
              : store.childrenAfter<EngineRecord>(this.kind, scope, from, count);
          for (const row of rows) {
            const r = this.byId(row.id);
            if (r && keep(r)) out.push({ item: r, position: row.seq });
            if (out.length === count) return out;
          }
          if (rows.length < count) return out;
          from = rows[rows.length - 1]?.seq ?? from;
        }
      },
    };
  }

  /** Stores a new record; with a lifecycle, its first action (`create`) starts now. */
  create(rec: Omit<EngineRecord, 'activity' | 'createdAt'>, action = 'create', opts: BeginOptions = {}): EngineRecord {
    const full = { ...rec, createdAt: this.now } as EngineRecord;
    const lc = this.model.lifecycle;
    if (lc && lc[action]) {
      // Its first action's `from` is not checked: it has no state yet.
      full.activity = settledIn(action, '', this.now);
      this.start(full, action, { ...opts, anyState: true, ...(this.caller ? { startedBy: this.caller } : {}) });
      return full;
    }
    full.activity = settledIn(action, lc ? (this.model.initialState ?? '') : '', this.now);
    if (this.model.fields.status && this.model.initialState) full.doc[this.model.fields.status] = this.model.initialState;
    return this.save(full);
  }

  /** A record as `create` would make it, not kept: what a read shows of one its first change will make. */
  unsaved(rec: Omit<EngineRecord, 'activity' | 'createdAt'>): EngineRecord {
    return { ...rec, createdAt: this.now, activity: settledIn('create', this.model.initialState ?? '', this.now) };
  }

  has(action: string): boolean {
    return this.model.lifecycle?.[action] !== undefined;
  }

  /**
   * Starts an action of the lifecycle (its `from` states checked); success
   * sets `effect` on the document. Once a run of the action has failed, the
   * next is a retry: a `fail-<action>-` name fails only the first.
   */
  begin(r: EngineRecord, action: string, opts: BeginOptions = {}): Activity {
    const { effect, ...rest } = opts;
    const failedBefore =
      (r.activity.action === action && this.progress(r).failed) || (r.past ?? []).some((p) => p.action === action && p.failed);
    return this.start(r, action, {
      ...rest,
      ...(effect && Object.keys(effect).length > 0 ? { effect } : {}),
      ...(failedBefore ? { retry: true } : {}),
      ...(this.caller ? { startedBy: this.caller } : {}),
    });
  }

  /** Ends a record's delete now, in its deleted state (a forced delete that ends at once, of a resource that keeps deleted records). */
  endDeleted(r: EngineRecord, forced: boolean): void {
    const kept = this.model.facts?.deleted;
    const state = kept?.ends === 'kept' ? kept.status : (this.model.lifecycle?.delete?.success ?? '');
    // The action it was in goes to its past, as an action that begins puts it there.
    this.began(r, r.activity);
    r.activity = settledIn('delete', state, this.now);
    const f = this.model.fields;
    if (f.status) r.doc[f.status] = state;
    r.deleted = { at: this.now, ...(forced ? { forced: true as const } : {}) };
    this.save(r);
  }

  save(r: EngineRecord): EngineRecord {
    // A deleted record that is kept keeps its name too: a name finds a live record first (byName).
    const keys = { ...(r.name !== undefined ? { name: r.name } : {}), ...(r.crn ? { crn: r.crn } : {}), parent: r.scope };
    this.ctx.store.put(this.kind, r.id, r, keys);
    return r;
  }

  /**
   * Ends the action under way now, in its failure state, for `reason` (a
   * workflow cancelled on request): its timeline keeps the states it has
   * passed and ends now. False when no action that can fail is under way.
   */
  abort(r: EngineRecord, reason: string): boolean {
    const act = r.activity;
    if (!this.busy(r) || act.failure === '') return false;
    const elapsed = this.now - act.tl.startedAt;
    const passed = act.tl.steps.slice(0, -1).filter((s) => s.afterMs <= elapsed);
    act.tl = { startedAt: act.tl.startedAt, steps: [...passed, { afterMs: elapsed, state: act.failure }] };
    act.reason = reason;
    this.save(r);
    return true;
  }

  remove(r: EngineRecord): void {
    this.ctx.store.delete(this.kind, r.id);
  }

  state(r: EngineRecord): string {
    return this.progress(r).state;
  }

  progress(r: EngineRecord): Progress {
    return progress(r.activity, this.now);
  }

  /** Whether an action is still under way. */
  busy(r: EngineRecord): boolean {
    return !this.progress(r).done;
  }

  /** FAILED_PRECONDITION unless it is in one of the states. */
  require(r: EngineRecord, allowed: readonly string[], what: string): void {
    const state = this.state(r);
    if (!allowed.includes(state))
      throw failedPrecondition(`${this.model.noun} ${nameOf(r)} is ${state}; ${what} needs it ${allowed.join(' or ')}`);
  }

  /**
   * The record as its shape shows it: the document with its current status
   * and its computed fields, in one new object; the document itself (as
   * kept, perhaps frozen) when there is nothing to add to it.
   */
  view(r: EngineRecord): Doc {
    const f = this.model.fields;
    const status = f.status && this.model.lifecycle ? f.status : undefined;
    if (!status && !this.computed) return r.doc;
    const out: Doc = { ...r.doc };
    if (status) {
      const p = this.progress(r);
      out[status] = p.state || r.doc[status];
      if (f.statusReason && p.failed && r.activity.reason) out[f.statusReason] = r.activity.reason;
    }
    return this.computed ? Object.assign(out, this.computed(r, out)) : out;
  }

  /** Its actions as events, oldest first: those it has been through, then the current one. */
  events(r: EngineRecord): PastActivity[] {
    return [...(r.past ?? []), spanOf(r.activity, this.now)];
  }

  /** When it ran (its instances up), on the emulator clock: what usage is computed from. */
  runs(r: EngineRecord): Run[] {
    return runsOf(this.model.lifecycle ?? NO_LIFECYCLE, this.events(r), this.now);
  }

  /** The operation records of its service (getOperation-style calls). */
  operations(): Operations {
    return new Operations(this.ctx, this.model.operationKind ?? `${this.model.service}.operation`);
  }

  /** A record's operation by id, or its newest; NOT_FOUND when it has none or the id is another's. */
  operation(r: EngineRecord, operationId?: string): OperationRecord {
    return this.operations().ofOwner(r.id, `${this.model.noun} ${nameOf(r)}`, operationId);
  }

  // ---- how an action begins and ends ------------------------------------------------------

  /** Whether reading the record now applies the end of its action (a write): settled() would change it. */
  private unsettled(r: EngineRecord): boolean {
    return !r.activity.applied && progress(r.activity, this.now).done;
  }

  /** A record read from the store with the end of its action applied, once; undefined once its end removed it. */
  private settled(r: EngineRecord): EngineRecord | undefined {
    if (!this.unsettled(r)) return r;
    const m = this.model;
    // An engine record's effect is fields of its document; work's reaches its parent instead (settleWork).
    const end = settle(r, this.now, (x, effect) => {
      if (!m.rules.work) Object.assign(x.doc, effect);
    });
    if (!end) return r;
    ended(m, r, end);
    if (end.succeeded && this.lifecycle[r.activity.action]?.removes === true) {
      // What the service keeps under the record by hand goes with it (a resource's `goneWith`).
      if (m.rules.goneWith) goneWith(this.ctx, r, this.kind, m.rules.goneWith);
      else this.ctx.store.delete(this.kind, r.id);
      return undefined;
    }
    this.save(r);
    return r;
  }

  private settledById(id: string): EngineRecord | undefined {
    const r = this.ctx.store.get<EngineRecord>(this.kind, id);
    return r ? this.settled(r) : undefined;
  }

  /**
   * By id, as kept (frozen: Store.peek), for a caller that only looks at it.
   * One whose action has ended since it was last written is read as byId
   * reads it, so that the end is applied and saved once.
   */
  private peekById(id: string): EngineRecord | undefined {
    const r = this.ctx.store.peek<EngineRecord>(this.kind, id);
    if (!r) return undefined;
    return this.unsettled(r as EngineRecord) ? this.settledById(id) : (r as EngineRecord);
  }

  /** Keeps the action a record ends as one it went through (a new record's placeholder is none). */
  private began(r: EngineRecord, prev: Activity): void {
    if (!prev.action || prev.tl.steps.length === 0 || (prev.success === '' && prev.applied === true)) return;
    r.past = [...(r.past ?? []).slice(-(PAST_KEPT - 1)), spanOf(prev, this.now)];
  }

  /** Starts an action on a record: checks the state it may start from, records its operation, saves. */
  private start(r: EngineRecord, action: string, opts: BeginOptions): Activity {
    const spec = this.lifecycle[action];
    if (!spec) throw new Error(`no action ${action} for ${this.model.noun}`);
    const current = this.state(r);
    if (spec.from && !opts.anyState) this.require(r, spec.from, action);
    const operations = this.model.operationKind;
    const act = start(this.lifecycle, action, this.now, {
      subject: this.model.rules.subject ? this.model.rules.subject(r) : nameOf(r),
      ...(this.failActions ? { actions: this.failActions } : {}),
      subjectNoun: `${this.model.noun} name`,
      current,
      ...opts,
      operationId: spec.operation && operations ? (opts.operationId ?? uuid()) : undefined,
    });
    // Work's operations are its parent's (getOperation names the parent).
    if (spec.operation && operations && act.operationId)
      new Operations(this.ctx, operations).recordActivity(
        this.model.rules.work ? r.scope : r.id,
        spec.operation,
        act,
        opts.startedBy ? { startedBy: opts.startedBy } : {},
      );
    this.began(r, r.activity);
    r.activity = act;
    this.save(r);
    return act;
  }
}
