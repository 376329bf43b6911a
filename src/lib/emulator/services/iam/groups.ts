/** Groups and their members: users and machine users, each a member of any number of groups. */
import type { Doc } from '../../engine/context.js';
import type { Hook, ResourceHooks } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { alreadyExists, invalid, notFound } from '../../errors.js';
import { isCrn } from '../../ids.js';
import { paged } from '../../engine/paging.js';
import { text } from '../../values.js';
import { crnOf, groupsOf, keepsRelations, membersOf, type R, relating } from './iam.js';

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

/** Sets a group's members. */
const saveMembers = (h: Hook<R>, g: EngineRecord, members: readonly string[]): EngineRecord =>
  h.records('group').save({ ...g, data: { ...g.data, members } });

/** Makes an actor a member of a group. */
export function addToGroup(h: Hook<R>, groupRef: string, memberCrn: string): void {
  const g = h.records('group').get(groupRef);
  saveMembers(h, g, [...membersOf(g), memberCrn]);
}

/** Takes an actor out of every group it is in; says which, by CRN. */
export const leaveGroups = (h: Hook<R>, memberCrn: string): string[] =>
  groupsOf(h, memberCrn).map((g) =>
    String(
      saveMembers(
        h,
        g,
        membersOf(g).filter((m) => m !== memberCrn),
      ).crn,
    ),
  );

/** add*ToGroup, remove*FromGroup: the member named (a user by `userId`, else a machine user by `machineUserName`) joins (once) or leaves. */
const membership =
  (joining: boolean) =>
  (h: Hook<R>, sent: Doc): Doc => {
    const member = sent.userId !== undefined ? crnOf(h, 'user', text(sent.userId)) : crnOf(h, 'machineUser', text(sent.machineUserName));
    const g = h.records('group').get(text(sent.groupName));
    const members = membersOf(g);
    if (joining && members.includes(member)) throw alreadyExists(`${member} is already a member of group ${nameOf(g)}`);
    if (!joining && !members.includes(member)) throw notFound(`${member} is not a member of group ${nameOf(g)}`);
    return relating({ groupName: sent.groupName }, { members: joining ? [...members, member] : members.filter((m) => m !== member) });
  };
export const memberAdded = membership(true);
export const memberRemoved = membership(false);

/** listGroupMembers: the group's members, by CRN, in the order they joined. */
export const membersListed = (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): Doc => paged(h.ctx, req, [...membersOf(rec)]);

/** listGroupsForUser, listGroupsForMachineUser: the groups the actor is a member of, by CRN. */
export const groupsOfMember = (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): Doc =>
  paged(
    h.ctx,
    req,
    groupsOf(h, String(rec.crn)).map((g) => String(g.crn)),
  );
