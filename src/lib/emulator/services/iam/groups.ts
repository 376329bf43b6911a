/** Groups and their members: users and machine users, each a member of any number of groups. */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { alreadyExists, invalid, notFound } from '../../errors.js';
import { isCrn, uuid } from '../../ids.js';
import { paged, storeListing } from '../../engine/paging.js';
import { strings, text, uniq } from '../../values.js';
import { iamOf, type Iam, type R } from './iam.js';
import { KIND, type GroupRecord, type MembershipRow } from './records.js';
import { unassignAll } from './roles.js';

const groupOut = (g: GroupRecord): Doc => ({
  groupName: g.groupName,
  crn: g.crn,
  creationDate: g.creationDate,
  syncMembershipOnUserLogin: g.syncMembershipOnUserLogin,
});

const putGroup = (iam: Iam, rec: GroupRecord): void =>
  void iam.store.put(KIND.group, rec.groupId, rec, { crn: rec.crn, name: rec.groupName });

/** A new group (createGroup, and createUser's groups that do not exist yet). */
export function createGroupRecord(iam: Iam, req: Doc): GroupRecord {
  const name = String(req.groupName);
  if (!name.trim() || isCrn(name) || name.length > 256) throw invalid('a group name must be 1 to 256 characters and not a CRN');
  if (iam.store.getByName(KIND.group, name)) throw alreadyExists(`a group named ${name} already exists`);
  const id = uuid();
  const rec: GroupRecord = {
    groupId: id,
    groupName: name,
    crn: iam.crn('group', `${name}/${id}`),
    creationDate: iam.now(),
    syncMembershipOnUserLogin: typeof req.syncMembershipOnUserLogin === 'boolean' ? req.syncMembershipOnUserLogin : true,
  };
  putGroup(iam, rec);
  return rec;
}

export const createGroup = (h: Hook<R>, req: Doc): Doc => ({ group: groupOut(createGroupRecord(iamOf(h), req)) });

export function updateGroup(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const g = iam.group(text(req.groupName));
  if (typeof req.syncMembershipOnUserLogin === 'boolean') {
    g.syncMembershipOnUserLogin = req.syncMembershipOnUserLogin;
    putGroup(iam, g);
  }
  return { group: groupOut(g) };
}

export function deleteGroup(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const g = iam.group(text(req.groupName));
  for (const m of membersOf(iam, g.crn)) unlink(iam, g.crn, m);
  unassignAll(iam, g.crn);
  iam.store.delete(KIND.group, g.groupId);
  return {};
}

export function listGroups(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const names = uniq(strings(req.groupNames));
  const all = names.length > 0 ? names.map((n) => iam.group(n)) : storeListing<GroupRecord>(iam.store, KIND.group);
  return paged(h.ctx, req, all, groupOut);
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
