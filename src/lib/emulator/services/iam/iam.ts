/**
 * What every part of iam reads in a request: what the caller may do in iam
 * (the rule access.ts applies), an actor by CRN, the groups of a member, the
 * account's settings, and the relations records keep beside them.
 */
import type { resources } from '../../../model/services/iam/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook, ResourceHooks } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { notFound } from '../../errors.js';
import { str, strings, uniq } from '../../values.js';
import { catalogue } from './catalogue.js';
import { DEFAULT_POLICY } from './passwords.js';
import { KIND, type AccountRecord } from './records.js';

/** iam's resources (model/services/iam/resources.ts). */
export type R = keyof typeof resources.resources;

export type Actor = { readonly resource: 'user' | 'machineUser'; readonly rec: EngineRecord };

/** The account's settings before anything changes them (what getAccount shows; a copy of their own). */
export const defaultAccount = (): Doc => ({
  clouderaSSOLoginEnabled: true,
  clouderaSSOAllLoginEnabled: true,
  workloadPasswordPolicy: { ...DEFAULT_POLICY },
});

/** The built-in roles and resource roles, as the request's region names them. */
export const rolesCatalogue = (h: Hook<R>): ReturnType<typeof catalogue> => catalogue(h.ctx.info.region);

/** The CRN of a user (by id or CRN) or a machine user (by name, id or CRN). */
export const crnOf = (h: Hook<R>, resource: Actor['resource'], ref: string): string => String(h.records(resource).get(ref).doc.crn);

/** A list's records: those the request names by `field` (each must exist), or all of them (the engine's own listing). */
export const named =
  (resource: R, field: string) =>
  (h: Hook<R>, req: Doc): EngineRecord[] | undefined => {
    const refs = uniq(strings(req[field]));
    return refs.length > 0 ? refs.map((ref) => h.records(resource).get(ref)) : undefined;
  };

/** The actor a request names by `actorCrn`, or the caller. */
export const actorOrCaller = (h: Hook<R>, req: Doc): string => str(req.actorCrn) ?? h.ctx.caller.actorCrn;

/** The groups an actor is a member of. */
export const groupsOf = (h: Hook<R>, memberCrn: string): EngineRecord[] =>
  h
    .records('group')
    .all()
    .filter((g) => membersOf(g).includes(memberCrn));

/**
 * What the caller may do in iam: account administrators and holders of
 * PowerUser, IamUser or OwnerAdmin (directly or through a group) may change
 * anything; IamViewer may read.
 */
export function accessLevel(h: Hook<R>): 'admin' | 'viewer' | 'none' {
  const crn = h.ctx.caller.actorCrn;
  const me = h.records('user').peek(crn) ?? h.records('machineUser').peek(crn);
  if (me?.doc.accountAdmin === true) return 'admin';
  // The roles it holds itself or through its groups.
  const held = new Set([me, ...groupsOf(h, crn)].flatMap((x) => (x ? rolesOf(x) : [])));
  const has = (...names: string[]): boolean => names.some((n) => held.has(rolesCatalogue(h).roleCrn(n)));
  return has('PowerUser', 'IamUser', 'OwnerAdmin') ? 'admin' : has('IamViewer') ? 'viewer' : 'none';
}

/** A user's or machine user's record by CRN, and which of the two it is. */
export function actorOf(h: Hook<R>, actorCrn: string): Actor {
  const found = h.ctx.store.idByCrn(actorCrn);
  const resource = found?.kind === KIND.user ? 'user' : found?.kind === KIND.machineUser ? 'machineUser' : undefined;
  const rec = found && resource ? h.records(resource).byId(found.id) : undefined;
  if (!resource || !rec) throw notFound(`no user or machine user has the CRN ${actorCrn}`);
  return { resource, rec };
}

/** The account's settings: its record's document (what getAccount shows) and what iam keeps beside it; the defaults until they change. */
export function accountOf(h: Hook<R>): AccountRecord {
  // Its record (made by its first change: `perAccount`) holds what was set; the defaults stand for the rest.
  const rec = h.records('account').byId(h.ctx.info.accountId);
  return { userWorkloadPasswordChangedNotifications: false, ...defaultAccount(), ...rec?.doc, ...rec?.data } as unknown as AccountRecord;
}

// ---------------------------------------------------------------- relations
/*
 * What iam relates: a group's members, kept beside the group (`members`),
 * and the roles and resource roles assigned to a user, machine user or
 * group, kept beside the assignee (`roles`, `resourceRoles`). A change of
 * one is an update of the record it is kept beside: the entry's rewrite
 * checks it and says what the record then keeps (`relating`), and the
 * resource's `keep.update` keeps it. The other way round (the groups of a
 * member, the assignees of a resource) is read off the records.
 */

/** A resource role on one resource. */
export interface ResourceAssignment {
  readonly resourceCrn: string;
  readonly resourceRoleCrn: string;
}

/** What a record keeps of its relations. */
export interface Relations {
  readonly members?: readonly string[];
  readonly roles?: readonly string[];
  readonly resourceRoles?: readonly ResourceAssignment[];
}

/** The relations a rewrite's request changes, by that request: a request as sent cannot say them. */
const changes = new WeakMap<Doc, Relations>();

/** The request a rewrite made, with the relations its update keeps. */
export function relating(req: Doc, kept: Relations): Doc {
  changes.set(req, kept);
  return req;
}

/** A record's relations as kept. */
export const relationsOf = (rec: Readonly<EngineRecord> | undefined): Relations => (rec?.data ?? {}) as Relations;

/** A group's members, by CRN, in the order they joined. */
export const membersOf = (g: Readonly<EngineRecord>): readonly string[] => relationsOf(g).members ?? [];

/** The roles assigned to a user, machine user or group, by CRN. */
export const rolesOf = (rec: Readonly<EngineRecord>): readonly string[] => relationsOf(rec).roles ?? [];

/** The hooks of a resource whose records keep relations. */
export const keepsRelations: Pick<ResourceHooks<R>, 'keep'> = {
  keep: { update: (_h: Hook<R>, _rec: Readonly<EngineRecord>, req: Doc): Doc => ({ ...changes.get(req) }) },
};
