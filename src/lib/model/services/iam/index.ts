/**
 * Identity and access management: the CLI half of the iam model. Command
 * ids group operations by the resource they act on; summaries are ours.
 */
import type { OperationCli, Rule, ServiceDefinition } from '../../types.js';
import { operations, service, shapes } from './wire.js';

const MACHINE_USER_NAME: Rule = {
  kind: 'pattern',
  field: 'machineUserName',
  pattern: /^(?!__)[A-Za-z0-9_-]{1,128}$/,
  message: 'machine user names use letters, digits, "-" and "_", do not start with "__", and are at most 128 characters',
};

// Only in create: elsewhere the field also takes a CRN.
const SAML_PROVIDER_NAME: Rule = {
  kind: 'pattern',
  field: 'samlProviderName',
  pattern: /^[A-Za-z0-9_-]{1,128}$/,
  message: 'SAML provider names use letters, digits, "-" and "_" and are at most 128 characters',
};

const LDAP_URL: Rule = {
  kind: 'pattern',
  field: 'url',
  pattern: /^ldaps?:\/\/[^\s/:]+(:\d{1,5})?\/?$/i,
  message: 'the LDAP url must start with ldap:// or ldaps:// followed by a host and an optional port',
};

/** SSH keys: RSA or Ed25519 in the one-line OpenSSH form; DSA and ECDSA are refused. */
const SSH_KEY: Rule = {
  kind: 'custom',
  field: 'publicKey',
  check: (r) => {
    const key = typeof r.publicKey === 'string' ? r.publicKey.trim() : '';
    const [type, body] = key.split(/\s+/);
    if (type === 'ssh-dss' || type?.startsWith('ecdsa-')) return `${type} keys are not supported; use an RSA or Ed25519 key`;
    if (type !== 'ssh-rsa' && type !== 'ssh-ed25519')
      return 'the public key must be in OpenSSH form: "ssh-rsa AAAA..." or "ssh-ed25519 AAAA..."';
    if (!body || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return 'the public key body is not base64';
    const blob = Buffer.from(body, 'base64');
    const len = blob.readUInt32BE(0);
    if (blob.length < 4 + len || blob.subarray(4, 4 + len).toString() !== type) return `the key body does not hold a ${type} key`;
    return undefined;
  },
};

const SAML_METADATA_SIZE: Rule = {
  kind: 'custom',
  field: 'samlMetadataDocument',
  check: (r) =>
    typeof r.samlMetadataDocument === 'string' && Buffer.byteLength(r.samlMetadataDocument, 'utf8') > 200_000
      ? `the SAML metadata document is ${Buffer.byteLength(r.samlMetadataDocument, 'utf8')} bytes; the limit is 200,000`
      : undefined,
};

const USER_COLUMNS = {
  userId: 'userId',
  email: 'email',
  name: 'firstName',
  lastName: 'lastName',
  status: 'status',
  admin: 'accountAdmin',
  created: 'creationDate',
};
const KEY_COLUMNS = { accessKeyId: 'accessKeyId', status: 'status', type: 'type', actor: 'actorCrn', created: 'creationDate' };

const cli: Record<string, OperationCli> = {
  // users
  createUser: {
    command: 'users create',
    summary: 'Create a user who signs in through an identity provider.',
    examples: ['--identity-provider-user-id jdoe --email jdoe@example.com --first-name Jane --last-name Doe --groups ops,dev'],
    fieldHelp: {
      identityProviderUserId: 'Must equal the NameID the SAML provider sends for this user',
      email: 'Shown only; not used to sign in',
      groups: 'Groups to join; missing ones are created',
      samlProviderName: 'SAML provider name or CRN',
    },
  },
  getUser: {
    command: 'users get',
    summary: 'Show a user; without --user-id, the user whose key signs the request.',
    examples: ['', '--user-id 3e5d7b2a-4c1f-4a8e-9d1b-2f6c8e0a7b91'],
  },
  listUsers: {
    command: 'users list',
    summary: 'List the users of the account.',
    examples: ['--output table', '--max-items 10'],
    columns: USER_COLUMNS,
  },
  updateUser: {
    command: 'users update',
    summary: 'Activate or deactivate a user.',
    examples: ['--user jdoe --no-active'],
    fieldHelp: { user: 'User ID or CRN', active: 'false deactivates: no control-plane or workload sign-in' },
    rules: [{ kind: 'anyOf', fields: ['active'], message: 'nothing to update: give --active or --no-active' }],
  },
  deleteUser: {
    command: 'users delete',
    summary: 'Delete a user with its access keys, roles and group memberships.',
    examples: ['--user-id jdoe --yes'],
    destructive: true,
    fieldHelp: { userId: 'User ID or CRN' },
  },
  unlockUserInControlPlane: {
    command: 'users unlock',
    summary: 'Let a locked-out user sign in to the control plane again.',
    examples: ['--user jdoe'],
  },
  migrateUsersToIdentityProvider: {
    command: 'users migrate-identity-provider',
    summary: 'Move users from one identity provider to another keeping their identity provider user IDs.',
    examples: ['--original-provider-name old-idp --new-provider-name new-idp'],
  },
  listGroupsForUser: { command: 'users list-groups', summary: 'List the groups a user belongs to.', examples: ['--user-id jdoe'] },
  listUserAssignedRoles: { command: 'users list-roles', summary: 'List the roles assigned to a user.', examples: ['--user jdoe'] },
  listUserAssignedResourceRoles: {
    command: 'users list-resource-roles',
    summary: 'List the resource roles a user holds and on what.',
    examples: ['--user jdoe'],
  },
  assignUserRole: {
    command: 'users assign-role',
    summary: 'Give a user a role.',
    examples: ['--user jdoe --role IamViewer'],
    fieldHelp: { user: 'User ID or CRN', role: 'Role name or CRN' },
  },
  unassignUserRole: {
    command: 'users unassign-role',
    summary: 'Take a role away from a user.',
    examples: ['--user jdoe --role IamViewer'],
    fieldHelp: { user: 'User ID or CRN', role: 'Role name or CRN' },
  },
  assignUserResourceRole: {
    command: 'users assign-resource-role',
    summary: 'Give a user a resource role on one resource.',
    examples: [
      '--user jdoe --resource-role-crn crn:altus:iam:us-west-1:altus:resourceRole:EnvironmentUser --resource-crn crn:cdp:environments:us-west-1:acct:environment:env1',
    ],
  },
  unassignUserResourceRole: {
    command: 'users unassign-resource-role',
    summary: 'Take a resource role on one resource away from a user.',
    examples: [
      '--user jdoe --resource-role-crn crn:altus:iam:us-west-1:altus:resourceRole:EnvironmentUser --resource-crn crn:cdp:environments:us-west-1:acct:environment:env1',
    ],
  },

  // machine users
  createMachineUser: {
    command: 'machine-users create',
    summary: 'Create a machine user: API access with keys, no console sign-in.',
    examples: ['--machine-user-name ci-deployer'],
    rules: [MACHINE_USER_NAME],
    fieldHelp: { machineUserName: 'Letters, digits, - and _; unique in the account; at most 128 characters' },
  },
  listMachineUsers: {
    command: 'machine-users list',
    summary: 'List the machine users of the account.',
    examples: ['--output table'],
    columns: { name: 'machineUserName', status: 'status', crn: 'crn', created: 'creationDate' },
  },
  deleteMachineUser: {
    command: 'machine-users delete',
    summary: 'Delete a machine user with its access keys, roles and group memberships.',
    examples: ['--machine-user-name ci-deployer --yes'],
    destructive: true,
    fieldHelp: { machineUserName: 'Name or CRN' },
  },
  unlockMachineUserInControlPlane: {
    command: 'machine-users unlock',
    summary: 'Let a locked machine user call the control plane again.',
    examples: ['--machine-user ci-deployer'],
  },
  listGroupsForMachineUser: {
    command: 'machine-users list-groups',
    summary: 'List the groups a machine user belongs to.',
    examples: ['--machine-user-name ci-deployer'],
  },
  listMachineUserAssignedRoles: {
    command: 'machine-users list-roles',
    summary: 'List the roles assigned to a machine user.',
    examples: ['--machine-user-name ci-deployer'],
  },
  listMachineUserAssignedResourceRoles: {
    command: 'machine-users list-resource-roles',
    summary: 'List the resource roles a machine user holds and on what.',
    examples: ['--machine-user-name ci-deployer'],
  },
  assignMachineUserRole: {
    command: 'machine-users assign-role',
    summary: 'Give a machine user a role.',
    examples: ['--machine-user-name ci-deployer --role IamViewer'],
  },
  unassignMachineUserRole: {
    command: 'machine-users unassign-role',
    summary: 'Take a role away from a machine user.',
    examples: ['--machine-user-name ci-deployer --role IamViewer'],
  },
  assignMachineUserResourceRole: {
    command: 'machine-users assign-resource-role',
    summary: 'Give a machine user a resource role on one resource.',
    examples: ['--machine-user-name ci-deployer --resource-role-crn <role-crn> --resource-crn <resource-crn>'],
  },
  unassignMachineUserResourceRole: {
    command: 'machine-users unassign-resource-role',
    summary: 'Take a resource role on one resource away from a machine user.',
    examples: ['--machine-user-name ci-deployer --resource-role-crn <role-crn> --resource-crn <resource-crn>'],
  },

  // groups
  createGroup: {
    command: 'groups create',
    summary: 'Create a group.',
    examples: ['--group-name data-engineers', '--group-name admins --no-sync-membership-on-user-login'],
  },
  listGroups: {
    command: 'groups list',
    summary: 'List groups, all or the named ones.',
    examples: ['', '--group-names ops,dev --output table'],
    columns: { name: 'groupName', crn: 'crn', syncOnLogin: 'syncMembershipOnUserLogin', created: 'creationDate' },
  },
  updateGroup: {
    command: 'groups update',
    summary: "Change whether a group's membership is synced at sign-in.",
    examples: ['--group-name ops --no-sync-membership-on-user-login'],
  },
  deleteGroup: {
    command: 'groups delete',
    summary: 'Delete a group.',
    examples: ['--group-name ops --yes'],
    destructive: true,
    fieldHelp: { groupName: 'Name or CRN' },
  },
  addUserToGroup: { command: 'groups add-user', summary: 'Add a user to a group.', examples: ['--group-name ops --user-id jdoe'] },
  removeUserFromGroup: {
    command: 'groups remove-user',
    summary: 'Remove a user from a group.',
    examples: ['--group-name ops --user-id jdoe'],
  },
  addMachineUserToGroup: {
    command: 'groups add-machine-user',
    summary: 'Add a machine user to a group.',
    examples: ['--group-name ops --machine-user-name ci-deployer'],
  },
  removeMachineUserFromGroup: {
    command: 'groups remove-machine-user',
    summary: 'Remove a machine user from a group.',
    examples: ['--group-name ops --machine-user-name ci-deployer'],
  },
  listGroupMembers: { command: 'groups list-members', summary: 'List the CRNs of the members of a group.', examples: ['--group-name ops'] },
  listGroupAssignedRoles: { command: 'groups list-roles', summary: 'List the roles assigned to a group.', examples: ['--group-name ops'] },
  listGroupAssignedResourceRoles: {
    command: 'groups list-resource-roles',
    summary: 'List the resource roles a group holds and on what.',
    examples: ['--group-name ops'],
  },
  assignGroupRole: {
    command: 'groups assign-role',
    summary: 'Give every member of a group a role.',
    examples: ['--group-name ops --role IamViewer'],
  },
  unassignGroupRole: {
    command: 'groups unassign-role',
    summary: 'Take a role away from a group.',
    examples: ['--group-name ops --role IamViewer'],
  },
  assignGroupResourceRole: {
    command: 'groups assign-resource-role',
    summary: 'Give a group a resource role on one resource.',
    examples: ['--group-name ops --resource-role-crn <role-crn> --resource-crn <resource-crn>'],
  },
  unassignGroupResourceRole: {
    command: 'groups unassign-resource-role',
    summary: 'Take a resource role on one resource away from a group.',
    examples: ['--group-name ops --resource-role-crn <role-crn> --resource-crn <resource-crn>'],
  },

  // roles
  listRoles: {
    command: 'roles list',
    summary: 'List the roles that can be assigned, with their policies.',
    examples: ['', '--role-names IamViewer'],
    columns: { crn: 'crn' },
  },
  listResourceRoles: {
    command: 'resource-roles list',
    summary: 'List the resource roles that can be assigned, with their rights.',
    examples: [''],
    columns: { crn: 'crn' },
  },
  listResourceAssignees: {
    command: 'resource-roles list-assignees',
    summary: 'List who holds which resource role on a resource.',
    examples: ['--resource-crn crn:cdp:environments:us-west-1:acct:environment:env1'],
  },

  // access keys
  createUserAccessKey: {
    command: 'access-keys create',
    summary: 'Create an access key for a user (default: yourself); the private key is shown once.',
    description: 'Key types: V1 RSA (deprecated), V2 Ed25519 (the default), V3 ECDSA. Save the private key now: it cannot be shown again.',
    examples: ['', '--user jdoe --type V3'],
  },
  createMachineUserAccessKey: {
    command: 'access-keys create-for-machine-user',
    summary: 'Create an access key for a machine user; the private key is shown once.',
    examples: ['--machine-user-name ci-deployer'],
  },
  getAccessKey: {
    command: 'access-keys get',
    summary: 'Show an access key; without --access-key-id, the one signing the request.',
    examples: ['', '--access-key-id 6d2f...'],
  },
  listAccessKeys: { command: 'access-keys list', summary: 'List access keys.', examples: ['--output table'], columns: KEY_COLUMNS },
  updateAccessKey: {
    command: 'access-keys update',
    summary: 'Turn an access key on or off.',
    examples: ['--access-key-id 6d2f... --status INACTIVE'],
  },
  deleteAccessKey: {
    command: 'access-keys delete',
    summary: 'Delete an access key.',
    examples: ['--access-key-id 6d2f... --yes'],
    destructive: true,
  },

  // ssh keys
  addSshPublicKey: {
    command: 'ssh-keys add',
    summary: 'Add an SSH public key (RSA or Ed25519) for workload cluster sign-in.',
    examples: ['--public-key file://~/.ssh/id_ed25519.pub --description laptop'],
    rules: [SSH_KEY],
    fieldHelp: { actorCrn: 'User or machine user CRN (default: yourself)', publicKey: 'OpenSSH one-line form; file:// reads a .pub file' },
  },
  describeSshPublicKey: {
    command: 'ssh-keys describe',
    summary: 'Show an SSH public key by CRN or SHA256 fingerprint.',
    examples: ['--crn-or-fingerprint SHA256:abc...'],
  },
  listSshPublicKeys: {
    command: 'ssh-keys list',
    summary: 'List the SSH public keys of a user or machine user.',
    examples: [''],
    listKey: 'sshPublicKeys',
    columns: { fingerprint: 'publicKeyFingerprint', description: 'description', crn: 'crn' },
  },
  deleteSshPublicKey: {
    command: 'ssh-keys delete',
    summary: 'Delete an SSH public key.',
    examples: ['--crn-or-fingerprint SHA256:abc... --yes'],
    destructive: true,
  },

  // identity providers
  createSamlProvider: {
    command: 'saml-providers create',
    summary: 'Register a SAML identity provider.',
    examples: ['--saml-provider-name okta --saml-metadata-document file://metadata.xml --enable-scim'],
    rules: [SAML_PROVIDER_NAME, SAML_METADATA_SIZE],
    fieldHelp: { samlMetadataDocument: 'The provider metadata XML, at most 200,000 bytes; file:// reads it' },
  },
  describeSamlProvider: {
    command: 'saml-providers describe',
    summary: 'Show a SAML identity provider.',
    examples: ['--saml-provider-name okta'],
  },
  listSamlProviders: {
    command: 'saml-providers list',
    summary: 'List SAML identity providers.',
    examples: ['--output table'],
    columns: { name: 'samlProviderName', id: 'samlProviderId', scim: 'enableScim', crn: 'crn' },
  },
  updateSamlProvider: {
    command: 'saml-providers update',
    summary: 'Change a SAML identity provider; omitted settings stay as they are.',
    examples: ['--saml-provider-name okta --no-sync-groups-on-login'],
    rules: [SAML_METADATA_SIZE],
  },
  deleteSamlProvider: {
    command: 'saml-providers delete',
    summary: 'Delete a SAML identity provider.',
    examples: ['--saml-provider-name okta --yes'],
    destructive: true,
  },
  setSamlAuthnRequestSigningKey: {
    command: 'saml-providers set-signing-key',
    summary: 'Replace the key and certificates used to sign SAML authentication requests.',
    description: 'Omitted values are cleared.',
    examples: [
      '--saml-provider okta --authn-request-signing-key file://key.pem --current-authn-request-verification-certificate file://cert.pem',
    ],
  },
  setSamlResponseDecryptionKey: {
    command: 'saml-providers set-decryption-key',
    summary: 'Replace the certificate and keys used to decrypt SAML responses.',
    description: 'Omitted values are cleared.',
    examples: [
      '--saml-provider okta --saml-response-encryption-certificate file://cert.pem --current-saml-response-decryption-key file://key.pem',
    ],
  },
  createLdapProvider: {
    command: 'ldap-providers create',
    summary: 'Register an LDAP identity provider.',
    examples: [
      "--ldap-provider-name corp --url ldaps://ldap.example.com:636 --bind-dn cn=svc,dc=example,dc=com --bind-password file://pw.txt --user-search-base ou=people,dc=example,dc=com --user-search-filter '(uid={0})' --group-search-base ou=groups,dc=example,dc=com --group-search-filter '(member={{dn}})' --username-mapping-attribute uid",
    ],
    rules: [LDAP_URL],
    fieldHelp: { url: 'ldap:// or ldaps:// with an optional port', bindPassword: 'Never returned by the service' },
  },
  updateLdapProvider: {
    command: 'ldap-providers update',
    summary: 'Change an LDAP identity provider.',
    examples: [
      "--ldap-provider-name corp --url ldaps://ldap2.example.com --user-search-base ou=people,dc=example,dc=com --user-search-filter '(uid={0})' --group-search-base ou=groups,dc=example,dc=com --group-search-filter '(member={{dn}})' --username-mapping-attribute uid",
    ],
    rules: [LDAP_URL],
  },
  getDefaultIdentityProvider: {
    command: 'identity-providers get-default',
    summary: 'Show the CRN of the identity provider used for platform-initiated sign-in.',
    examples: [''],
  },
  setDefaultIdentityProvider: {
    command: 'identity-providers set-default',
    summary: 'Choose the identity provider used for platform-initiated sign-in.',
    examples: ['--name-or-crn okta'],
  },

  // scim
  createScimAccessToken: {
    command: 'scim-tokens create',
    summary: 'Create a SCIM access token for a SCIM-enabled provider; the secret is shown once.',
    examples: ['--identity-provider-name-or-crn okta --access-token-lifetime-days 90'],
  },
  listScimAccessTokens: {
    command: 'scim-tokens list',
    summary: 'List the SCIM access tokens of a provider.',
    examples: ['--identity-provider-name-or-crn okta'],
    columns: { id: 'accessTokenId', created: 'creationDate', expires: 'expirationDate' },
  },
  deleteScimAccessToken: {
    command: 'scim-tokens delete',
    summary: 'Delete a SCIM access token.',
    examples: ['--access-token-id-or-crn 0f3b... --yes'],
    destructive: true,
  },

  // account
  getAccount: { command: 'account get', summary: 'Show account settings: sign-in switches and password policies.', examples: [''] },
  enableClouderaSSOLogin: {
    command: 'account enable-sso-login',
    summary: 'Let non-administrators sign in through the vendor single sign-on.',
    examples: [''],
  },
  disableClouderaSSOLogin: {
    command: 'account disable-sso-login',
    summary: 'Allow only account administrators to sign in through the vendor single sign-on.',
    examples: [''],
  },
  getAccountMessages: { command: 'account get-messages', summary: 'Show the messages shown to users who lack rights.', examples: [''] },
  setAccountMessages: {
    command: 'account set-messages',
    summary: 'Set the message shown to users who lack rights.',
    examples: ["--contact-your-administrator-message 'Ask #platform-help for access'"],
  },
  enableUserWorkloadPasswordChangedNotifications: {
    command: 'account enable-password-notifications',
    summary: 'E-mail users when their workload password changes.',
    examples: [''],
  },
  disableUserWorkloadPasswordChangedNotifications: {
    command: 'account disable-password-notifications',
    summary: 'Stop e-mailing users when their workload password changes.',
    examples: [''],
  },

  // workload passwords and tokens
  setWorkloadPassword: {
    command: 'workload-passwords set',
    summary: 'Set the workload password of a user or machine user (default: yourself).',
    examples: ['--password file://pw.txt'],
  },
  setWorkloadPasswordPolicy: {
    command: 'workload-passwords set-policy',
    summary: 'Set the password policy for users and/or machine users; applies to passwords set afterwards.',
    examples: ['--global-password-policy minPasswordLength=12,mustIncludeNumbers=true,passwordHistorySize=5'],
  },
  unsetWorkloadPasswordPolicy: {
    command: 'workload-passwords unset-policy',
    summary: 'Reset password policies to their defaults.',
    examples: ['--unset-global-password-policy'],
    rules: [
      {
        kind: 'custom',
        field: 'unsetGlobalPasswordPolicy',
        check: (r) =>
          r.unsetGlobalPasswordPolicy || r.unsetMachineUsersPasswordPolicy
            ? undefined
            : 'nothing to unset: give --unset-global-password-policy and/or --unset-machine-users-password-policy',
      },
    ],
  },
  unsetWorkloadPasswordMinLifetime: {
    command: 'workload-passwords unset-min-lifetime',
    summary: 'Let an actor change their workload password now, before its minimum lifetime ends.',
    examples: ['--actor-crn crn:altus:iam:us-west-1:acct:user:jdoe'],
  },
  generateWorkloadAuthToken: {
    command: 'workload-tokens generate',
    summary: 'Get a short-lived token for a workload API (DE, DF or OPDB).',
    examples: ['--workload-name DF --environment-crn crn:cdp:environments:us-west-1:acct:environment:env1'],
  },
};

const definition: ServiceDefinition = {
  name: 'iam',
  topic: 'iam',
  summary: 'Identity and access: users, machine users, groups, roles, keys and identity providers.',
  endpoint: 'iam',
  facts: service,
  topics: {
    users: 'Users who sign in through an identity provider.',
    'machine-users': 'Machine users: API access with keys only.',
    groups: 'Groups, their members and the roles they grant.',
    roles: 'Roles that can be assigned.',
    'resource-roles': 'Resource roles and who holds them.',
    'access-keys': 'API access keys.',
    'ssh-keys': 'SSH public keys for workload sign-in.',
    'saml-providers': 'SAML identity providers.',
    'ldap-providers': 'LDAP identity providers.',
    'identity-providers': 'The default identity provider.',
    'scim-tokens': 'SCIM access tokens.',
    account: 'Account settings and messages.',
    'workload-passwords': 'Workload passwords and their policy.',
    'workload-tokens': 'Tokens for workload APIs.',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
