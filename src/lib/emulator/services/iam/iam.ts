/**
 * What every part of iam works with in one request (`iamOf(h)`): the store,
 * clock, caller and account, the CRNs iam mints, its records by id, name or
 * CRN, and what the caller may do in iam (the rule access.ts applies).
 */
import type { resources } from '../../../model/services/iam/resources.js';
import type { Clock } from '../../clock.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { forbidden, notFound } from '../../errors.js';
import { crn, isCrn } from '../../ids.js';
import type { Store } from '../../store.js';
import type { Caller, EmulatorInfo } from '../../types.js';
import { catalogue, type Catalogue } from './catalogue.js';
import { DEFAULT_POLICY } from './passwords.js';
import {
  KIND,
  type AccountRecord,
  type MachineUserRecord,
  type MembershipRow,
  type RoleAssignmentRow,
  type UserRecord,
} from './records.js';

/** The account's settings before anything changes them. */
export const ACCOUNT_DEFAULTS = {
  clouderaSSOLoginEnabled: true,
  clouderaSSOAllLoginEnabled: true,
  workloadPasswordPolicy: DEFAULT_POLICY,
  userWorkloadPasswordChangedNotifications: false,
} as const;

/** The account's settings before anything changes them (a copy of their own). */
export const defaultAccount = (): AccountRecord => ({ ...ACCOUNT_DEFAULTS, workloadPasswordPolicy: { ...DEFAULT_POLICY } });

/** The account's settings as its record holds them: the document getAccount shows, and what iam keeps beside it. */
export function accountDoc(a: AccountRecord): { doc: Doc; kept: Doc } {
  const { clouderaSSOLoginEnabled, clouderaSSOAllLoginEnabled, workloadPasswordPolicy, machineUserWorkloadPasswordPolicy, ...kept } = a;
  const doc: Doc = { clouderaSSOLoginEnabled, clouderaSSOAllLoginEnabled, workloadPasswordPolicy };
  if (machineUserWorkloadPasswordPolicy) doc.machineUserWorkloadPasswordPolicy = machineUserWorkloadPasswordPolicy;
  return { doc, kept };
}

/** iam's resources (model/services/iam/resources.ts). */
export type R = keyof typeof resources.resources;

type Actor = { kind: 'user'; rec: UserRecord } | { kind: 'machineUser'; rec: MachineUserRecord };

export class Iam {
  readonly store: Store;
  readonly clock: Clock;
  readonly info: EmulatorInfo;
  readonly caller: Caller;
  readonly roles: Catalogue;
  private level?: 'admin' | 'viewer' | 'none';

  /** iam for a request (`h`), acting as `actorCrn` when given (a sign-in acts on the user's own behalf). */
  constructor(
    readonly h: Hook<R>,
    actorCrn?: string,
  ) {
    const ctx = h.ctx;
    this.store = ctx.store;
    this.clock = ctx.clock;
    this.info = ctx.info;
    this.caller = actorCrn === undefined ? ctx.caller : { ...ctx.caller, actorCrn };
    this.roles = catalogue(ctx.info.region);
  }

  /** A CRN of the account's, in the `altus` partition. */
  crn(type: string, id: string): string {
    return crn('iam', this.info.region, this.info.accountId, type, id, 'altus');
  }

  now(): string {
    return this.clock.iso();
  }

  // ---------------------------------------------------------------- access

  /**
   * What the caller may do in iam: account administrators and holders of
   * PowerUser, IamUser or OwnerAdmin (directly or through a group) may change
   * anything; IamViewer may read.
   */
  accessLevel(): 'admin' | 'viewer' | 'none' {
    if (this.level) return this.level;
    const found = this.store.getByCrn<UserRecord | MachineUserRecord>(this.caller.actorCrn);
    if (found?.kind === KIND.user && (found.doc as UserRecord).accountAdmin) return (this.level = 'admin');
    const holders = [this.caller.actorCrn, ...this.groupsOf(this.caller.actorCrn)];
    const roleNames = new Set<string>();
    for (const h of holders) for (const r of this.store.children<RoleAssignmentRow>(KIND.roleAssignment, h)) roleNames.add(r.doc.roleCrn);
    const has = (name: string): boolean => roleNames.has(this.roles.roleCrn(name));
    if (has('PowerUser') || has('IamUser') || has('OwnerAdmin')) return (this.level = 'admin');
    if (has('IamViewer')) return (this.level = 'viewer');
    return (this.level = 'none');
  }

  /** Fails with PERMISSION_DENIED unless the caller may read (or change) iam, or acts on itself. */
  authorize(need: 'read' | 'write', operation: string, target?: string): void {
    if (target !== undefined && target === this.caller.actorCrn) return;
    const level = this.accessLevel();
    if (level === 'admin' || (level === 'viewer' && need === 'read')) return;
    throw forbidden(`${this.caller.actorCrn} is not allowed to call iam ${operation}`);
  }

  // ---------------------------------------------------------------- lookups

  /** A record of a kind by CRN, or by its id (`by: 'id'`) or name; undefined when there is none. */
  find<T>(kind: string, ref: string, by: 'id' | 'name' = 'name'): T | undefined {
    if (isCrn(ref)) return this.byCrn<T>(ref, kind);
    return by === 'id' ? this.store.get<T>(kind, ref) : this.store.getByName<T>(kind, ref);
  }

  /** As find, or NOT_FOUND naming it as `what`. */
  need<T>(kind: string, ref: string, what: string, by: 'id' | 'name' = 'name'): T {
    const rec = this.find<T>(kind, ref, by);
    if (!rec) throw notFound(`${what} ${ref} not found`);
    return rec;
  }

  byCrn<T>(ref: string, kind: string): T | undefined {
    const found = this.store.getByCrn<T>(ref);
    return found?.kind === kind ? found.doc : undefined;
  }

  user(ref: string): UserRecord {
    return this.need<UserRecord>(KIND.user, ref, 'user', 'id');
  }

  /** A machine user by name, id or CRN, as the API shows it. */
  machineUser(ref: string): MachineUserRecord {
    return this.h.records('machineUser').get(ref).doc as MachineUserRecord;
  }

  /** A group by name, id or CRN: its CRN and name. */
  group(ref: string): { crn: string; groupName: string } {
    const g = this.h.records('group').get(ref);
    return { crn: String(g.crn), groupName: g.name ?? g.id };
  }

  /** An access key by id or CRN: whose it is. */
  accessKey(ref: string): { actorCrn: string } {
    return { actorCrn: String(this.h.records('accessKey').get(ref).doc.actorCrn) };
  }

  /** A user or machine user by CRN. */
  actor(actorCrn: string): Actor {
    const found = this.store.getByCrn<UserRecord | MachineUserRecord>(actorCrn);
    if (found?.kind === KIND.user) return { kind: 'user', rec: found.doc as UserRecord };
    if (found?.kind === KIND.machineUser)
      return { kind: 'machineUser', rec: (found.doc as unknown as EngineRecord).doc as MachineUserRecord };
    throw notFound(`no user or machine user has the CRN ${actorCrn}`);
  }

  /** The user named, or the caller when no user is named. */
  userOrCaller(ref: unknown): UserRecord {
    if (typeof ref === 'string' && ref) return this.user(ref);
    const me = this.actor(this.caller.actorCrn);
    if (me.kind !== 'user') throw notFound(`the caller ${this.caller.actorCrn} is a machine user, not a user`);
    return me.rec;
  }

  /** The groups an actor is a member of, by CRN. */
  groupsOf(memberCrn: string): string[] {
    return this.store.children<MembershipRow>(KIND.membership, `m|${memberCrn}`).map((r) => r.doc.groupCrn);
  }

  // ---------------------------------------------------------------- the account

  /** The account's settings: its record's document (what getAccount shows) and what iam keeps beside it; the defaults until they change. */
  account(): AccountRecord {
    const rec = this.h.records('account').byId(this.info.accountId);
    // Its record (made by its first change: `perAccount`) holds what was set; the defaults stand for the rest.
    return { ...defaultAccount(), ...rec?.doc, ...rec?.data } as unknown as AccountRecord;
  }

  putAccount(a: AccountRecord): void {
    const { doc, kept } = accountDoc(a);
    const accounts = this.h.records('account');
    const rec = accounts.byId(this.info.accountId);
    if (rec) accounts.save({ ...rec, doc, data: kept });
    else accounts.create({ id: this.info.accountId, scope: '', doc, data: kept });
  }
}

/** iam as the request a hook serves sees it. */
export const iamOf = (h: Hook<R>): Iam => new Iam(h);
