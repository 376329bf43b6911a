/**
 * Who may call which iam operation (the service's `guard`, run before every
 * entry of its table). Account administrators and holders of PowerUser,
 * IamUser or OwnerAdmin (directly or through a group) may change anything;
 * IamViewer may read. Everybody may act on themselves: the operations that
 * name an actor (their own user, keys, SSH keys, workload password) are
 * open to that actor, and some are open to every caller (the role
 * catalogues, the account's settings, workload tokens).
 */
import type { OperationName } from '../../../model/services/iam/wire.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { str } from '../../values.js';
import { IamBackend } from './backend.js';

/** The access an operation needs; `target`, when it acts on one actor, names that actor's CRN (the caller passes for itself). */
interface Need {
  readonly need: 'read' | 'write' | 'open';
  readonly target?: (b: IamBackend, req: Doc) => string;
}

const read: Need = { need: 'read' };
const write: Need = { need: 'write' };
const open: Need = { need: 'open' };

/** The actor a request names by `field` (a CRN), or the caller. */
const actorOrCaller =
  (field: string) =>
  (b: IamBackend, req: Doc): string =>
    str(req[field]) ?? b.caller.actorCrn;
/** A user the request names by `field` (id or CRN), or the caller. */
const userOrCaller =
  (field: string) =>
  (b: IamBackend, req: Doc): string =>
    str(req[field]) ? b.user(String(req[field])).crn : b.caller.actorCrn;
const userNamed = (b: IamBackend, req: Doc): string => b.user(String(req.userId)).crn;
const machineUserNamed = (b: IamBackend, req: Doc): string => b.machineUser(String(req.machineUserName)).crn;
const keyOwner = (b: IamBackend, req: Doc): string => b.accessKey(String(req.accessKeyId)).actorCrn;

const ACCESS: { readonly [op in OperationName]: Need } = {
  createUser: write,
  getUser: { need: 'read', target: (b, req) => b.userOrCaller(req.userId).crn },
  updateUser: write,
  deleteUser: write,
  unlockUserInControlPlane: write,
  listUsers: read,
  migrateUsersToIdentityProvider: write,
  createMachineUser: write,
  deleteMachineUser: write,
  unlockMachineUserInControlPlane: write,
  listMachineUsers: read,
  createGroup: write,
  updateGroup: write,
  deleteGroup: write,
  listGroups: read,
  addUserToGroup: write,
  removeUserFromGroup: write,
  addMachineUserToGroup: write,
  removeMachineUserFromGroup: write,
  listGroupMembers: read,
  listGroupsForUser: { need: 'read', target: userNamed },
  listGroupsForMachineUser: { need: 'read', target: machineUserNamed },
  assignUserRole: write,
  unassignUserRole: write,
  assignMachineUserRole: write,
  unassignMachineUserRole: write,
  assignGroupRole: write,
  unassignGroupRole: write,
  assignUserResourceRole: write,
  unassignUserResourceRole: write,
  assignMachineUserResourceRole: write,
  unassignMachineUserResourceRole: write,
  assignGroupResourceRole: write,
  unassignGroupResourceRole: write,
  listUserAssignedRoles: { need: 'read', target: userOrCaller('user') },
  listUserAssignedResourceRoles: { need: 'read', target: userOrCaller('user') },
  listMachineUserAssignedRoles: { need: 'read', target: machineUserNamed },
  listMachineUserAssignedResourceRoles: { need: 'read', target: machineUserNamed },
  listGroupAssignedRoles: read,
  listGroupAssignedResourceRoles: read,
  listResourceAssignees: read,
  listRoles: open,
  listResourceRoles: open,
  createUserAccessKey: { need: 'write', target: userOrCaller('user') },
  createMachineUserAccessKey: { need: 'write', target: machineUserNamed },
  getAccessKey: { need: 'read', target: (b, req) => b.accessKeyOrCurrent(req.accessKeyId).actorCrn },
  updateAccessKey: { need: 'write', target: keyOwner },
  deleteAccessKey: { need: 'write', target: keyOwner },
  // Callers who may not read iam see their own keys only (listAccessKeys).
  listAccessKeys: open,
  addSshPublicKey: { need: 'write', target: actorOrCaller('actorCrn') },
  describeSshPublicKey: { need: 'read', target: actorOrCaller('actorCrn') },
  deleteSshPublicKey: { need: 'write', target: actorOrCaller('actorCrn') },
  listSshPublicKeys: { need: 'read', target: actorOrCaller('actorCrn') },
  createSamlProvider: write,
  updateSamlProvider: write,
  describeSamlProvider: read,
  deleteSamlProvider: write,
  listSamlProviders: read,
  setSamlAuthnRequestSigningKey: write,
  setSamlResponseDecryptionKey: write,
  createLdapProvider: write,
  updateLdapProvider: write,
  getDefaultIdentityProvider: open,
  setDefaultIdentityProvider: write,
  createScimAccessToken: write,
  listScimAccessTokens: read,
  deleteScimAccessToken: write,
  getAccount: open,
  enableClouderaSSOLogin: write,
  disableClouderaSSOLogin: write,
  enableUserWorkloadPasswordChangedNotifications: write,
  disableUserWorkloadPasswordChangedNotifications: write,
  getAccountMessages: open,
  setAccountMessages: write,
  setWorkloadPasswordPolicy: write,
  unsetWorkloadPasswordPolicy: write,
  setWorkloadPassword: { need: 'write', target: actorOrCaller('actorCrn') },
  unsetWorkloadPasswordMinLifetime: write,
  generateWorkloadAuthToken: open,
};

/** Fails with PERMISSION_DENIED unless the caller may call the operation (on the actor it names). */
export function guard(h: Hook<string>, op: OperationName, req: Doc): void {
  const { need, target } = ACCESS[op];
  if (need === 'open') return;
  const b = new IamBackend(h.ctx);
  b.authorize(need, op, target?.(b, req));
}
