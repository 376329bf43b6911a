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
import { KIND, type ResourceAssignmentRow, type RoleAssignmentRow } from './records.js';

/**
 * The assignee a request names: a user (`user`), a machine user
 * (`machineUserName`) or a group (`groupName`); for a listing of a user's
 * roles that names none, the caller.
 */
function assigneeOf(iam: Iam, req: Doc, orCaller = false): string {
  if (req.machineUserName !== undefined) return iam.machineUser(text(req.machineUserName)).crn;
  if (req.groupName !== undefined) return iam.group(text(req.groupName)).crn;
  return orCaller && !str(req.user) ? iam.caller.actorCrn : iam.user(text(req.user)).crn;
}

/** A built-in role or resource role by name or CRN, by its CRN. */
function roleCrnOf(iam: Iam, ref: string, resource = false): string {
  const r = resource ? iam.roles.findResourceRole(ref) : iam.roles.findRole(ref);
  if (!r) throw notFound(`${resource ? 'resource role' : 'role'} ${ref} not found`);
  return r.crn;
}

export function assignRole(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const assigneeCrn = assigneeOf(iam, req);
  const roleCrn = roleCrnOf(iam, text(req.role));
  const id = `${assigneeCrn}|${roleCrn}`;
  if (iam.store.get(KIND.roleAssignment, id)) throw alreadyExists(`role ${roleCrn} is already assigned to ${assigneeCrn}`);
  const row: RoleAssignmentRow = { assigneeCrn, roleCrn };
  iam.store.put(KIND.roleAssignment, id, row, { parent: assigneeCrn });
  return {};
}

export function unassignRole(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const assigneeCrn = assigneeOf(iam, req);
  const roleCrn = roleCrnOf(iam, text(req.role));
  if (!iam.store.delete(KIND.roleAssignment, `${assigneeCrn}|${roleCrn}`))
    throw notFound(`role ${roleCrn} is not assigned to ${assigneeCrn}`);
  return {};
}

const byAssignee = (r: ResourceAssignmentRow): string => `a|${r.assigneeCrn}|${r.resourceCrn}|${r.resourceRoleCrn}`;
const byResource = (r: ResourceAssignmentRow): string => `r|${r.resourceCrn}|${r.assigneeCrn}|${r.resourceRoleCrn}`;

/** The resource assignment a request names (its resource role must exist; for a new one, its resource must be a CRN). */
function resourceAssignment(iam: Iam, req: Doc, isNew = false): ResourceAssignmentRow {
  const assigneeCrn = assigneeOf(iam, req);
  const resourceCrn = text(req.resourceCrn);
  if (isNew && !isCrn(resourceCrn)) throw invalid(`resourceCrn must be a CRN, not ${resourceCrn.slice(0, 200)}`);
  return { assigneeCrn, resourceCrn, resourceRoleCrn: roleCrnOf(iam, text(req.resourceRoleCrn), true) };
}

export function assignResourceRole(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const row = resourceAssignment(iam, req, true);
  if (iam.store.get(KIND.resourceAssignment, byAssignee(row))) {
    throw alreadyExists(`resource role ${row.resourceRoleCrn} on ${row.resourceCrn} is already assigned to ${row.assigneeCrn}`);
  }
  iam.store.put(KIND.resourceAssignment, byAssignee(row), row, { parent: `a|${row.assigneeCrn}` });
  iam.store.put(KIND.resourceAssignment, byResource(row), row, { parent: `r|${row.resourceCrn}` });
  return {};
}

export function unassignResourceRole(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const asked = resourceAssignment(iam, req);
  const row = iam.store.get<ResourceAssignmentRow>(KIND.resourceAssignment, byAssignee(asked));
  if (!row) throw notFound(`resource role ${asked.resourceRoleCrn} on ${asked.resourceCrn} is not assigned to ${asked.assigneeCrn}`);
  dropResourceAssignment(iam, row);
  return {};
}

function dropResourceAssignment(iam: Iam, r: ResourceAssignmentRow): void {
  iam.store.delete(KIND.resourceAssignment, byAssignee(r));
  iam.store.delete(KIND.resourceAssignment, byResource(r));
}

/** Takes every role and resource role from an assignee (a deleted actor or group); says which. */
export function unassignAll(iam: Iam, assigneeCrn: string): Doc & { rolesUnassigned: string[] } {
  const rolesUnassigned: string[] = [];
  for (const r of iam.store.children<RoleAssignmentRow>(KIND.roleAssignment, assigneeCrn)) {
    iam.store.delete(KIND.roleAssignment, r.id);
    rolesUnassigned.push(r.doc.roleCrn);
  }
  const resourcesUnassigned: Doc[] = [];
  for (const r of iam.store.children<ResourceAssignmentRow>(KIND.resourceAssignment, `a|${assigneeCrn}`)) {
    dropResourceAssignment(iam, r.doc);
    resourcesUnassigned.push({ resourceCrn: r.doc.resourceCrn, resourceRoleCrn: r.doc.resourceRoleCrn });
  }
  return { rolesUnassigned, resourcesUnassigned };
}

export function listAssignedRoles(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const rows = iam.store.children<RoleAssignmentRow>(KIND.roleAssignment, assigneeOf(iam, req, true));
  return paged(
    h.ctx,
    req,
    rows.map((r) => r.doc.roleCrn),
  );
}

export function listAssignedResourceRoles(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const rows = iam.store.children<ResourceAssignmentRow>(KIND.resourceAssignment, `a|${assigneeOf(iam, req, true)}`);
  return paged(
    h.ctx,
    req,
    rows.map(({ doc: r }) => ({ resourceCrn: r.resourceCrn, resourceRoleCrn: r.resourceRoleCrn })),
  );
}

export function listResourceAssignees(h: Hook<R>, req: Doc): Doc {
  const rows = iamOf(h).store.children<ResourceAssignmentRow>(KIND.resourceAssignment, `r|${text(req.resourceCrn)}`);
  return paged(
    h.ctx,
    req,
    rows.map(({ doc: r }) => ({ assigneeCrn: r.assigneeCrn, resourceRoleCrn: r.resourceRoleCrn })),
  );
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
