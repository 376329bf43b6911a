/** Groups and their members: users and machine users, each a member of any number of groups. */
import type { Doc } from '../../engine/context.js';
import type { Hook, ResourceHooks } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { verbs } from '../../engine/table.js';
import { alreadyExists, invalid, notFound } from '../../errors.js';
import { isCrn } from '../../ids.js';
import { paged } from '../../engine/paging.js';
import { strings, text, uniq } from '../../values.js';
import { iamOf, type Iam, type R } from './iam.js';
import { KIND, type MembershipRow } from './records.js';
import { unassignAll } from './roles.js';

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
};

/** deleteGroup: its members leave it and its roles are taken from it, then it goes. */
export function deleteGroup(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const g = iam.group(text(req.groupName));
  for (const m of membersOf(iam, g.crn)) unlink(iam, g.crn, m);
  unassignAll(iam, g.crn);
  return h.serve(verbs<R>('group').delete(), req);
}

/** listGroups: the groups the request names (each must exist), or all. */
export function groupsNamed(h: Hook<R>, req: Doc): EngineRecord[] {
  const names = uniq(strings(req.groupNames));
  const groups = h.records('group');
  return names.length > 0 ? names.map((n) => groups.get(n)) : groups.all();
}

// ---------------------------------------------------------------- membership

/** Makes an actor a member of a group: one row under each. */
export function addToGroup(iam: Iam, groupCrn: string, memberCrn: string): void {
  const row: MembershipRow = { groupCrn, memberCrn };
  iam.store.put(KIND.membership, `g|${groupCrn}|${memberCrn}`, row, { parent: `g|${groupCrn}` });
  iam.store.put(KIND.membership, `m|${memberCrn}|${groupCrn}`, row, { parent: `m|${memberCrn}` });
}

function unlink(iam: Iam, groupCrn: string, memberCrn: string): void {
  iam.store.delete(KIND.membership, `g|${groupCrn}|${memberCrn}`);
  iam.store.delete(KIND.membership, `m|${memberCrn}|${groupCrn}`);
}

/** Takes an actor out of every group it is in; says which. */
export function leaveGroups(iam: Iam, memberCrn: string): string[] {
  const groups = iam.groupsOf(memberCrn);
  for (const g of groups) unlink(iam, g, memberCrn);
  return groups;
}

const isMember = (iam: Iam, groupCrn: string, memberCrn: string): boolean =>
  iam.store.get(KIND.membership, `g|${groupCrn}|${memberCrn}`) !== undefined;

const membersOf = (iam: Iam, groupCrn: string): string[] =>
  iam.store.children<MembershipRow>(KIND.membership, `g|${groupCrn}`).map((r) => r.doc.memberCrn);

/** The member a request names: a user by `userId`, else a machine user by `machineUserName`. */
const memberOf = (iam: Iam, req: Doc): string =>
  req.userId !== undefined ? iam.user(text(req.userId)).crn : iam.machineUser(text(req.machineUserName)).crn;

export function addGroupMember(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const member = memberOf(iam, req);
  const g = iam.group(text(req.groupName));
  if (isMember(iam, g.crn, member)) throw alreadyExists(`${member} is already a member of group ${g.groupName}`);
  addToGroup(iam, g.crn, member);
  return {};
}

export function removeGroupMember(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const member = memberOf(iam, req);
  const g = iam.group(text(req.groupName));
  if (!isMember(iam, g.crn, member)) throw notFound(`${member} is not a member of group ${g.groupName}`);
  unlink(iam, g.crn, member);
  return {};
}

export function listGroupMembers(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  return paged(h.ctx, req, membersOf(iam, iam.group(text(req.groupName)).crn));
}

export function listGroupsForMember(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  return paged(h.ctx, req, iam.groupsOf(memberOf(iam, req)));
}
