/**
 * Roles and resource roles: the built-in catalogues (catalogue.ts), and
 * their assignments to users, machine users and groups (a resource role on
 * one resource).
 */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { paged } from '../../paging.js';
import { str, strings, text } from '../../values.js';
import { backendOf, type IamBackend, type R } from './backend.js';

/**
 * The assignee a request names: a user (`user`), a machine user
 * (`machineUserName`) or a group (`groupName`); for a listing of a user's
 * roles that names none, the caller.
 */
function assigneeOf(b: IamBackend, req: Doc, orCaller = false): string {
  if (req.machineUserName !== undefined) return b.machineUser(text(req.machineUserName)).crn;
  if (req.groupName !== undefined) return b.group(text(req.groupName)).crn;
  return orCaller && !str(req.user) ? b.caller.actorCrn : b.user(text(req.user)).crn;
}

export function assignRole(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  b.assignRole(assigneeOf(b, req), text(req.role));
  return {};
}

export function unassignRole(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  b.unassignRole(assigneeOf(b, req), text(req.role));
  return {};
}

export function assignResourceRole(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  b.assignResourceRole(assigneeOf(b, req), text(req.resourceRoleCrn), text(req.resourceCrn));
  return {};
}

export function unassignResourceRole(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  b.unassignResourceRole(assigneeOf(b, req), text(req.resourceRoleCrn), text(req.resourceCrn));
  return {};
}

export function listAssignedRoles(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return paged(h.ctx, req, b.assignedRoles(assigneeOf(b, req, true)));
}

export function listAssignedResourceRoles(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return paged(h.ctx, req, b.assignedResourceRoles(assigneeOf(b, req, true)));
}

export function listResourceAssignees(h: Hook<R>, req: Doc): Doc {
  return paged(h.ctx, req, backendOf(h).resourceAssignees(text(req.resourceCrn)));
}

export function listRoles(h: Hook<R>, req: Doc): Doc {
  return paged(h.ctx, req, backendOf(h).listRoles(strings(req.roleNames)));
}

export function listResourceRoles(h: Hook<R>, req: Doc): Doc {
  return paged(h.ctx, req, backendOf(h).listResourceRoles(strings(req.resourceRoleNames)));
}
