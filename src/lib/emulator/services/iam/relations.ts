/**
 * What iam relates: a group's members, kept beside the group (`members`),
 * and the roles and resource roles assigned to a user, machine user or
 * group, kept beside the assignee (`roles`, `resourceRoles`). A change of
 * one is an update of the record it is kept beside: the entry's rewrite
 * checks it and says what the record then keeps (`relating`), and the
 * resource's `keep.update` keeps it. The other way round (the groups of a
 * member, the assignees of a resource) is read off the records.
 */
import type { Doc } from '../../engine/context.js';
import type { Hook, ResourceHooks } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import type { R } from './iam.js';

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
