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

// ---- shared help ---------------------------------------------------------

const USER = 'User ID or CRN (see `iam users list`)';
const MACHINE_USER = 'Machine user name or CRN (see `iam machine-users list`)';
const GROUP = 'Group name or CRN (see `iam groups list`)';
const SAML_PROVIDER = 'SAML provider name or CRN (see `iam saml-providers list`)';
const ACTOR = 'CRN of a user or machine user (see `iam users list`, `iam machine-users list`)';
/** Fields that fall back to the caller when omitted. */
const ME = '; default: yourself, the owner of the signing key';
/** Update requests: an omitted field keeps its value. */
const keep = (help: string): string => `${help}; omit to keep the current value`;
const only = (what: string, ids: string): string => `Only these ${what}: ${ids}; default: all of them`;

const SAML_SETTINGS = {
  samlMetadataDocument: "The identity provider's SAML metadata XML; file:// reads it from a file (the limit counts UTF-8 bytes)",
  enableScim:
    'Let the identity provider create and update users and groups over SCIM 2.0 (see `iam scim-tokens create`); not in the government edition',
  syncGroupsOnLogin: "Take each user's groups from the SAML assertion at every sign-in (default: on)",
  generateWorkloadUsernameByEmail:
    'Derive workload user names from e-mail addresses instead of the identity provider user ID (SAML NameID, the default)',
};

const LDAP_SETTINGS = {
  url: 'Address of the LDAP server: ldap:// or ldaps://, a host and an optional port, e.g. ldaps://ldap.example.com:636',
  bindDn: 'Distinguished name to bind as, e.g. cn=svc,dc=example,dc=com; needed unless the server allows anonymous binds',
  bindPassword: 'Password of --bind-dn; file:// reads it; never returned by the service',
  startTls: 'Upgrade the connection with StartTLS after connecting',
  tlsCaCertificates: 'PEM certificates to trust when the server certificate is self-signed or from a private CA; file:// reads one',
  skipGroupSyncOnLogin: "Do not refresh a user's groups from the directory at sign-in",
  userSearchBase: 'Subtree where users are searched, e.g. ou=people,dc=example,dc=com',
  userSearchFilter: 'LDAP filter that finds the user signing in among the entries under --user-search-base',
  userBindProperty: 'Attribute of the user entry to bind with when checking the password, e.g. dn',
  usernameMappingAttribute: "Attribute that becomes the user's name, e.g. uid or sAMAccountName",
  emailMappingAttribute: "Attribute that becomes the user's e-mail address, e.g. mail",
  firstNameMappingAttribute: "Attribute that becomes the user's first name, e.g. givenName",
  lastNameMappingAttribute: "Attribute that becomes the user's last name, e.g. sn",
  groupSearchBase: 'Subtree where groups are searched, e.g. ou=groups,dc=example,dc=com',
  groupSearchFilter: "LDAP filter that finds a user's groups; {{dn}} stands for the user's --group-dn-property",
  groupDnProperty: 'Attribute of the user entry that replaces {{dn}} in --group-search-filter, e.g. dn',
  groupNameMappingAttribute: 'Attribute that becomes the group name, e.g. cn',
};

const PASSWORD_POLICY =
  'minPasswordLength (default 8), mustIncludeLowerCaseCharacters, mustIncludeUpperCaseCharacters, mustIncludeNumbers and mustIncludeSymbols (# & * $ % @ ^ . _ !; each default true), maxPasswordLifetimeDays (0, the default, never expires), minPasswordLifetimeDays (days before a password may change again; default 0), passwordHistorySize (earlier passwords that may not be reused, 0..20; default 0)';

const USER_COLUMNS = {
  userId: 'userId',
  email: 'email',
  firstName: 'firstName',
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
    examples: ['--identity-provider-user-id jdoe --email jdoe@example.com --first-name Jane --last-name Doe --groups ops dev'],
    fieldHelp: {
      identityProviderUserId: "The user's ID at the identity provider: must equal the NameID its SAML response sends for this user",
      email: 'E-mail address, shown only; not used to sign in',
      firstName: 'First name, shown in the console',
      lastName: 'Last name, shown in the console',
      groups: 'Names of the groups the user joins; missing ones are created',
      samlProviderName: 'SAML provider the user signs in through: name or CRN (see `iam saml-providers list`)',
    },
  },
  getUser: {
    command: 'users get',
    summary: 'Show a user; without --user-id, the user whose key signs the request.',
    examples: ['', '--user-id 3e5d7b2a-4c1f-4a8e-9d1b-2f6c8e0a7b91'],
    fieldHelp: { userId: `User ID (see \`iam users list\`)${ME}` },
  },
  listUsers: {
    command: 'users list',
    summary: 'List the users of the account.',
    examples: ['--output table', '--max-items 10'],
    fieldHelp: { userIds: only('users', 'IDs or CRNs') },
    columns: USER_COLUMNS,
  },
  updateUser: {
    command: 'users update',
    summary: 'Activate or deactivate a user.',
    examples: ['--user jdoe --no-active'],
    fieldHelp: {
      active: '--active lets the user sign in again; --no-active deactivates: no control-plane or workload sign-in, keys refused',
    },
    rules: [{ kind: 'anyOf', fields: ['active'], message: 'nothing to update: give --active or --no-active' }],
  },
  deleteUser: {
    command: 'users delete',
    summary: 'Delete a user with its access keys, roles and group memberships.',
    examples: ['--user-id jdoe --yes'],
    destructive: true,
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
    fieldHelp: {
      originalProviderName: 'Name or CRN of the identity provider the users sign in through now (see `iam saml-providers list`)',
      newProviderName: 'Name or CRN of the identity provider to move them to; each user keeps the same identity provider user ID there',
    },
  },
  listGroupsForUser: { command: 'users list-groups', summary: 'List the groups a user belongs to.', examples: ['--user-id jdoe'] },
  listUserAssignedRoles: {
    command: 'users list-roles',
    summary: 'List the roles assigned to a user.',
    examples: ['--user jdoe'],
    fieldHelp: { user: `${USER}${ME}` },
  },
  listUserAssignedResourceRoles: {
    command: 'users list-resource-roles',
    summary: 'List the resource roles a user holds and on what.',
    examples: ['--user jdoe'],
    fieldHelp: { user: `${USER}${ME}` },
  },
  assignUserRole: {
    command: 'users assign-role',
    summary: 'Give a user a role.',
    examples: ['--user jdoe --role IamViewer'],
  },
  unassignUserRole: {
    command: 'users unassign-role',
    summary: 'Take a role away from a user.',
    examples: ['--user jdoe --role IamViewer'],
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
    fieldHelp: {
      machineUserName:
        'Name of the new machine user: letters, digits, - and _, not starting with __; unique in the account; at most 128 characters',
    },
  },
  listMachineUsers: {
    command: 'machine-users list',
    summary: 'List the machine users of the account.',
    examples: ['--output table'],
    fieldHelp: { machineUserNames: only('machine users', 'names or CRNs') },
    columns: { name: 'machineUserName', status: 'status', crn: 'crn', created: 'creationDate' },
  },
  deleteMachineUser: {
    command: 'machine-users delete',
    summary: 'Delete a machine user with its access keys, roles and group memberships.',
    examples: ['--machine-user-name ci-deployer --yes'],
    destructive: true,
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
    fieldHelp: { groupName: 'Name of the new group, unique in the account' },
  },
  listGroups: {
    command: 'groups list',
    summary: 'List groups, all or the named ones.',
    examples: ['', '--group-names ops dev --output table'],
    fieldHelp: { groupNames: only('groups', 'names or CRNs') },
    columns: { name: 'groupName', crn: 'crn', syncOnLogin: 'syncMembershipOnUserLogin', created: 'creationDate' },
  },
  updateGroup: {
    command: 'groups update',
    summary: "Change whether a group's membership is synced at sign-in.",
    examples: ['--group-name ops --no-sync-membership-on-user-login'],
    fieldHelp: { syncMembershipOnUserLogin: keep("Sync the group's membership from the identity provider when a member signs in") },
  },
  deleteGroup: {
    command: 'groups delete',
    summary: 'Delete a group.',
    examples: ['--group-name ops --yes'],
    destructive: true,
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
    fieldHelp: { roleNames: only('roles', 'names or CRNs') },
    columns: { crn: 'crn' },
  },
  listResourceRoles: {
    command: 'resource-roles list',
    summary: 'List the resource roles that can be assigned, with their rights.',
    examples: [''],
    fieldHelp: { resourceRoleNames: only('resource roles', 'CRNs') },
    columns: { crn: 'crn' },
  },
  listResourceAssignees: {
    command: 'resource-roles list-assignees',
    summary: 'List who holds which resource role on a resource.',
    examples: ['--resource-crn crn:cdp:environments:us-west-1:acct:environment:env1'],
    fieldHelp: { resourceCrn: 'CRN of the resource whose assignees to list, e.g. an environment (see `environments list`)' },
  },

  // access keys
  createUserAccessKey: {
    command: 'access-keys create',
    summary: 'Create an access key for a user (default: yourself); the private key is shown once.',
    description: 'Key types: V1 RSA (deprecated), V2 Ed25519 (the default), V3 ECDSA. Save the private key now: it cannot be shown again.',
    examples: ['', '--user jdoe --type V3'],
    fieldHelp: { user: `${USER}${ME}` },
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
    fieldHelp: { accessKeyId: 'ID of the access key (see `iam access-keys list`); default: the key signing this request' },
  },
  listAccessKeys: {
    command: 'access-keys list',
    summary: 'List access keys.',
    examples: ['--output table'],
    fieldHelp: { accessKeyIds: only('keys', 'access key IDs or CRNs') },
    columns: KEY_COLUMNS,
  },
  updateAccessKey: {
    command: 'access-keys update',
    summary: 'Turn an access key on or off.',
    examples: ['--access-key-id 6d2f... --status INACTIVE'],
    fieldHelp: { status: 'ACTIVE: requests signed with the key are accepted; INACTIVE: they are refused until it is ACTIVE again' },
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
    fieldHelp: {
      publicKey: 'RSA or Ed25519 public key in the one-line OpenSSH form ("ssh-ed25519 AAAA... comment"); file:// reads a .pub file',
      description: 'Free text shown with the key, e.g. laptop',
    },
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
    fieldHelp: {
      samlProviderName: 'Name of the new provider: letters, digits, - and _; at most 128 characters; unique, ignoring case',
    },
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
    fieldHelp: { samlProviderNames: only('providers', 'names or CRNs') },
    columns: { name: 'samlProviderName', id: 'samlProviderId', scim: 'enableScim', crn: 'crn' },
  },
  updateSamlProvider: {
    command: 'saml-providers update',
    summary: 'Change a SAML identity provider; omitted settings stay as they are.',
    examples: ['--saml-provider-name okta --no-sync-groups-on-login'],
    rules: [SAML_METADATA_SIZE],
    fieldHelp: {
      samlMetadataDocument: keep(SAML_SETTINGS.samlMetadataDocument),
      enableScim: keep(SAML_SETTINGS.enableScim),
      syncGroupsOnLogin: keep("Take each user's groups from the SAML assertion at every sign-in"),
      generateWorkloadUsernameByEmail: keep('Derive workload user names from e-mail addresses instead of the identity provider user ID'),
    },
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
    fieldHelp: {
      authnRequestSigningKey:
        'PEM private key that signs the authentication requests sent to the provider; file:// reads it; needed with a certificate',
      currentAuthnRequestVerificationCertificate:
        'PEM certificate the provider checks those requests with; needed with --authn-request-signing-key',
      nextAuthnRequestVerificationCertificate:
        'PEM certificate that will take over during a rotation; both certificates are published until it completes',
    },
  },
  setSamlResponseDecryptionKey: {
    command: 'saml-providers set-decryption-key',
    summary: 'Replace the certificate and keys used to decrypt SAML responses.',
    description: 'Omitted values are cleared.',
    examples: [
      '--saml-provider okta --saml-response-encryption-certificate file://cert.pem --current-saml-response-decryption-key file://key.pem',
    ],
    fieldHelp: {
      samlResponseEncryptionCertificate: 'PEM certificate the provider encrypts its SAML responses with; file:// reads it',
      currentSamlResponseDecryptionKey: 'PEM private key that decrypts those responses; needed with --saml-response-encryption-certificate',
      nextSamlResponseDecryptionKey:
        'PEM private key that will take over during a rotation; responses decrypt with either key until it completes',
    },
  },
  createLdapProvider: {
    command: 'ldap-providers create',
    summary: 'Register an LDAP identity provider.',
    examples: [
      "--ldap-provider-name corp --url ldaps://ldap.example.com:636 --bind-dn cn=svc,dc=example,dc=com --bind-password file://pw.txt --user-search-base ou=people,dc=example,dc=com --user-search-filter '(uid={0})' --group-search-base ou=groups,dc=example,dc=com --group-search-filter '(member={{dn}})' --username-mapping-attribute uid",
    ],
    rules: [LDAP_URL],
    fieldHelp: { ldapProviderName: 'Name of the new LDAP provider' },
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
    fieldHelp: { nameOrCrn: 'Name or CRN of the SAML or LDAP provider to use (see `iam saml-providers list`)' },
  },

  // scim
  createScimAccessToken: {
    command: 'scim-tokens create',
    summary: 'Create a SCIM access token for a SCIM-enabled provider; the secret is shown once.',
    examples: ['--identity-provider-name-or-crn okta --access-token-lifetime-days 90'],
    fieldHelp: { accessTokenLifetimeDays: 'Days the token stays valid, counted from now' },
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
    fieldHelp: { accessTokenIdOrCrn: 'ID or CRN of the token (see `iam scim-tokens list`)' },
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
    fieldHelp: { contactYourAdministratorMessage: 'Text shown to users who lack the rights for an action; empty: the built-in text' },
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
    fieldHelp: {
      password: 'The new workload password, for every environment the actor can reach (also ones granted later); file:// reads it',
    },
  },
  setWorkloadPasswordPolicy: {
    command: 'workload-passwords set-policy',
    summary: 'Set the password policy for users and/or machine users; applies to passwords set afterwards.',
    examples: ['--global-password-policy minPasswordLength=12,mustIncludeNumbers=true,passwordHistorySize=5'],
    fieldHelp: {
      globalPasswordPolicy: `Policy for users, and for machine users without their own: ${PASSWORD_POLICY}`,
      machineUsersPasswordPolicy: 'Policy for machine users instead of the global one; the same fields as --global-password-policy',
    },
  },
  unsetWorkloadPasswordPolicy: {
    command: 'workload-passwords unset-policy',
    summary: 'Reset password policies to their defaults.',
    examples: ['--unset-global-password-policy'],
    fieldHelp: {
      unsetGlobalPasswordPolicy: 'Reset the global policy to its defaults',
      unsetMachineUsersPasswordPolicy: 'Remove the machine user policy, if there is one: machine users follow the global policy again',
    },
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
    fieldHelp: { actorCrn: `${ACTOR} who may then change the password at once` },
  },
  generateWorkloadAuthToken: {
    command: 'workload-tokens generate',
    summary: 'Get a short-lived token for a workload API (DE, DF or OPDB).',
    examples: ['--workload-name DF --environment-crn crn:cdp:environments:us-west-1:acct:environment:env1'],
    fieldHelp: {
      workloadName: 'Workload API the token is for: DE (Data Engineering), DF (DataFlow) or OPDB (Operational Database)',
      environmentCrn: 'CRN of the environment the workload runs in; needed for DF (see `environments list`)',
      excludeGroups: "Leave the caller's groups out of the token",
    },
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
  fieldHelp: {
    user: USER,
    userId: USER,
    machineUserName: MACHINE_USER,
    machineUser: MACHINE_USER,
    groupName: GROUP,
    role: 'Role name or CRN, e.g. IamViewer (see `iam roles list`)',
    resourceRoleCrn: 'CRN of the resource role (see `iam resource-roles list`)',
    resourceCrn: 'CRN of the resource the resource role applies to, e.g. an environment (see `environments list`)',
    actorCrn: `${ACTOR}${ME}`,
    accessKeyId: 'ID of the access key (see `iam access-keys list`)',
    type: 'Signing algorithm of the new key: V1 = RSA (deprecated), V2 = Ed25519, V3 = ECDSA; default: V2, or V3 in the government region',
    crnOrFingerprint: 'CRN of the SSH key or its SHA256 fingerprint (see `iam ssh-keys list`)',
    samlProviderName: SAML_PROVIDER,
    samlProvider: SAML_PROVIDER,
    ...SAML_SETTINGS,
    ldapProviderName: 'Name or CRN of the LDAP provider',
    ...LDAP_SETTINGS,
    identityProviderNameOrCrn: 'Name or CRN of a SAML provider with SCIM turned on (see `iam saml-providers list`)',
    syncMembershipOnUserLogin: "Sync the group's membership from the identity provider when a member signs in (default: on)",
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
