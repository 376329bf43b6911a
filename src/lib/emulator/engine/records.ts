/**
 * The engine's records: one stored document per resource, whatever the
 * service. A record keeps the resource as the model shows it (`doc`, made to
 * conform to the resource's shape when it was created), where it lives
 * (`scope`: its parent's id or its environment's CRN), its lifecycle
 * activity (lifecycle.ts, read off the clock), and the actions it has been
 * through (`past`: events and usage are read from them). Lookups take an id,
 * a name (any case) or a CRN, within a scope when the request gives one.
 */
import { notFound } from '../errors.js';
import { Resources, settledIn, type Activity, type EngineContext, type Lifecycle, type Progress } from '../lifecycle.js';
import type { Listing } from '../paging.js';
import type { Doc } from '../types.js';
import type { ResourceModel } from './derive.js';

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
}

/** An activity of an engine record: success merges `patch` into the record's document. */
type EngineActivity = Activity & { patch?: Doc };

const PAST_KEPT = 100;
const NO_LIFECYCLE: Lifecycle = {};

/** The records of one resource of one service, for one request. */
export class EngineResources {
  private readonly tracked: Resources<EngineRecord>;

  /**
   * `computed` adds the fields other records say of a record to its views
   * (the resource's `viewing` hook).
   */
  constructor(
    private readonly ctx: EngineContext,
    readonly model: ResourceModel,
    private readonly computed?: (r: EngineRecord, view: Doc) => Doc,
  ) {
    const m = model;
    this.tracked = new Resources<EngineRecord>(ctx, {
      kind: m.kind,
      noun: m.noun,
      lifecycle: m.lifecycle ?? NO_LIFECYCLE,
      operations: m.operationKind,
      id: (r) => r.id,
      name: (r) => r.name ?? r.id,
      ...(m.spec.subject ? { subject: m.spec.subject } : {}),
      keys: (r) => ({ ...(r.name !== undefined ? { name: r.name } : {}), ...(r.crn ? { crn: r.crn } : {}), parent: r.scope }),
      began: (r, prev) => {
        // A new record's placeholder (settled in no state) is no action it went through.
        if (!prev.action || prev.tl.steps.length === 0 || (prev.success === '' && prev.applied === true)) return;
        const p = this.tracked.progress(r);
        r.past = [
          ...(r.past ?? []).slice(-(PAST_KEPT - 1)),
          { action: prev.action, startedAt: prev.tl.startedAt, endedAt: Math.min(p.endsAt, this.now), state: p.state, failed: p.failed },
        ];
      },
      ended: (r, end) => this.ended(r, end),
    });
  }

  private get now(): number {
    return this.ctx.clock.now();
  }

  get kind(): string {
    return this.model.kind;
  }

  /** Writes how an action ended into the record's document (its status, why it failed). */
  private ended(r: EngineRecord, end: Progress): void {
    const f = this.model.fields;
    const patch = (r.activity as EngineActivity).patch;
    if (end.succeeded && patch) Object.assign(r.doc, patch);
    if (f.status) r.doc[f.status] = end.state;
    if (f.statusReason) {
      if (end.failed && r.activity.reason) r.doc[f.statusReason] = r.activity.reason;
      else delete r.doc[f.statusReason];
    }
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
    const t = this.tracked;
    const byId = (id: string): EngineRecord | undefined => (asKept ? t.peekById(id) : t.byId(id));
    const byRef = (): EngineRecord | undefined => (asKept ? t.peek(ref) : t.find(ref));
    let r: EngineRecord | undefined;
    if (ref.startsWith('crn:')) r = byRef();
    else {
      r = byId(ref);
      if (!r && scope !== undefined) {
        const id = this.ctx.store.childIdByName(this.kind, scope, ref);
        r = id !== undefined ? byId(id) : undefined;
      } else if (!r) r = byRef();
    }
    if (r && scope !== undefined && r.scope !== scope) return undefined;
    return r;
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
    return this.tracked.byId(id);
  }

  /** Every record in a scope (every one of the account when none is given), settled, in creation order. */
  all(scope?: string): EngineRecord[] {
    return scope === undefined ? this.tracked.all() : this.tracked.children(scope);
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
            const r = this.tracked.byId(row.id);
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
  create(rec: Omit<EngineRecord, 'activity' | 'createdAt'>, action = 'create', opts: { fail?: boolean } = {}): EngineRecord {
    const full = { ...rec, createdAt: this.now } as EngineRecord;
    const lc = this.model.lifecycle;
    if (lc && lc[action]) return this.tracked.create(full, action, opts);
    full.activity = settledIn(action, lc ? (this.model.initialState ?? '') : '', this.now);
    if (this.model.fields.status && this.model.initialState) full.doc[this.model.fields.status] = this.model.initialState;
    return this.tracked.save(full);
  }

  has(action: string): boolean {
    return this.model.lifecycle?.[action] !== undefined;
  }

  /**
   * Starts an action of the lifecycle (its `from` states checked); success
   * sets `patch` on the document. Once a run of the action has failed, the
   * next is a retry: a `fail-<action>-` name fails only the first.
   */
  begin(r: EngineRecord, action: string, opts: { patch?: Doc; anyState?: boolean; fail?: boolean } = {}): Activity {
    const { patch, ...rest } = opts;
    const failedBefore =
      (r.activity.action === action && this.tracked.progress(r).failed) || (r.past ?? []).some((p) => p.action === action && p.failed);
    const act: EngineActivity = this.tracked.begin(r, action, { ...rest, ...(failedBefore ? { retry: true } : {}) });
    if (patch && Object.keys(patch).length > 0) {
      act.patch = patch;
      this.tracked.save(r);
    }
    return act;
  }

  save(r: EngineRecord): EngineRecord {
    return this.tracked.save(r);
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
    this.tracked.save(r);
    return true;
  }

  remove(r: EngineRecord): void {
    this.ctx.store.delete(this.kind, r.id);
  }

  state(r: EngineRecord): string {
    return this.tracked.state(r);
  }

  progress(r: EngineRecord): Progress {
    return this.tracked.progress(r);
  }

  busy(r: EngineRecord): boolean {
    return this.tracked.busy(r);
  }

  /** FAILED_PRECONDITION unless it is in one of the states. */
  require(r: EngineRecord, allowed: readonly string[], what: string): void {
    this.tracked.require(r, allowed, what);
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
      const p = this.tracked.progress(r);
      out[status] = p.state || r.doc[status];
      if (f.statusReason && p.failed && r.activity.reason) out[f.statusReason] = r.activity.reason;
    }
    return this.computed ? Object.assign(out, this.computed(r, out)) : out;
  }

  /** Its actions as events, oldest first: those it has been through, then the current one. */
  events(r: EngineRecord): PastActivity[] {
    const p = this.tracked.progress(r);
    const current: PastActivity = {
      action: r.activity.action,
      startedAt: r.activity.tl.startedAt,
      endedAt: Math.min(p.endsAt, this.now),
      state: p.state,
      failed: p.failed,
    };
    return [...(r.past ?? []), current];
  }
}
