/**
 * What the environments service's code works with in one request: its
 * environments (the table's `environment` records, whose documents are
 * `EnvRecord`s: records.ts), read with their status as of now; the
 * account's side (account.ts); credentials and
 * proxy configurations by name.
 */
import { notFound } from '../../errors.js';
import { Operations } from '../../engine/operations.js';
import type { EngineRecord, Records } from '../../engine/records.js';
import type { BackendContext, Doc } from '../../types.js';
import type { Hook } from '../../engine/declare.js';
import type { resources } from '../../../model/services/environments/resources.js';
import { AccountPart } from './account.js';
import { preCreate } from './pre-created.js';
import type { CredentialRec, EnvRecord } from './records.js';

/** The resources of the service's table (model/services/environments/resources.ts). */
export type R = keyof typeof resources.resources;

/** The store kind of the operation records of environments and their FreeIPA's work (getOperation). */
export const OPERATION_KIND = 'environments.operation';

export class EnvironmentsBackend {
  readonly operations: Operations;
  readonly account: AccountPart;
  readonly ctx: BackendContext;
  /** The record each environment this request read is the document of (save). */
  private readonly recordOf = new WeakMap<EnvRecord, EngineRecord>();

  constructor(readonly h: Hook<R>) {
    this.ctx = h.ctx;
    preCreate(h);
    this.operations = new Operations(h.ctx, OPERATION_KIND);
    this.account = new AccountPart(this);
  }

  /** The environments' records. */
  get envs(): Records {
    return this.h.records('environment');
  }

  /** A credential by name or CRN (the table's `credential` records). */
  credential(ref: string): CredentialRec {
    return this.h.records('credential').get(ref).doc as unknown as CredentialRec;
  }

  /** The name of a proxy configuration a name (any case) or CRN names (the table's `proxyConfig` records). */
  proxyName(ref: string): string {
    return this.h.records('proxyConfig').get(ref).name ?? ref;
  }

  /** The record of the environment a name (any case) or CRN names, if the account has it. */
  find(ref: string): EngineRecord | undefined {
    const rec = this.envs.find(ref);
    if (!rec || (ref.startsWith('crn:') && ref.split(':')[4] !== this.ctx.info.accountId)) return undefined;
    return rec;
  }

  /** The record of the environment a request names, or NOT_FOUND naming the environments there are. */
  record(ref: string): EngineRecord {
    const rec = this.find(ref);
    if (rec) return rec;
    const names = this.envs.all().map((e) => e.name ?? e.id);
    throw notFound(`environment ${ref.slice(0, 200)} not found; this account has ${names.length > 0 ? names.join(', ') : 'none'}`);
  }

  /** An environment as code reads it: its document with its status as of now (and why it failed, when it did). */
  of(rec: Readonly<EngineRecord>): EnvRecord {
    const e = { ...(rec.doc as unknown as EnvRecord), status: this.envs.state(rec as EngineRecord) };
    const p = this.envs.progress(rec as EngineRecord);
    if (p.failed && rec.activity.reason) e.statusReason = rec.activity.reason;
    this.recordOf.set(e, rec as EngineRecord);
    return e;
  }

  /** The environment a request names, with its current status; NOT_FOUND naming the account's environments. */
  environment(ref: string): EnvRecord {
    return this.of(this.record(ref));
  }

  /** Every environment of the account with its current status, in creation order. */
  environments(): EnvRecord[] {
    return this.envs.all().map((r) => this.of(r));
  }

  /** Keeps what code changed of an environment it read. */
  save(e: EnvRecord): void {
    const rec = this.recordOf.get(e);
    if (!rec) throw new Error(`environment ${e.environmentName} was not read in this request`);
    // The status it settled in stays the engine's to write.
    const { status: _status, statusReason: _reason, ...doc } = e;
    const { status, statusReason } = rec.doc;
    rec.doc = { ...(doc as unknown as Doc), status, ...(statusReason !== undefined ? { statusReason } : {}) };
    this.envs.save(rec);
  }

  /** Whether an action of the environment is under way. */
  busy(e: EnvRecord): boolean {
    const rec = this.recordOf.get(e);
    return rec !== undefined && this.envs.busy(rec);
  }

  /** FAILED_PRECONDITION unless the environment is in one of the states. */
  require(e: EnvRecord, allowed: readonly string[], what: string): void {
    const rec = this.recordOf.get(e) ?? this.record(e.crn);
    this.envs.require(rec, allowed, what);
  }
}

/** The backend of the request a table entry serves. */
export const backendOf = (h: Hook<R>): EnvironmentsBackend => new EnvironmentsBackend(h);

/** A code entry over the backend, named as the function is (the coverage table shows it; an unnamed one, by its operation). */
export function onBackend(fn: (b: EnvironmentsBackend, req: Doc, h: Hook<R>) => Doc): (h: Hook<R>, req: Doc) => Doc {
  return Object.defineProperty((h: Hook<R>, req: Doc): Doc => fn(backendOf(h), req, h), 'name', { value: fn.name });
}
