/**
 * What the API says of iam's resources (the format: ../../resources.ts).
 * None has a long-running action, and every delete is synchronous and gone
 * (the issue 28 audit, iam deletes). CRNs are in the `altus` partition, of
 * the account; the built-in roles, resource roles and policies are in the
 * `altus` account. Fixed values: a user's status (non-ACTIVE ones only on
 * Cloudera for Government, iam.yaml), a machine user's, and the identity
 * provider a user belongs to, "Cloudera-Default" for the built-in one (or
 * "Cloudera-Administration"; a user of a provider of the account carries
 * that provider's CRN instead, which is no fixed value). The emulator's
 * iam reads them for its engine resources (users, machine users, groups,
 * access keys, SSH keys, SAML and LDAP providers, SCIM tokens, the role
 * catalogues, the account's settings). Checked against the wire by
 * test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

export const resources = {
  resources: {
    user: {
      shape: 'User',
      crnType: 'user',
      deleted: { ends: 'gone' },
      values: {
        status: ['ACTIVE', 'CONTROL_PLANE_LOCKED_OUT', 'DEACTIVATED'],
        // identityProviderCrn is not listed: "Cloudera-Default", "Cloudera-Administration", or a customer
        // defined IdP's CRN (iam.yaml:1950), so its values are not a closed list. The built-in provider's
        // users show Cloudera-Default (test/unit/emulator/services/iam/identity-provider.test.ts).
      },
    },
    machineUser: {
      shape: 'MachineUser',
      crnType: 'machineUser',
      deleted: { ends: 'gone' },
      values: { status: ['ACTIVE', 'CONTROL_PLANE_LOCKED_OUT'] },
    },
    group: {
      shape: 'Group',
      crnType: 'group',
      deleted: { ends: 'gone' },
      // A member removed is gone from listGroupMembers at once (iam.yaml: removeUserFromGroup, removeMachineUserFromGroup).
      deletedBy: { removeUserFromGroup: 'held', removeMachineUserFromGroup: 'held' },
    },
    accessKey: { shape: 'AccessKey', crnType: 'accessKey', deleted: { ends: 'gone' } },
    samlProvider: { shape: 'SamlProvider', crnType: 'samlProvider', deleted: { ends: 'gone' } },
    ldapProvider: {
      shape: 'LdapProvider',
      crnType: 'ldapProvider',
      deleted: { ends: 'gone' },
      fields: { id: 'identityProviderConnectorId' },
    },
    sshPublicKey: { shape: 'SshPublicKey', crnType: 'sshPublicKey', deleted: { ends: 'gone' } },
    scimAccessToken: { shape: 'ScimAccessToken', crnType: 'scimAccessToken', deleted: { ends: 'gone' } },
    /** The account's settings: one an account, never made or deleted by a caller. */
    account: { shape: 'Account' },
    /** Built in, in the altus account: never made or deleted by a caller. */
    role: { shape: 'Role', crnType: 'role' },
    resourceRole: { shape: 'ResourceRole', crnType: 'resourceRole' },
    policy: { shape: 'Policy', crnType: 'policy' },
  },
} as const satisfies ServiceResources;
