/** Groups and their members: users and machine users, each a member of any number of groups. */
import type { Doc } from '../../engine/context.js';
import type { Hook, ResourceHooks } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { alreadyExists, invalid, notFound } from '../../errors.js';
import { isCrn } from '../../ids.js';
import { paged } from '../../engine/paging.js';
import { strings, text, uniq } from '../../values.js';
import { iamOf, type Iam, type R } from './iam.js';
import { keepsRelations, membersOf, relating } from './relations.js';

/** createGroup: a group's name is 1 to 256 characters, not a CRN, and free (checked before the verb, in the words iam uses). */
export function groupNameChecked(h: Hook<R>, sent: Doc): Doc {
  const name = String(sent.groupName);
  if (!name.trim() || isCrn(name) || name.length > 256) throw invalid('a group name must be 1 to 256 characters and not a CRN');
  if (h.records('group').find(name)) throw alreadyExists(`a group named ${name} already exists`);
  return sent;
}

export const groupHooks: ResourceHooks<R> = {
  // A group syncs its members' memberships at their sign-in unless it says otherwise.
  fill: (_h, _rec, req) => (typeof req.syncMembershipOnUserLogin === 'boolean' ? {} : { syncMembershipOnUserLogin: true }),
  ...keepsRelations,
};

/** listGroups: the groups the request names (each must exist), or all of them (the engine's own listing). */
export function groupsNamed(h: Hook<R>, req: Doc): EngineRecord[] | undefined {
  const names = uniq(strings(req.groupNames));
  return names.length > 0 ? names.map((n) => h.records('group').get(n)) : undefined;
}

// ---------------------------------------------------------------- membership

/** Makes an actor a member of a group. */
export function addToGroup(iam: Iam, groupRef: string, memberCrn: string): void {
  const groups = iam.h.records('group');
  const g = groups.get(groupRef);
  groups.save({ ...g, data: { ...g.data, members: [...membersOf(g), memberCrn] } });
}

/** Takes an actor out of every group it is in; says which, by CRN. */
export function leaveGroups(iam: Iam, memberCrn: string): string[] {
  const groups = iam.h.records('group');
  return iam.groupsOf(memberCrn).map((g) => {
    groups.save({ ...g, data: { ...g.data, members: membersOf(g).filter((m) => m !== memberCrn) } });
    return String(g.crn);
  });
}

/** The member a request names: a user by `userId`, else a machine user by `machineUserName`. */
const memberOf = (iam: Iam, req: Doc): string =>
  req.userId !== undefined ? iam.user(text(req.userId)).crn : iam.machineUser(text(req.machineUserName)).crn;

/** addUserToGroup, addMachineUserToGroup: the member named joins the group (once). */
export function memberAdded(h: Hook<R>, sent: Doc): Doc {
  const member = memberOf(iamOf(h), sent);
  const g = h.records('group').get(text(sent.groupName));
  if (membersOf(g).includes(member)) throw alreadyExists(`${member} is already a member of group ${g.name ?? g.id}`);
  return relating({ groupName: sent.groupName }, { members: [...membersOf(g), member] });
}

/** removeUserFromGroup, removeMachineUserFromGroup: the member named leaves the group. */
export function memberRemoved(h: Hook<R>, sent: Doc): Doc {
  const member = memberOf(iamOf(h), sent);
  const g = h.records('group').get(text(sent.groupName));
  if (!membersOf(g).includes(member)) throw notFound(`${member} is not a member of group ${g.name ?? g.id}`);
  return relating({ groupName: sent.groupName }, { members: membersOf(g).filter((m) => m !== member) });
}

/** listGroupMembers: the group's members, by CRN, in the order they joined. */
export const membersListed = (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): Doc => paged(h.ctx, req, [...membersOf(rec)]);

/** listGroupsForUser, listGroupsForMachineUser: the groups the actor is a member of, by CRN. */
export const groupsOfMember = (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): Doc =>
  paged(
    h.ctx,
    req,
    iamOf(h)
      .groupsOf(String(rec.crn))
      .map((g) => String(g.crn)),
  );
