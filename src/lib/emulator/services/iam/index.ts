/**
 * The iam service on the operation table: users, machine users, groups,
 * role and resource role assignments, access keys, SSH keys, identity
 * providers and SCIM tokens, the account's settings, workload passwords and
 * workload tokens. Who may call what is its `guard` (access.ts); what it
 * tells the rest of the emulator, who is who, is provides.ts.
 */
import type { OperationName } from '../../../model/services/iam/wire.js';
import { resources } from '../../../model/services/iam/resources.js';
import { code, defineService } from '../../engine/table.js';
import { guard } from './access.js';
import * as account from './account.js';
import * as groups from './groups.js';
import * as keys from './keys.js';
import * as providers from './providers.js';
import { defaultAccount, named } from './iam.js';
import { identities } from './provides.js';
import * as roles from './roles.js';
import * as ssh from './ssh.js';
import * as users from './users.js';

export default defineService<OperationName>()({
  service: 'iam',
  crnPartition: 'altus',
  facts: resources,
  resources: {
    user: { keys: ['userId', 'user'], hooks: users.userHooks },
    machineUser: { noun: 'machine user', keys: ['machineUserName', 'machineUser'], crnTail: 'name/id', hooks: users.machineUserHooks },
    group: { keys: ['groupName'], crnTail: 'name/id', hooks: groups.groupHooks },
    accessKey: { noun: 'access key', keys: ['accessKeyId'], hooks: keys.accessKeyHooks },
    samlProvider: {
      noun: 'SAML provider',
      keys: ['samlProviderName', 'samlProvider', 'identityProviderNameOrCrn'],
      crnTail: 'name/id',
      // Its SCIM access tokens go with it.
      deletes: { cascades: true },
      hooks: providers.samlProviderHooks,
    },
    ldapProvider: { noun: 'LDAP provider', keys: ['ldapProviderName'], crnTail: 'name/id', hooks: providers.ldapProviderHooks },
    sshPublicKey: { noun: 'SSH public key', keys: ['crnOrFingerprint'], hooks: ssh.sshPublicKeyHooks },
    scimAccessToken: {
      noun: 'SCIM access token',
      keys: ['accessTokenIdOrCrn'],
      lives: { in: 'parent', parent: 'samlProvider' },
      hooks: providers.scimAccessTokenHooks,
    },
    role: { keys: ['role'] },
    resourceRole: { keys: ['resourceRoleCrn'] },
    policy: { keys: ['policyCrn'] },
    account: { keys: [], perAccount: defaultAccount, hooks: account.accountHooks },
  },
  guard,
  provides: { identities },
  operations: (r) => ({
    createUser: r.user.create({ rewrite: users.userAsked, answer: users.userJoined }),
    getUser: r.user.read({ rewrite: users.userNamedOrCaller }),
    updateUser: r.user.update({ keys: ['user'], rewrite: users.userSwitched }),
    deleteUser: r.user.delete({ keys: ['userId'], answer: users.actorStateRemoved }),
    unlockUserInControlPlane: r.user.update({ keys: ['user'], rewrite: users.userUnlocked }),
    listUsers: r.user.list({ select: named('user', 'userIds') }),
    migrateUsersToIdentityProvider: code(users.migrateUsers),
    createMachineUser: r.machineUser.create({ rewrite: users.machineUserNameChecked }),
    deleteMachineUser: r.machineUser.delete({ answer: users.actorStateRemoved }),
    unlockMachineUserInControlPlane: r.machineUser.update({ keys: ['machineUser'], rewrite: users.machineUserUnlocked }),
    listMachineUsers: r.machineUser.list({ select: named('machineUser', 'machineUserNames') }),

    createGroup: r.group.create({ rewrite: groups.groupNameChecked }),
    updateGroup: r.group.update(),
    deleteGroup: r.group.delete(),
    listGroups: r.group.list({ select: named('group', 'groupNames') }),
    addUserToGroup: r.group.update({ keys: ['groupName'], rewrite: groups.memberAdded }),
    removeUserFromGroup: r.group.update({ keys: ['groupName'], rewrite: groups.memberRemoved }),
    addMachineUserToGroup: r.group.update({ keys: ['groupName'], rewrite: groups.memberAdded }),
    removeMachineUserFromGroup: r.group.update({ keys: ['groupName'], rewrite: groups.memberRemoved }),
    listGroupMembers: r.group.read({ answer: groups.membersListed }),
    listGroupsForUser: r.user.read({ keys: ['userId'], answer: groups.groupsOfMember }),
    listGroupsForMachineUser: r.machineUser.read({ answer: groups.groupsOfMember }),

    assignUserRole: r.user.update({ keys: ['user'], rewrite: roles.roleAssigned }),
    unassignUserRole: r.user.update({ keys: ['user'], rewrite: roles.roleUnassigned }),
    assignMachineUserRole: r.machineUser.update({ rewrite: roles.roleAssigned }),
    unassignMachineUserRole: r.machineUser.update({ rewrite: roles.roleUnassigned }),
    assignGroupRole: r.group.update({ rewrite: roles.roleAssigned }),
    unassignGroupRole: r.group.update({ rewrite: roles.roleUnassigned }),
    assignUserResourceRole: r.user.update({ keys: ['user'], rewrite: roles.resourceRoleAssigned }),
    unassignUserResourceRole: r.user.update({ keys: ['user'], rewrite: roles.resourceRoleUnassigned }),
    assignMachineUserResourceRole: r.machineUser.update({ rewrite: roles.resourceRoleAssigned }),
    unassignMachineUserResourceRole: r.machineUser.update({ rewrite: roles.resourceRoleUnassigned }),
    assignGroupResourceRole: r.group.update({ rewrite: roles.resourceRoleAssigned }),
    unassignGroupResourceRole: r.group.update({ rewrite: roles.resourceRoleUnassigned }),
    listUserAssignedRoles: r.user.read({ keys: ['user'], rewrite: roles.userOrCaller, answer: roles.assignedRoles }),
    listUserAssignedResourceRoles: r.user.read({ keys: ['user'], rewrite: roles.userOrCaller, answer: roles.assignedResourceRoles }),
    listMachineUserAssignedRoles: r.machineUser.read({ answer: roles.assignedRoles }),
    listMachineUserAssignedResourceRoles: r.machineUser.read({ answer: roles.assignedResourceRoles }),
    listGroupAssignedRoles: r.group.read({ answer: roles.assignedRoles }),
    listGroupAssignedResourceRoles: r.group.read({ answer: roles.assignedResourceRoles }),
    listResourceAssignees: code(roles.listResourceAssignees),
    listRoles: r.role.list({ select: roles.rolesNamed }),
    listResourceRoles: r.resourceRole.list({ select: roles.resourceRolesNamed }),

    createUserAccessKey: r.accessKey.create({ rewrite: keys.userKeyOwner, answer: keys.keyPairIssued }),
    createMachineUserAccessKey: r.accessKey.create({ rewrite: keys.machineUserKeyOwner, answer: keys.keyPairIssued }),
    getAccessKey: r.accessKey.read({ rewrite: keys.keyNamedOrCurrent }),
    updateAccessKey: r.accessKey.update(),
    deleteAccessKey: r.accessKey.delete(),
    listAccessKeys: r.accessKey.list({ select: keys.keysListed }),
    addSshPublicKey: r.sshPublicKey.create({ rewrite: ssh.sshActorNamed }),
    describeSshPublicKey: r.sshPublicKey.read({ rewrite: ssh.sshKeyNamed }),
    deleteSshPublicKey: r.sshPublicKey.delete({ rewrite: ssh.sshKeyNamed }),
    listSshPublicKeys: r.sshPublicKey.list({ select: ssh.sshKeysOfActor }),

    createSamlProvider: r.samlProvider.create(),
    updateSamlProvider: r.samlProvider.update(),
    describeSamlProvider: r.samlProvider.read(),
    deleteSamlProvider: r.samlProvider.delete(),
    listSamlProviders: r.samlProvider.list({ select: named('samlProvider', 'samlProviderNames') }),
    setSamlAuthnRequestSigningKey: r.samlProvider.update({ keys: ['samlProvider'], rewrite: providers.authnRequestSigningKeySet }),
    setSamlResponseDecryptionKey: r.samlProvider.update({ keys: ['samlProvider'], rewrite: providers.responseDecryptionKeySet }),
    createLdapProvider: r.ldapProvider.create({ rewrite: providers.ldapProviderAsked }),
    updateLdapProvider: r.ldapProvider.update({ rewrite: providers.ldapProviderChanged }),
    getDefaultIdentityProvider: r.account.read({ answer: providers.defaultProviderShown }),
    setDefaultIdentityProvider: r.account.update({ rewrite: providers.defaultProviderSet }),
    createScimAccessToken: r.scimAccessToken.create({ answer: providers.scimTokenIssued }),
    listScimAccessTokens: r.scimAccessToken.list(),
    deleteScimAccessToken: r.scimAccessToken.delete(),

    getAccount: r.account.read(),
    enableClouderaSSOLogin: r.account.update({ rewrite: account.ssoLoginOn }),
    disableClouderaSSOLogin: r.account.update({ rewrite: account.ssoLoginOff }),
    enableUserWorkloadPasswordChangedNotifications: r.account.update({ rewrite: account.passwordChangedNoticesOn }),
    disableUserWorkloadPasswordChangedNotifications: r.account.update({ rewrite: account.passwordChangedNoticesOff }),
    getAccountMessages: r.account.read({ answer: account.accountMessages }),
    setAccountMessages: r.account.update({ rewrite: account.messagesSet }),
    setWorkloadPasswordPolicy: r.account.update({ rewrite: account.policiesSet }),
    unsetWorkloadPasswordPolicy: r.account.update({ rewrite: account.policiesUnset }),
    setWorkloadPassword: code(account.setWorkloadPassword),
    unsetWorkloadPasswordMinLifetime: code(account.unsetWorkloadPasswordMinLifetime),
    generateWorkloadAuthToken: code(account.generateWorkloadAuthToken),
  }),
});
