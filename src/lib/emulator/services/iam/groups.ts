/** Groups and their members: users and machine users, each a member of any number of groups. */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { paged } from '../../paging.js';
import { strings, text } from '../../values.js';
import { backendOf, type IamBackend, type R } from './backend.js';

export function createGroup(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { group: b.groupOut(b.createGroup(req)) };
}

export function updateGroup(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { group: b.groupOut(b.updateGroup(text(req.groupName), req.syncMembershipOnUserLogin)) };
}

export function deleteGroup(h: Hook<R>, req: Doc): Doc {
  backendOf(h).deleteGroup(text(req.groupName));
  return {};
}

export function listGroups(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return paged(h.ctx, req, b.listGroups(strings(req.groupNames)), (g) => b.groupOut(g));
}

/** The member a request names: a user by `userId`, else a machine user by `machineUserName`. */
const memberOf = (b: IamBackend, req: Doc): string =>
  req.userId !== undefined ? b.user(text(req.userId)).crn : b.machineUser(text(req.machineUserName)).crn;

export function addGroupMember(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  b.addMember(text(req.groupName), memberOf(b, req));
  return {};
}

export function removeGroupMember(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  b.removeMember(text(req.groupName), memberOf(b, req));
  return {};
}

export function listGroupMembers(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return paged(h.ctx, req, b.membersOf(b.group(text(req.groupName)).crn));
}

export function listGroupsForMember(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return paged(h.ctx, req, b.groupsOf(memberOf(b, req)));
}
