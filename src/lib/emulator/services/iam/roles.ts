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
import { iamOf, type Iam, type R } from './iam.js';
import { relating, relationsOf, type ResourceAssignment } from './relations.js';

export /** The assignee a request names: a user (`user`), a machine user (`machineUserName`) or a group (`groupName`). */
function assigneeOf(h: Hook<R>, req: Doc): EngineRecord {
  if (req.machineUserName !== undefined) return h.records('machineUser').get(text(req.machineUserName));
  if (req.groupName !== undefined) return h.records('group').get(text(req.groupName));
  return h.records('user').get(text(req.user));
}

/** The request fields that name the assignee, as its update reads them. */
const naming = (req: Doc): Doc =>
  req.machineUserName !== undefined
    ? { machineUserName: req.machineUserName }
    : req.groupName !== undefined
      ? { groupName: req.groupName }
      : { user: req.user };

/** A built-in role or resource role by name or CRN, by its CRN. */
function roleCrnOf(iam: Iam, ref: string, resource = false): string {
  const r = resource ? iam.roles.findResourceRole(ref) : iam.roles.findRole(ref);
  if (!r) throw notFound(`${resource ? 'resource role' : 'role'} ${ref} not found`);
  return r.crn;
}

const rolesOf = (rec: Readonly<EngineRecord>): readonly string[] => relationsOf(rec).roles ?? [];
const resourceRolesOf = (rec: Readonly<EngineRecord>): readonly ResourceAssignment[] => relationsOf(rec).resourceRoles ?? [];

/** assign*Role: the role named is the assignee's (once). */
export function roleAssigned(h: Hook<R>, sent: Doc): Doc {
  const a = assigneeOf(h, sent);
  const roleCrn = roleCrnOf(iamOf(h), text(sent.role));
  if (rolesOf(a).includes(roleCrn)) throw alreadyExists(`role ${roleCrn} is already assigned to ${a.crn}`);
  return relating(naming(sent), { roles: [...rolesOf(a), roleCrn] });
}

/** unassign*Role: the role named is taken from the assignee. */
export function roleUnassigned(h: Hook<R>, sent: Doc): Doc {
  const a = assigneeOf(h, sent);
  const roleCrn = roleCrnOf(iamOf(h), text(sent.role));
  if (!rolesOf(a).includes(roleCrn)) throw notFound(`role ${roleCrn} is not assigned to ${a.crn}`);
  return relating(naming(sent), { roles: rolesOf(a).filter((r) => r !== roleCrn) });
}

/** The resource assignment a request names (its resource role must exist; for a new one, its resource must be a CRN). */
function resourceAssignment(h: Hook<R>, req: Doc, isNew = false): ResourceAssignment {
  const resourceCrn = text(req.resourceCrn);
  if (isNew && !isCrn(resourceCrn)) throw invalid(`resourceCrn must be a CRN, not ${resourceCrn.slice(0, 200)}`);
  return { resourceCrn, resourceRoleCrn: roleCrnOf(iamOf(h), text(req.resourceRoleCrn), true) };
}

const same = (x: ResourceAssignment, y: ResourceAssignment): boolean =>
  x.resourceCrn === y.resourceCrn && x.resourceRoleCrn === y.resourceRoleCrn;

/** assign*ResourceRole: the resource role on the resource named is the assignee's (once). */
export function resourceRoleAssigned(h: Hook<R>, sent: Doc): Doc {
  const a = assigneeOf(h, sent);
  const asked = resourceAssignment(h, sent, true);
  if (resourceRolesOf(a).some((x) => same(x, asked))) {
    throw alreadyExists(`resource role ${asked.resourceRoleCrn} on ${asked.resourceCrn} is already assigned to ${a.crn}`);
  }
  return relating(naming(sent), { resourceRoles: [...resourceRolesOf(a), asked] });
}

/** unassign*ResourceRole: the resource role on the resource named is taken from the assignee. */
export function resourceRoleUnassigned(h: Hook<R>, sent: Doc): Doc {
  const a = assigneeOf(h, sent);
  const asked = resourceAssignment(h, sent);
  if (!resourceRolesOf(a).some((x) => same(x, asked))) {
    throw notFound(`resource role ${asked.resourceRoleCrn} on ${asked.resourceCrn} is not assigned to ${a.crn}`);
  }
  return relating(naming(sent), { resourceRoles: resourceRolesOf(a).filter((x) => !same(x, asked)) });
}

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
 * A built-in catalogue as records (never stored: every account sees the
 * same), or the entries of it a request names (each must exist).
 */
function catalogueListing(iam: Iam, all: Array<Doc & { crn: string }>, names: string[], resource: boolean): EngineRecord[] {
  const chosen =
    names.length === 0 ? all : uniq(names).map((n) => all.find((r) => r.crn === roleCrnOf(iam, n, resource)) as Doc & { crn: string });
  return chosen.map((doc) => ({ id: doc.crn, crn: doc.crn, scope: '', doc, createdAt: 0, activity: settledIn('create', '', 0) }));
}

/** listRoles: the roles the request names, or all. */
export function rolesNamed(h: Hook<R>, req: Doc): EngineRecord[] {
  const iam = iamOf(h);
  return catalogueListing(iam, iam.roles.roles(), strings(req.roleNames), false);
}

/** listResourceRoles: the resource roles the request names, or all. */
export function resourceRolesNamed(h: Hook<R>, req: Doc): EngineRecord[] {
  const iam = iamOf(h);
  return catalogueListing(iam, iam.roles.resourceRoles(), strings(req.resourceRoleNames), true);
}
