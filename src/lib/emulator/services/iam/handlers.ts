/**
 * iam operations: request in, backend call, plain wire response out. Each
 * handler first says what access it needs: `read`/`write` on iam, unless the
 * target is the caller itself (self-service: own user, keys, SSH keys,
 * password). The rules themselves live in backend.ts.
 */
import { perRequest, type Operation } from '../../service.js';
import type { Doc, Handler } from '../../types.js';
import { paged } from '../../paging.js';
import { str as opt, strings as names, text as s } from '../../values.js';
import { IamBackend } from './backend.js';

type Op = Operation<IamBackend>;

const op = perRequest((ctx) => new IamBackend(ctx));

/** Open to every authenticated caller. */
const open = op;
const read =
  (name: string, fn: Op): Handler =>
  (req, ctx) => {
    const b = new IamBackend(ctx);
    b.authorize('read', name);
    return fn(b, req, ctx);
  };
const write =
  (name: string, fn: Op): Handler =>
  (req, ctx) => {
    const b = new IamBackend(ctx);
    b.authorize('write', name);
    return fn(b, req, ctx);
  };

const deleted = (r: ReturnType<IamBackend['deleteUser']>): Doc => ({ ...r });

export const handlers: Record<string, Handler> = {
  // ---------------------------------------------------------------- users
  createUser: write('createUser', (b, req) => ({ user: b.userOut(b.createUser(req)) })),
  getUser: op((b, req) => {
    const u = b.userOrCaller(req.userId);
    b.authorize('read', 'getUser', u.crn);
    return { user: b.userOut(u) };
  }),
  updateUser: write('updateUser', (b, req) => ({ user: b.userOut(b.updateUser(s(req.user), req.active)) })),
  deleteUser: write('deleteUser', (b, req) => deleted(b.deleteUser(s(req.userId)))),
  unlockUserInControlPlane: write('unlockUserInControlPlane', (b, req) => ({ user: b.userOut(b.unlockUser(s(req.user))) })),
  listUsers: read('listUsers', (b, req, ctx) => {
    return paged(ctx, req, b.listUsers(names(req.userIds)), (u) => b.userOut(u));
  }),
  migrateUsersToIdentityProvider: write('migrateUsersToIdentityProvider', (b, req) => ({
    numberOfUpdatedUsers: b.migrateUsers(s(req.originalProviderName), s(req.newProviderName)),
  })),

  // ---------------------------------------------------------------- machine users
  createMachineUser: write('createMachineUser', (b, req) => ({
    machineUser: b.machineUserOut(b.createMachineUser(s(req.machineUserName))),
  })),
  deleteMachineUser: write('deleteMachineUser', (b, req) => deleted(b.deleteMachineUser(s(req.machineUserName)))),
  unlockMachineUserInControlPlane: write('unlockMachineUserInControlPlane', (b, req) => ({
    machineUser: b.machineUserOut(b.unlockMachineUser(s(req.machineUser))),
  })),
  listMachineUsers: read('listMachineUsers', (b, req, ctx) => {
    return paged(ctx, req, b.listMachineUsers(names(req.machineUserNames)), (m) => b.machineUserOut(m));
  }),

  // ---------------------------------------------------------------- groups and membership
  createGroup: write('createGroup', (b, req) => ({ group: b.groupOut(b.createGroup(req)) })),
  updateGroup: write('updateGroup', (b, req) => ({ group: b.groupOut(b.updateGroup(s(req.groupName), req.syncMembershipOnUserLogin)) })),
  deleteGroup: write('deleteGroup', (b, req) => {
    b.deleteGroup(s(req.groupName));
    return {};
  }),
  listGroups: read('listGroups', (b, req, ctx) => {
    return paged(ctx, req, b.listGroups(names(req.groupNames)), (g) => b.groupOut(g));
  }),
  addUserToGroup: write('addUserToGroup', (b, req) => {
    b.addMember(s(req.groupName), b.user(s(req.userId)).crn);
    return {};
  }),
  removeUserFromGroup: write('removeUserFromGroup', (b, req) => {
    b.removeMember(s(req.groupName), b.user(s(req.userId)).crn);
    return {};
  }),
  addMachineUserToGroup: write('addMachineUserToGroup', (b, req) => {
    b.addMember(s(req.groupName), b.machineUser(s(req.machineUserName)).crn);
    return {};
  }),
  removeMachineUserFromGroup: write('removeMachineUserFromGroup', (b, req) => {
    b.removeMember(s(req.groupName), b.machineUser(s(req.machineUserName)).crn);
    return {};
  }),
  listGroupMembers: read('listGroupMembers', (b, req, ctx) => {
    return paged(ctx, req, b.membersOf(b.group(s(req.groupName)).crn));
  }),
  listGroupsForUser: op((b, req, ctx) => {
    const u = b.user(s(req.userId));
    b.authorize('read', 'listGroupsForUser', u.crn);
    return paged(ctx, req, b.groupsOf(u.crn));
  }),
  listGroupsForMachineUser: op((b, req, ctx) => {
    const m = b.machineUser(s(req.machineUserName));
    b.authorize('read', 'listGroupsForMachineUser', m.crn);
    return paged(ctx, req, b.groupsOf(m.crn));
  }),

  // ---------------------------------------------------------------- roles
  assignUserRole: write('assignUserRole', (b, req) => {
    b.assignRole(b.user(s(req.user)).crn, s(req.role));
    return {};
  }),
  unassignUserRole: write('unassignUserRole', (b, req) => {
    b.unassignRole(b.user(s(req.user)).crn, s(req.role));
    return {};
  }),
  assignMachineUserRole: write('assignMachineUserRole', (b, req) => {
    b.assignRole(b.machineUser(s(req.machineUserName)).crn, s(req.role));
    return {};
  }),
  unassignMachineUserRole: write('unassignMachineUserRole', (b, req) => {
    b.unassignRole(b.machineUser(s(req.machineUserName)).crn, s(req.role));
    return {};
  }),
  assignGroupRole: write('assignGroupRole', (b, req) => {
    b.assignRole(b.group(s(req.groupName)).crn, s(req.role));
    return {};
  }),
  unassignGroupRole: write('unassignGroupRole', (b, req) => {
    b.unassignRole(b.group(s(req.groupName)).crn, s(req.role));
    return {};
  }),
  assignUserResourceRole: write('assignUserResourceRole', (b, req) => {
    b.assignResourceRole(b.user(s(req.user)).crn, s(req.resourceRoleCrn), s(req.resourceCrn));
    return {};
  }),
  unassignUserResourceRole: write('unassignUserResourceRole', (b, req) => {
    b.unassignResourceRole(b.user(s(req.user)).crn, s(req.resourceRoleCrn), s(req.resourceCrn));
    return {};
  }),
  assignMachineUserResourceRole: write('assignMachineUserResourceRole', (b, req) => {
    b.assignResourceRole(b.machineUser(s(req.machineUserName)).crn, s(req.resourceRoleCrn), s(req.resourceCrn));
    return {};
  }),
  unassignMachineUserResourceRole: write('unassignMachineUserResourceRole', (b, req) => {
    b.unassignResourceRole(b.machineUser(s(req.machineUserName)).crn, s(req.resourceRoleCrn), s(req.resourceCrn));
    return {};
  }),
  assignGroupResourceRole: write('assignGroupResourceRole', (b, req) => {
    b.assignResourceRole(b.group(s(req.groupName)).crn, s(req.resourceRoleCrn), s(req.resourceCrn));
    return {};
  }),
  unassignGroupResourceRole: write('unassignGroupResourceRole', (b, req) => {
    b.unassignResourceRole(b.group(s(req.groupName)).crn, s(req.resourceRoleCrn), s(req.resourceCrn));
    return {};
  }),
  listUserAssignedRoles: op((b, req, ctx) => {
    const crn = opt(req.user) ? b.user(s(req.user)).crn : b.caller.actorCrn;
    b.authorize('read', 'listUserAssignedRoles', crn);
    return paged(ctx, req, b.assignedRoles(crn));
  }),
  listUserAssignedResourceRoles: op((b, req, ctx) => {
    const crn = opt(req.user) ? b.user(s(req.user)).crn : b.caller.actorCrn;
    b.authorize('read', 'listUserAssignedResourceRoles', crn);
    return paged(ctx, req, b.assignedResourceRoles(crn));
  }),
  listMachineUserAssignedRoles: op((b, req, ctx) => {
    const crn = b.machineUser(s(req.machineUserName)).crn;
    b.authorize('read', 'listMachineUserAssignedRoles', crn);
    return paged(ctx, req, b.assignedRoles(crn));
  }),
  listMachineUserAssignedResourceRoles: op((b, req, ctx) => {
    const crn = b.machineUser(s(req.machineUserName)).crn;
    b.authorize('read', 'listMachineUserAssignedResourceRoles', crn);
    return paged(ctx, req, b.assignedResourceRoles(crn));
  }),
  listGroupAssignedRoles: read('listGroupAssignedRoles', (b, req, ctx) => {
    return paged(ctx, req, b.assignedRoles(b.group(s(req.groupName)).crn));
  }),
  listGroupAssignedResourceRoles: read('listGroupAssignedResourceRoles', (b, req, ctx) => {
    return paged(ctx, req, b.assignedResourceRoles(b.group(s(req.groupName)).crn));
  }),
  listResourceAssignees: read('listResourceAssignees', (b, req, ctx) => {
    return paged(ctx, req, b.resourceAssignees(s(req.resourceCrn)));
  }),
  listRoles: open((b, req, ctx) => {
    return paged(ctx, req, b.listRoles(names(req.roleNames)));
  }),
  listResourceRoles: open((b, req, ctx) => {
    return paged(ctx, req, b.listResourceRoles(names(req.resourceRoleNames)));
  }),

  // ---------------------------------------------------------------- access keys
  createUserAccessKey: op((b, req) => {
    const actorCrn = opt(req.user) ? b.user(s(req.user)).crn : b.caller.actorCrn;
    b.authorize('write', 'createUserAccessKey', actorCrn);
    return b.createAccessKey(actorCrn, req.type);
  }),
  createMachineUserAccessKey: op((b, req) => {
    const m = b.machineUser(s(req.machineUserName));
    b.authorize('write', 'createMachineUserAccessKey', m.crn);
    return b.createAccessKey(m.crn, req.type);
  }),
  getAccessKey: op((b, req) => {
    const k = b.accessKeyOrCurrent(req.accessKeyId);
    b.authorize('read', 'getAccessKey', k.actorCrn);
    return { accessKey: b.keyOut(k) };
  }),
  updateAccessKey: op((b, req) => {
    const k = b.accessKey(s(req.accessKeyId));
    b.authorize('write', 'updateAccessKey', k.actorCrn);
    return { accessKey: b.keyOut(b.updateAccessKey(k.accessKeyId, req.status)) };
  }),
  deleteAccessKey: op((b, req) => {
    const k = b.accessKey(s(req.accessKeyId));
    b.authorize('write', 'deleteAccessKey', k.actorCrn);
    b.deleteAccessKey(k.accessKeyId);
    return {};
  }),
  listAccessKeys: op((b, req, ctx) => {
    // Callers who may not read iam see their own keys only.
    const own = b.accessLevel() === 'none' ? b.caller.actorCrn : undefined;
    return paged(ctx, req, b.listAccessKeys(names(req.accessKeyIds), own), (k) => b.keyOut(k));
  }),

  // ---------------------------------------------------------------- SSH keys
  addSshPublicKey: op((b, req) => {
    const actorCrn = opt(req.actorCrn) ?? b.caller.actorCrn;
    b.authorize('write', 'addSshPublicKey', actorCrn);
    return { sshPublicKey: b.sshKeyOut(b.addSshKey(actorCrn, s(req.publicKey), req.description)) };
  }),
  describeSshPublicKey: op((b, req) => {
    const actorCrn = opt(req.actorCrn) ?? b.caller.actorCrn;
    b.authorize('read', 'describeSshPublicKey', actorCrn);
    return { sshPublicKey: b.sshKeyOut(b.sshKey(actorCrn, s(req.crnOrFingerprint))) };
  }),
  deleteSshPublicKey: op((b, req) => {
    const actorCrn = opt(req.actorCrn) ?? b.caller.actorCrn;
    b.authorize('write', 'deleteSshPublicKey', actorCrn);
    b.deleteSshKey(actorCrn, s(req.crnOrFingerprint));
    return {};
  }),
  listSshPublicKeys: op((b, req) => {
    const actorCrn = opt(req.actorCrn) ?? b.caller.actorCrn;
    b.authorize('read', 'listSshPublicKeys', actorCrn);
    return { sshPublicKeys: b.sshKeys(actorCrn).map((k) => b.sshKeyOut(k)) };
  }),

  // ---------------------------------------------------------------- identity providers
  createSamlProvider: write('createSamlProvider', (b, req) => ({ samlProvider: b.samlProviderOut(b.createSamlProvider(req)) })),
  updateSamlProvider: write('updateSamlProvider', (b, req) => ({ samlProvider: b.samlProviderOut(b.updateSamlProvider(req)) })),
  describeSamlProvider: read('describeSamlProvider', (b, req) => ({
    samlProvider: b.samlProviderOut(b.samlProvider(s(req.samlProviderName))),
  })),
  deleteSamlProvider: write('deleteSamlProvider', (b, req) => {
    b.deleteSamlProvider(s(req.samlProviderName));
    return {};
  }),
  listSamlProviders: read('listSamlProviders', (b, req, ctx) => {
    return paged(ctx, req, b.listSamlProviders(names(req.samlProviderNames)), (x) => b.samlProviderOut(x));
  }),
  setSamlAuthnRequestSigningKey: write('setSamlAuthnRequestSigningKey', (b, req) => b.setAuthnRequestSigningKey(req)),
  setSamlResponseDecryptionKey: write('setSamlResponseDecryptionKey', (b, req) => b.setResponseDecryptionKey(req)),
  createLdapProvider: write('createLdapProvider', (b, req) => ({ ldapProvider: b.ldapProviderOut(b.createLdapProvider(req)) })),
  updateLdapProvider: write('updateLdapProvider', (b, req) => ({ ldapProvider: b.ldapProviderOut(b.updateLdapProvider(req)) })),
  getDefaultIdentityProvider: open((b) => ({ crn: b.defaultIdentityProviderCrn() })),
  setDefaultIdentityProvider: write('setDefaultIdentityProvider', (b, req) => {
    b.setDefaultIdentityProvider(s(req.nameOrCrn));
    return {};
  }),

  // ---------------------------------------------------------------- SCIM tokens
  createScimAccessToken: write('createScimAccessToken', (b, req) =>
    b.createScimToken(s(req.identityProviderNameOrCrn), Number(req.accessTokenLifetimeDays)),
  ),
  listScimAccessTokens: read('listScimAccessTokens', (b, req, ctx) => {
    return paged(ctx, req, b.scimTokens(s(req.identityProviderNameOrCrn)), (t) => b.scimTokenOut(t));
  }),
  deleteScimAccessToken: write('deleteScimAccessToken', (b, req) => {
    b.deleteScimToken(s(req.accessTokenIdOrCrn));
    return {};
  }),

  // ---------------------------------------------------------------- account
  getAccount: open((b) => ({ account: b.accountOut() })),
  enableClouderaSSOLogin: write('enableClouderaSSOLogin', (b) => {
    b.setAccountSwitch('clouderaSSOLoginEnabled', true);
    return {};
  }),
  disableClouderaSSOLogin: write('disableClouderaSSOLogin', (b) => {
    b.setAccountSwitch('clouderaSSOLoginEnabled', false);
    return {};
  }),
  enableUserWorkloadPasswordChangedNotifications: write('enableUserWorkloadPasswordChangedNotifications', (b) => ({
    account: b.accountOut(b.setAccountSwitch('userWorkloadPasswordChangedNotifications', true)),
  })),
  disableUserWorkloadPasswordChangedNotifications: write('disableUserWorkloadPasswordChangedNotifications', (b) => ({
    account: b.accountOut(b.setAccountSwitch('userWorkloadPasswordChangedNotifications', false)),
  })),
  getAccountMessages: open((b) => {
    const m = b.account().contactYourAdministratorMessage;
    return m !== undefined ? { contactYourAdministratorMessage: m } : {};
  }),
  setAccountMessages: write('setAccountMessages', (b, req) => {
    b.setAccountMessages(req.contactYourAdministratorMessage);
    return {};
  }),

  // ---------------------------------------------------------------- workload passwords and tokens
  setWorkloadPasswordPolicy: write('setWorkloadPasswordPolicy', (b, req) => {
    b.setPasswordPolicy(req);
    return {};
  }),
  unsetWorkloadPasswordPolicy: write('unsetWorkloadPasswordPolicy', (b, req) => {
    b.unsetPasswordPolicy(req.unsetGlobalPasswordPolicy, req.unsetMachineUsersPasswordPolicy);
    return {};
  }),
  setWorkloadPassword: op((b, req) => {
    const actorCrn = opt(req.actorCrn) ?? b.caller.actorCrn;
    b.authorize('write', 'setWorkloadPassword', actorCrn);
    b.setWorkloadPassword(actorCrn, s(req.password));
    return {};
  }),
  unsetWorkloadPasswordMinLifetime: write('unsetWorkloadPasswordMinLifetime', (b, req) => {
    b.unsetPasswordMinLifetime(s(req.actorCrn));
    return {};
  }),
  generateWorkloadAuthToken: open((b, req) => b.generateWorkloadToken(req)),
};
