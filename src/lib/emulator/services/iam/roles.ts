/**
 * Roles and resource roles: the built-in catalogues (catalogue.ts), and
 * their assignments to users, machine users and groups (a resource role on
 * one resource).
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { settledIn } from '../../engine/timeline.js';
import { alreadyExists, invalid, notFound } from '../../errors.js';
import { isCrn } from '../../ids.js';
import { paged } from '../../engine/paging.js';
import { str, strings, text, uniq } from '../../values.js';
import { type R, relating, relationsOf, type ResourceAssignment, rolesCatalogue, rolesOf } from './iam.js';

/** The request fields that name an assignee, tried in order, and what each names. */
const ASSIGNEES = { machineUserName: 'machineUser', groupName: 'group', user: 'user' } as const;

/** A built-in role or resource role by name or CRN, by its CRN. */
function roleCrnOf(h: Hook<R>, ref: string, resource = false): string {
  const r = resource ? rolesCatalogue(h).findResourceRole(ref) : rolesCatalogue(h).findRole(ref);
  if (!r) throw notFound(`${resource ? 'resource role' : 'role'} ${ref} not found`);
  return r.crn;
}

const resourceRolesOf = (rec: Readonly<EngineRecord>): readonly ResourceAssignment[] => relationsOf(rec).resourceRoles ?? [];

/**
 * An assignment's change, for roles or resource roles: the assignee the
 * request names (by the fields in ASSIGNEES) gets (once) or loses what it
 * asks for (`asked`, the same as one held when their `key`s are).
 */
function assignment<T>(
  field: 'roles' | 'resourceRoles',
  askedOf: (h: Hook<R>, req: Doc, assigning: boolean) => T,
  key: (x: T) => string,
  what: (x: T) => string,
) {
  return (assigning: boolean) =>
    (h: Hook<R>, sent: Doc): Doc => {
      const by = (Object.keys(ASSIGNEES) as Array<keyof typeof ASSIGNEES>).find((f) => sent[f] !== undefined) ?? 'user';
      const a = h.records(ASSIGNEES[by]).get(text(sent[by]));
      const asked = askedOf(h, sent, assigning);
      const held = (relationsOf(a)[field] ?? []) as readonly T[];
      const others = held.filter((x) => key(x) !== key(asked));
      if (assigning && others.length < held.length) throw alreadyExists(`${what(asked)} is already assigned to ${a.crn}`);
      if (!assigning && others.length === held.length) throw notFound(`${what(asked)} is not assigned to ${a.crn}`);
      return relating({ [by]: sent[by] }, { [field]: assigning ? [...held, asked] : others });
    };
}

const role = assignment(
  'roles',
  (h, req) => roleCrnOf(h, text(req.role)),
  (x) => x,
  (x) => `role ${x}`,
);
/** assign*Role, unassign*Role: the role named is the assignee's (once), or is taken from it. */
export const roleAssigned = role(true);
export const roleUnassigned = role(false);

/** The resource assignment a request names (its resource role must exist; for a new one, its resource must be a CRN). */
function resourceAssignment(h: Hook<R>, req: Doc, assigning: boolean): ResourceAssignment {
  const resourceCrn = text(req.resourceCrn);
  if (assigning && !isCrn(resourceCrn)) throw invalid(`resourceCrn must be a CRN, not ${resourceCrn.slice(0, 200)}`);
  return { resourceCrn, resourceRoleCrn: roleCrnOf(h, text(req.resourceRoleCrn), true) };
}

const resourceRole = assignment(
  'resourceRoles',
  resourceAssignment,
  (x) => `${x.resourceCrn} ${x.resourceRoleCrn}`,
  (x) => `resource role ${x.resourceRoleCrn} on ${x.resourceCrn}`,
);
/** assign*ResourceRole, unassign*ResourceRole: the resource role on the resource named is the assignee's (once), or is taken from it. */
export const resourceRoleAssigned = resourceRole(true);
export const resourceRoleUnassigned = resourceRole(false);

/** What a deleted actor held: its roles and resource roles, which go with its record. */
export const assignmentsOf = (rec: Readonly<EngineRecord>): Doc => ({
  rolesUnassigned: [...rolesOf(rec)],
  resourcesUnassigned: resourceRolesOf(rec).map(({ resourceCrn, resourceRoleCrn }) => ({ resourceCrn, resourceRoleCrn })),
});

/** listUserAssignedRoles: the user named (or the caller). */
export const userOrCaller = (h: Hook<R>, sent: Doc): Doc => ({ ...sent, user: str(sent.user) ?? h.ctx.caller.actorCrn });

/** list*AssignedRoles: the assignee's roles, by CRN. */
export const assignedRoles = (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): Doc => paged(h.ctx, req, [...rolesOf(rec)]);

/** list*AssignedResourceRoles: the assignee's resource roles, each on its resource. */
export const assignedResourceRoles = (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): Doc =>
  paged(h.ctx, req, [...resourceRolesOf(rec)]);

/** listResourceAssignees: who holds a resource role on the resource, read off the users, machine users and groups. */
export function listResourceAssignees(h: Hook<R>, req: Doc): Doc {
  const resourceCrn = text(req.resourceCrn);
  const assignees = (['user', 'machineUser', 'group'] as const).flatMap((kind) =>
    h
      .records(kind)
      .all()
      .flatMap((a) =>
        resourceRolesOf(a)
          .filter((x) => x.resourceCrn === resourceCrn)
          .map((x) => ({ assigneeCrn: String(a.crn), resourceRoleCrn: x.resourceRoleCrn })),
      ),
  );
  return paged(h.ctx, req, assignees);
}

/**
 * listRoles, listResourceRoles: a built-in catalogue as records (never
 * stored: every account sees the same), or the entries of it the request
 * names by `field` (each must exist).
 */
const catalogueListed =
  (resource: boolean, field: string) =>
  (h: Hook<R>, req: Doc): EngineRecord[] => {
    const all: Array<Doc & { crn: string }> = resource ? rolesCatalogue(h).resourceRoles() : rolesCatalogue(h).roles();
    const names = uniq(strings(req[field]));
    const chosen =
      names.length === 0 ? all : names.map((n) => all.find((r) => r.crn === roleCrnOf(h, n, resource)) as Doc & { crn: string });
    return chosen.map((doc) => ({ id: doc.crn, crn: doc.crn, scope: '', doc, createdAt: 0, activity: settledIn('create', '', 0) }));
  };
export const rolesNamed = catalogueListed(false, 'roleNames');
export const resourceRolesNamed = catalogueListed(true, 'resourceRoleNames');
