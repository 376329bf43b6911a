/**
 * What every part of iam works with in one request (`iamOf(h)`): the store,
 * clock, caller and the account's settings, its users, machine users and
 * groups as the API shows them, and what the caller may do in iam (the rule
 * access.ts applies).
 */
import type { resources } from '../../../model/services/iam/resources.js';
import type { Clock } from '../../clock.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { forbidden, notFound } from '../../errors.js';
import type { Store } from '../../store.js';
import type { Caller, EmulatorInfo } from '../../types.js';
import { catalogue, type Catalogue } from './catalogue.js';
import { DEFAULT_POLICY } from './passwords.js';
import { membersOf, rolesOf } from './relations.js';
import { KIND, type AccountRecord, type MachineUserRecord, type UserRecord } from './records.js';

/** The account's settings before anything changes them (what getAccount shows; a copy of their own). */
export const defaultAccount = (): Doc => ({
  clouderaSSOLoginEnabled: true,
  clouderaSSOAllLoginEnabled: true,
  workloadPasswordPolicy: { ...DEFAULT_POLICY },
});

/** iam's resources (model/services/iam/resources.ts). */
export type R = keyof typeof resources.resources;

export type Actor = { readonly resource: 'user' | 'machineUser'; readonly rec: EngineRecord };

export class Iam {
  readonly store: Store;
  readonly clock: Clock;
  readonly info: EmulatorInfo;
  readonly caller: Caller;
  readonly roles: Catalogue;
  private level?: 'admin' | 'viewer' | 'none';

  /** iam for a request (`h`). */
  constructor(readonly h: Hook<R>) {
    const ctx = h.ctx;
    this.store = ctx.store;
    this.clock = ctx.clock;
    this.info = ctx.info;
    this.caller = ctx.caller;
    this.roles = catalogue(ctx.info.region);
  }

  // ---------------------------------------------------------------- access

  /**
   * What the caller may do in iam: account administrators and holders of
   * PowerUser, IamUser or OwnerAdmin (directly or through a group) may change
   * anything; IamViewer may read.
   */
  accessLevel(): 'admin' | 'viewer' | 'none' {
    if (this.level) return this.level;
    const me = this.h.records('user').peek(this.caller.actorCrn) ?? this.h.records('machineUser').peek(this.caller.actorCrn);
    if (me?.doc.accountAdmin === true) return (this.level = 'admin');
    // The roles it holds itself or through its groups.
    const roleNames = new Set([me, ...this.groupsOf(this.caller.actorCrn)].flatMap((x) => (x ? rolesOf(x) : [])));
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

  /** A user by id or CRN, as the API shows it. */
  user(ref: string): UserRecord {
    return this.h.records('user').get(ref).doc as UserRecord;
  }

  /** A machine user by name, id or CRN, as the API shows it. */
  machineUser(ref: string): MachineUserRecord {
    return this.h.records('machineUser').get(ref).doc as MachineUserRecord;
  }

  /** An access key by id or CRN: whose it is. */
  accessKey(ref: string): { actorCrn: string } {
    return { actorCrn: String(this.h.records('accessKey').get(ref).doc.actorCrn) };
  }

  /** A user's or machine user's record by CRN, and which of the two it is. */
  actor(actorCrn: string): Actor {
    const found = this.store.idByCrn(actorCrn);
    const resource = found?.kind === KIND.user ? 'user' : found?.kind === KIND.machineUser ? 'machineUser' : undefined;
    const rec = found && resource ? this.h.records(resource).byId(found.id) : undefined;
    if (!resource || !rec) throw notFound(`no user or machine user has the CRN ${actorCrn}`);
    return { resource, rec };
  }

  /** The groups an actor is a member of. */
  groupsOf(memberCrn: string): EngineRecord[] {
    return this.h
      .records('group')
      .all()
      .filter((g) => membersOf(g).includes(memberCrn));
  }

  // ---------------------------------------------------------------- the account

  /** The account's settings: its record's document (what getAccount shows) and what iam keeps beside it; the defaults until they change. */
  account(): AccountRecord {
    const rec = this.h.records('account').byId(this.info.accountId);
    // Its record (made by its first change: `perAccount`) holds what was set; the defaults stand for the rest.
    return { userWorkloadPasswordChangedNotifications: false, ...defaultAccount(), ...rec?.doc, ...rec?.data } as unknown as AccountRecord;
  }
}

/** iam as the request a hook serves sees it. */
export const iamOf = (h: Hook<R>): Iam => new Iam(h);
