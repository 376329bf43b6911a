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
import { accountDoc, defaultAccount } from './iam.js';
import { identities } from './provides.js';
import * as roles from './roles.js';
import * as ssh from './ssh.js';
import * as users from './users.js';

export default defineService<OperationName>()({
  service: 'iam',
  crnPartition: 'altus',
  facts: resources,
  resources: {
    user: { keys: ['userId', 'user'] },
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
    ldapProvider: { noun: 'LDAP provider', keys: ['ldapProviderName'], crnTail: 'name/id' },
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
    account: { keys: [], perAccount: () => accountDoc(defaultAccount()).doc },
  },
  guard,
  provides: { identities },
  operations: (r) => ({
    createUser: code(users.createUser),
    getUser: code(users.getUser),
    updateUser: code(users.updateUser),
    deleteUser: code(users.deleteUser),
    unlockUserInControlPlane: code(users.unlockUser),
    listUsers: code(users.listUsers),
    migrateUsersToIdentityProvider: code(users.migrateUsers),
    createMachineUser: r.machineUser.create({ rewrite: users.machineUserNameChecked }),
    deleteMachineUser: code(users.deleteMachineUser),
    unlockMachineUserInControlPlane: r.machineUser.update({ keys: ['machineUser'], rewrite: users.machineUserUnlocked }),
    listMachineUsers: r.machineUser.list({ select: users.machineUsersNamed }),

    createGroup: r.group.create({ rewrite: groups.groupNameChecked }),
    updateGroup: r.group.update(),
    deleteGroup: code(groups.deleteGroup),
    listGroups: r.group.list({ select: groups.groupsNamed }),
    addUserToGroup: code(groups.addGroupMember),
    removeUserFromGroup: code(groups.removeGroupMember),
    addMachineUserToGroup: code(groups.addGroupMember),
    removeMachineUserFromGroup: code(groups.removeGroupMember),
    listGroupMembers: code(groups.listGroupMembers),
    listGroupsForUser: code(groups.listGroupsForMember),
    listGroupsForMachineUser: code(groups.listGroupsForMember),

    assignUserRole: code(roles.assignRole),
    unassignUserRole: code(roles.unassignRole),
    assignMachineUserRole: code(roles.assignRole),
    unassignMachineUserRole: code(roles.unassignRole),
    assignGroupRole: code(roles.assignRole),
    unassignGroupRole: code(roles.unassignRole),
    assignUserResourceRole: code(roles.assignResourceRole),
    unassignUserResourceRole: code(roles.unassignResourceRole),
    assignMachineUserResourceRole: code(roles.assignResourceRole),
    unassignMachineUserResourceRole: code(roles.unassignResourceRole),
    assignGroupResourceRole: code(roles.assignResourceRole),
    unassignGroupResourceRole: code(roles.unassignResourceRole),
    listUserAssignedRoles: code(roles.listAssignedRoles),
    listUserAssignedResourceRoles: code(roles.listAssignedResourceRoles),
    listMachineUserAssignedRoles: code(roles.listAssignedRoles),
    listMachineUserAssignedResourceRoles: code(roles.listAssignedResourceRoles),
    listGroupAssignedRoles: code(roles.listAssignedRoles),
    listGroupAssignedResourceRoles: code(roles.listAssignedResourceRoles),
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
    listSamlProviders: r.samlProvider.list({ select: providers.samlProvidersNamed }),
    setSamlAuthnRequestSigningKey: r.samlProvider.update({ keys: ['samlProvider'], rewrite: providers.authnRequestSigningKeySet }),
    setSamlResponseDecryptionKey: r.samlProvider.update({ keys: ['samlProvider'], rewrite: providers.responseDecryptionKeySet }),
    createLdapProvider: r.ldapProvider.create({ rewrite: providers.ldapProviderAsked }),
    updateLdapProvider: code(providers.updateLdapProvider),
    getDefaultIdentityProvider: code(providers.getDefaultIdentityProvider),
    setDefaultIdentityProvider: code(providers.setDefaultIdentityProvider),
    createScimAccessToken: r.scimAccessToken.create({ answer: providers.scimTokenIssued }),
    listScimAccessTokens: r.scimAccessToken.list(),
    deleteScimAccessToken: r.scimAccessToken.delete(),

    getAccount: code(account.getAccount),
    enableClouderaSSOLogin: r.account.update({ rewrite: account.ssoLoginOn }),
    disableClouderaSSOLogin: r.account.update({ rewrite: account.ssoLoginOff }),
    enableUserWorkloadPasswordChangedNotifications: code(account.enablePasswordChangedNotices),
    disableUserWorkloadPasswordChangedNotifications: code(account.disablePasswordChangedNotices),
    getAccountMessages: code(account.getAccountMessages),
    setAccountMessages: code(account.setAccountMessages),
    setWorkloadPasswordPolicy: r.account.update({ rewrite: account.policiesSet }),
    unsetWorkloadPasswordPolicy: code(account.unsetWorkloadPasswordPolicy),
    setWorkloadPassword: code(account.setWorkloadPassword),
    unsetWorkloadPasswordMinLifetime: code(account.unsetWorkloadPasswordMinLifetime),
    generateWorkloadAuthToken: code(account.generateWorkloadAuthToken),
  }),
});
