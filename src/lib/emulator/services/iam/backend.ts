/**
 * The iam service's state and rules, without HTTP: users, machine users,
 * groups, role assignments, access keys, SSH keys, identity providers, SCIM
 * tokens, account settings, workload passwords and workload tokens. One
 * backend is made per request; it reads and writes the store inside that
 * request's transaction.
 *
 * Relations are stored as rows keyed by both ends (a membership is one row
 * under the group and one under the member), so every listing is one
 * indexed lookup and deleting an actor finds everything it holds.
 */
import { createHash, randomBytes } from 'node:crypto';
import { tokenHash } from '../../auth.js';
import type { Clock } from '../../clock.js';
import { requireEnvironment } from '../../environments.js';
import { alreadyExists, failedPrecondition, forbidden, invalid, notFound } from '../../errors.js';
import { crn, isCrn, uuid } from '../../ids.js';
import { issueKey } from '../../keys.js';
import { storeListing, type Listing } from '../../paging.js';
import type { Store } from '../../store.js';
import type { BackendContext, Caller, Doc, EmulatorInfo } from '../../types.js';
import { strings, uniq } from '../../values.js';
import { catalogue, type Catalogue } from './catalogue.js';
import {
  DEFAULT_POLICY,
  MAX_HISTORY,
  hashPassword,
  matches,
  policyFrom,
  policyViolation,
  type Policy,
  type StoredHash,
} from './passwords.js';
import {
  KIND,
  type AccessKeyRecord,
  type AccessKeyType,
  type MachineUserRecord,
  type UserRecord,
  type WorkloadTokenRecord,
} from './records.js';
import { parseSshPublicKey } from './ssh.js';
import type { resources } from '../../../model/services/iam/resources.js';
import type { Hook } from '../../engine/declare.js';

/** iam's resources (model/services/iam/resources.ts). */
export type R = keyof typeof resources.resources;

/** Kinds only the backend reads (the shared ones are in records.ts). */
const IDENTITY = 'iam.identity';

/**
 * The built-in identity provider, Cloudera SSO, by the CRN the API gives it
 * (audit.yaml's interactive login events; getDefaultIdentityProvider
 * answers it while no provider of the account is the default).
 */
const CLOUDERA_SSO_CRN = 'crn:altus:iam:us-west-1:altus:samlProvider:cloudera-sso';
/**
 * What a user of the built-in provider shows as its `identityProviderCrn`:
 * not a CRN but the name the API documents ("Cloudera-Default",
 * "Cloudera-Administration" for Cloudera's own staff, or a customer IdP's
 * CRN). A request may name the built-in provider by it as well.
 */
const BUILTIN_USERS_IDP = 'Cloudera-Default';

export interface GroupRecord {
  groupId: string;
  groupName: string;
  crn: string;
  creationDate: string;
  syncMembershipOnUserLogin: boolean;
}

interface MembershipRow {
  groupCrn: string;
  memberCrn: string;
}

interface RoleAssignmentRow {
  assigneeCrn: string;
  roleCrn: string;
}

interface ResourceAssignmentRow {
  assigneeCrn: string;
  resourceCrn: string;
  resourceRoleCrn: string;
}

interface SshKeyRecord {
  id: string;
  crn: string;
  actorCrn: string;
  publicKeyFingerprint: string;
  publicKey: string;
  description?: string;
  creationDate: string;
}

interface SamlProviderRecord {
  samlProviderId: string;
  samlProviderName: string;
  crn: string;
  creationDate: string;
  syncGroupsOnLogin: boolean;
  generateWorkloadUsernameByEmail: boolean;
  enableScim: boolean;
  samlMetadataDocument?: string;
  authnRequestConfigurationLastUpdated?: string;
  authnRequestSigningKeyDefined: boolean;
  currentAuthnRequestVerificationCertificateDefined: boolean;
  nextAuthnRequestVerificationCertificateDefined: boolean;
  samlResponseEncryptionDecryptionConfigurationLastUpdated?: string;
  samlResponseEncryptionCertificateDefined: boolean;
  currentSamlResponseDecryptionKeyDefined: boolean;
  nextSamlResponseDecryptionKeyDefined: boolean;
}

const LDAP_DETAIL_FIELDS = [
  'url',
  'userSearchBase',
  'userSearchFilter',
  'groupSearchBase',
  'groupSearchFilter',
  'bindDn',
  'userBindProperty',
  'groupDnProperty',
  'usernameMappingAttribute',
  'emailMappingAttribute',
  'firstNameMappingAttribute',
  'lastNameMappingAttribute',
  'groupNameMappingAttribute',
  'tlsCaCertificates',
  'startTls',
] as const;

interface LdapProviderRecord {
  identityProviderConnectorId: string;
  ldapProviderName: string;
  crn: string;
  creationDate: number;
  skipGroupSyncOnLogin: boolean;
  ldapDetails: Doc;
  /** Whether a bind password was given; the password itself is not kept. */
  bindPasswordSet: boolean;
}

interface ScimTokenRecord {
  accessTokenId: string;
  crn: string;
  creationDate: string;
  expirationDate: string;
  providerCrn: string;
  /** sha256 of the secret, hex. */
  secretHash: string;
}

interface AccountRecord {
  clouderaSSOLoginEnabled: boolean;
  clouderaSSOAllLoginEnabled: boolean;
  workloadPasswordPolicy: Policy;
  machineUserWorkloadPasswordPolicy?: Policy;
  userWorkloadPasswordChangedNotifications: boolean;
  contactYourAdministratorMessage?: string;
  defaultIdentityProviderCrn?: string;
}

interface WorkloadPasswordRecord {
  actorCrn: string;
  /** Newest first; history[0] is the current password. */
  history: StoredHash[];
  passwordExpirationDate?: string;
  passwordMinLifetimeDate?: string;
}

export interface DeletedActor {
  accessKeysDeleted: string[];
  groupsModified: string[];
  rolesUnassigned: string[];
  resourcesUnassigned: Array<{ resourceCrn: string; resourceRoleCrn: string }>;
}

type Actor = { kind: 'user'; rec: UserRecord } | { kind: 'machineUser'; rec: MachineUserRecord };

const DAY_MS = 86_400_000;
const SAML_NAME = /^[A-Za-z0-9_-]{1,128}$/;
const MACHINE_USER_NAME = /^(?!__)[A-Za-z0-9_-]{1,128}$/;
const TOKEN_LIFETIME_MS = 3_600_000;

export class IamBackend {
  readonly store: Store;
  readonly clock: Clock;
  readonly info: EmulatorInfo;
  readonly caller: Caller;
  readonly roles: Catalogue;
  private level?: 'admin' | 'viewer' | 'none';

  constructor(ctx: Pick<BackendContext, 'store' | 'clock' | 'info' | 'caller'>) {
    this.store = ctx.store;
    this.clock = ctx.clock;
    this.info = ctx.info;
    this.caller = ctx.caller;
    this.roles = catalogue(ctx.info.region);
  }

  private crn(type: string, id: string): string {
    return crn('iam', this.info.region, this.info.accountId, type, id, 'altus');
  }

  private now(): string {
    return this.clock.iso();
  }

  // ---------------------------------------------------------------- access

  /**
   * What the caller may do in iam: account administrators and holders of
   * PowerUser or IamUser (directly or through a group) may change anything;
   * IamViewer may read. Everybody may act on themselves.
   */
  accessLevel(): 'admin' | 'viewer' | 'none' {
    if (this.level) return this.level;
    const found = this.store.getByCrn<UserRecord | MachineUserRecord>(this.caller.actorCrn);
    if (found?.kind === KIND.user && (found.doc as UserRecord).accountAdmin) return (this.level = 'admin');
    const holders = [this.caller.actorCrn, ...this.groupsOf(this.caller.actorCrn)];
    const roleNames = new Set<string>();
    for (const h of holders) for (const r of this.store.children<RoleAssignmentRow>(KIND.roleAssignment, h)) roleNames.add(r.doc.roleCrn);
    const has = (name: string): boolean => roleNames.has(this.roles.roleCrn(name));
    if (has('PowerUser') || has('IamUser') || has('OwnerAdmin')) return (this.level = 'admin');
    if (has('IamViewer')) return (this.level = 'viewer');
    return (this.level = 'none');
  }

  /** Fails with PERMISSION_DENIED unless the caller may read (or change) iam, or acts on itself. */
  authorize(need: 'read' | 'write', operation: string, target?: string): void {
    if (target !== undefined && target === this.caller.actorCrn) return;
    const level = this.accessLevel();
    if (level === 'admin' || (level === 'viewer' && need === 'read')) return;
    throw forbidden(`${this.caller.actorCrn} is not allowed to call iam ${operation}`);
  }

  // ---------------------------------------------------------------- lookups

  user(ref: string): UserRecord {
    const rec = isCrn(ref) ? this.byCrn<UserRecord>(ref, KIND.user) : this.store.get<UserRecord>(KIND.user, ref);
    if (!rec) throw notFound(`user ${ref} not found`);
    return rec;
  }

  machineUser(ref: string): MachineUserRecord {
    const rec = isCrn(ref)
      ? this.byCrn<MachineUserRecord>(ref, KIND.machineUser)
      : this.store.getByName<MachineUserRecord>(KIND.machineUser, ref);
    if (!rec) throw notFound(`machine user ${ref} not found`);
    return rec;
  }

  group(ref: string): GroupRecord {
    const rec = isCrn(ref) ? this.byCrn<GroupRecord>(ref, KIND.group) : this.store.getByName<GroupRecord>(KIND.group, ref);
    if (!rec) throw notFound(`group ${ref} not found`);
    return rec;
  }

  /** A user or machine user by CRN. */
  actor(actorCrn: string): Actor {
    const found = this.store.getByCrn<UserRecord | MachineUserRecord>(actorCrn);
    if (found?.kind === KIND.user) return { kind: 'user', rec: found.doc as UserRecord };
    if (found?.kind === KIND.machineUser) return { kind: 'machineUser', rec: found.doc as MachineUserRecord };
    throw notFound(`no user or machine user has the CRN ${actorCrn}`);
  }

  private byCrn<T>(ref: string, kind: string): T | undefined {
    const found = this.store.getByCrn<T>(ref);
    return found?.kind === kind ? found.doc : undefined;
  }

  private putUser(rec: UserRecord): void {
    this.store.put(KIND.user, rec.userId, rec, { crn: rec.crn, name: rec.userId });
  }

  private putMachineUser(rec: MachineUserRecord): void {
    this.store.put(KIND.machineUser, String(rec.machineUserId), rec, { crn: rec.crn, name: rec.machineUserName });
  }

  private putGroup(rec: GroupRecord): void {
    this.store.put(KIND.group, rec.groupId, rec, { crn: rec.crn, name: rec.groupName });
  }

  private putKey(rec: AccessKeyRecord): void {
    this.store.put(KIND.accessKey, rec.accessKeyId, rec, { crn: rec.crn, parent: rec.actorCrn });
  }

  // ---------------------------------------------------------------- wire views

  private passwordDetails(actorCrn: string): Doc {
    const pw = this.store.get<WorkloadPasswordRecord>(KIND.workloadPassword, actorCrn);
    if (!pw) return { isPasswordSet: false };
    return {
      isPasswordSet: true,
      ...(pw.passwordExpirationDate ? { passwordExpirationDate: pw.passwordExpirationDate } : {}),
      ...(pw.passwordMinLifetimeDate ? { passwordMinLifetimeDate: pw.passwordMinLifetimeDate } : {}),
    };
  }

  userOut(u: UserRecord): Doc {
    return {
      userId: u.userId,
      crn: u.crn,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      creationDate: u.creationDate,
      accountAdmin: u.accountAdmin,
      identityProviderCrn: u.identityProviderCrn === CLOUDERA_SSO_CRN ? BUILTIN_USERS_IDP : u.identityProviderCrn,
      ...(u.lastInteractiveLogin ? { lastInteractiveLogin: u.lastInteractiveLogin } : {}),
      workloadUsername: u.workloadUsername,
      status: u.status,
      workloadPasswordDetails: this.passwordDetails(u.crn),
    };
  }

  machineUserOut(m: MachineUserRecord): Doc {
    return {
      machineUserName: m.machineUserName,
      crn: m.crn,
      creationDate: m.creationDate,
      workloadUsername: m.workloadUsername,
      status: m.status,
      workloadPasswordDetails: this.passwordDetails(m.crn),
    };
  }

  groupOut(g: GroupRecord): Doc {
    return { groupName: g.groupName, crn: g.crn, creationDate: g.creationDate, syncMembershipOnUserLogin: g.syncMembershipOnUserLogin };
  }

  keyOut(k: AccessKeyRecord): Doc {
    return {
      accessKeyId: k.accessKeyId,
      crn: k.crn,
      actorCrn: k.actorCrn,
      creationDate: k.creationDate,
      status: k.status,
      type: k.type,
      ...(k.lastUsage ? { lastUsage: k.lastUsage } : {}),
    };
  }

  // ---------------------------------------------------------------- workload usernames

  private workloadUsernameTaken(name: string): boolean {
    if (this.store.get(KIND.workloadUsername, name)) return true;
    // The bootstrap admin predates the registry.
    const adminCrn = this.store.meta('adminCrn');
    const admin = adminCrn ? this.byCrn<UserRecord>(adminCrn, KIND.user) : undefined;
    return admin?.workloadUsername === name;
  }

  private claimWorkloadUsername(wanted: string, owner: string): string {
    const base =
      wanted
        .toLowerCase()
        .replace(/[^a-z0-9._-]/g, '_')
        .slice(0, 60) || 'user';
    let name = base;
    for (let i = 1; this.workloadUsernameTaken(name); i++) name = `${base}${i}`;
    this.store.put(KIND.workloadUsername, name, { owner });
    return name;
  }

  // ---------------------------------------------------------------- users

  createUser(req: Doc): UserRecord {
    const email = String(req.email);
    const idpUserId = String(req.identityProviderUserId);
    if (!idpUserId.trim()) throw invalid('identityProviderUserId cannot be empty');
    let idpCrn: string;
    let byEmail = false;
    if (typeof req.samlProviderName === 'string') {
      const p = this.samlProvider(req.samlProviderName);
      idpCrn = p.crn;
      byEmail = p.generateWorkloadUsernameByEmail;
    } else {
      idpCrn = this.defaultIdentityProviderCrn();
    }
    const identityKey = `${idpCrn}|${idpUserId}`;
    if (this.store.get(IDENTITY, identityKey)) {
      throw alreadyExists(`a user with identity provider user ID ${idpUserId} already exists for ${idpCrn}`);
    }
    const userId = uuid();
    const userCrn = this.crn('user', userId);
    const rec: UserRecord = {
      userId,
      crn: userCrn,
      email,
      firstName: typeof req.firstName === 'string' ? req.firstName : '',
      lastName: typeof req.lastName === 'string' ? req.lastName : '',
      creationDate: this.now(),
      accountAdmin: false,
      identityProviderCrn: idpCrn,
      status: 'ACTIVE',
      workloadUsername: this.claimWorkloadUsername(byEmail ? (email.split('@')[0] ?? email) : idpUserId, userCrn),
      identityProviderUserId: idpUserId,
    };
    this.putUser(rec);
    this.store.put(IDENTITY, identityKey, { userId });
    for (const name of uniq(strings(req.groups))) {
      // A CRN must name an existing group; a missing name is created.
      const g = isCrn(name)
        ? this.group(name)
        : (this.store.getByName<GroupRecord>(KIND.group, name) ?? this.createGroup({ groupName: name }));
      this.link(g.crn, userCrn);
    }
    return rec;
  }

  /** The user named, or the caller when no user is named. */
  userOrCaller(ref: unknown): UserRecord {
    if (typeof ref === 'string' && ref) return this.user(ref);
    const me = this.actor(this.caller.actorCrn);
    if (me.kind !== 'user') throw notFound(`the caller ${this.caller.actorCrn} is a machine user, not a user`);
    return me.rec;
  }

  updateUser(ref: string, active: unknown): UserRecord {
    if (typeof active !== 'boolean') throw invalid('nothing to update: the request names no field to change');
    const u = this.user(ref);
    if (!active && u.crn === this.caller.actorCrn) throw failedPrecondition('you cannot deactivate yourself');
    u.status = active ? 'ACTIVE' : 'DEACTIVATED';
    this.putUser(u);
    return u;
  }

  unlockUser(ref: string): UserRecord {
    const u = this.user(ref);
    if (u.status === 'CONTROL_PLANE_LOCKED_OUT') {
      u.status = 'ACTIVE';
      this.putUser(u);
    }
    return u;
  }

  deleteUser(ref: string): DeletedActor {
    const u = this.user(ref);
    if (u.crn === this.caller.actorCrn) throw failedPrecondition('you cannot delete yourself');
    const out = this.removeActorState(u.crn);
    this.store.delete(KIND.user, u.userId);
    if (typeof u.identityProviderUserId === 'string') this.store.delete(IDENTITY, `${u.identityProviderCrn}|${u.identityProviderUserId}`);
    this.store.delete(KIND.workloadUsername, u.workloadUsername);
    return out;
  }

  /** Everything an actor holds: keys, memberships, assignments, SSH keys, password, tokens. */
  private removeActorState(actorCrn: string): DeletedActor {
    const accessKeysDeleted: string[] = [];
    for (const k of this.keysOf(actorCrn)) {
      this.store.delete(KIND.accessKey, k.accessKeyId);
      accessKeysDeleted.push(k.crn);
    }
    const groupsModified = this.groupsOf(actorCrn);
    for (const g of groupsModified) this.unlink(g, actorCrn);
    const rolesUnassigned: string[] = [];
    for (const r of this.store.children<RoleAssignmentRow>(KIND.roleAssignment, actorCrn)) {
      this.store.delete(KIND.roleAssignment, r.id);
      rolesUnassigned.push(r.doc.roleCrn);
    }
    const resourcesUnassigned: DeletedActor['resourcesUnassigned'] = [];
    for (const r of this.store.children<ResourceAssignmentRow>(KIND.resourceAssignment, `a|${actorCrn}`)) {
      this.dropResourceAssignment(r.doc);
      resourcesUnassigned.push({ resourceCrn: r.doc.resourceCrn, resourceRoleCrn: r.doc.resourceRoleCrn });
    }
    for (const s of this.store.children<SshKeyRecord>(KIND.sshKey, actorCrn)) this.store.delete(KIND.sshKey, s.id);
    for (const t of this.store.children<WorkloadTokenRecord>(KIND.workloadToken, actorCrn)) this.store.delete(KIND.workloadToken, t.id);
    this.store.delete(KIND.workloadPassword, actorCrn);
    return { accessKeysDeleted, groupsModified, rolesUnassigned, resourcesUnassigned };
  }

  /** The users named (each must exist), or every user in creation order. */
  listUsers(ids: readonly string[]): readonly UserRecord[] | Listing<UserRecord> {
    if (ids.length === 0) return storeListing<UserRecord>(this.store, KIND.user);
    return uniq(ids).map((id) => this.user(id));
  }

  migrateUsers(from: string, to: string): number {
    const source = this.identityProviderCrn(from);
    const target = this.identityProviderCrn(to);
    if (source === target) throw invalid('the original and new identity providers are the same');
    let n = 0;
    for (const { doc: u } of this.store.list<UserRecord>(KIND.user)) {
      if (u.identityProviderCrn !== source) continue;
      const idpUserId = typeof u.identityProviderUserId === 'string' ? u.identityProviderUserId : u.userId;
      if (this.store.get(IDENTITY, `${target}|${idpUserId}`)) {
        throw alreadyExists(`the new identity provider already has a user with identity provider user ID ${idpUserId}`);
      }
      this.store.delete(IDENTITY, `${source}|${idpUserId}`);
      this.store.put(IDENTITY, `${target}|${idpUserId}`, { userId: u.userId });
      u.identityProviderCrn = target;
      this.putUser(u);
      n++;
    }
    return n;
  }

  // ---------------------------------------------------------------- machine users

  createMachineUser(name: string): MachineUserRecord {
    if (!MACHINE_USER_NAME.test(name)) {
      throw invalid('machine user names use letters, digits, "-" and "_", do not start with "__", and are at most 128 characters');
    }
    if (this.store.getByName(KIND.machineUser, name)) throw alreadyExists(`a machine user named ${name} already exists`);
    const id = uuid();
    const mcrn = this.crn('machineUser', `${name}/${id}`);
    const rec: MachineUserRecord = {
      machineUserId: id,
      machineUserName: name,
      crn: mcrn,
      creationDate: this.now(),
      status: 'ACTIVE',
      workloadUsername: this.claimWorkloadUsername(`srv_${name}`, mcrn),
    };
    this.putMachineUser(rec);
    return rec;
  }

  deleteMachineUser(ref: string): DeletedActor {
    const m = this.machineUser(ref);
    if (m.crn === this.caller.actorCrn) throw failedPrecondition('a machine user cannot delete itself');
    const out = this.removeActorState(m.crn);
    this.store.delete(KIND.machineUser, String(m.machineUserId));
    this.store.delete(KIND.workloadUsername, m.workloadUsername);
    return out;
  }

  unlockMachineUser(ref: string): MachineUserRecord {
    const m = this.machineUser(ref);
    if (m.status === 'CONTROL_PLANE_LOCKED_OUT') {
      m.status = 'ACTIVE';
      this.putMachineUser(m);
    }
    return m;
  }

  listMachineUsers(names: readonly string[]): readonly MachineUserRecord[] | Listing<MachineUserRecord> {
    if (names.length === 0) return storeListing<MachineUserRecord>(this.store, KIND.machineUser);
    return uniq(names).map((n) => this.machineUser(n));
  }

  // ---------------------------------------------------------------- groups and membership

  createGroup(req: Doc): GroupRecord {
    const name = String(req.groupName);
    if (!name.trim() || isCrn(name) || name.length > 256) throw invalid('a group name must be 1 to 256 characters and not a CRN');
    if (this.store.getByName(KIND.group, name)) throw alreadyExists(`a group named ${name} already exists`);
    const id = uuid();
    const rec: GroupRecord = {
      groupId: id,
      groupName: name,
      crn: this.crn('group', `${name}/${id}`),
      creationDate: this.now(),
      syncMembershipOnUserLogin: typeof req.syncMembershipOnUserLogin === 'boolean' ? req.syncMembershipOnUserLogin : true,
    };
    this.putGroup(rec);
    return rec;
  }

  updateGroup(ref: string, sync: unknown): GroupRecord {
    const g = this.group(ref);
    if (typeof sync === 'boolean') {
      g.syncMembershipOnUserLogin = sync;
      this.putGroup(g);
    }
    return g;
  }

  deleteGroup(ref: string): void {
    const g = this.group(ref);
    for (const m of this.membersOf(g.crn)) this.unlink(g.crn, m);
    for (const r of this.store.children<RoleAssignmentRow>(KIND.roleAssignment, g.crn)) this.store.delete(KIND.roleAssignment, r.id);
    for (const r of this.store.children<ResourceAssignmentRow>(KIND.resourceAssignment, `a|${g.crn}`)) this.dropResourceAssignment(r.doc);
    this.store.delete(KIND.group, g.groupId);
  }

  listGroups(names: readonly string[]): readonly GroupRecord[] | Listing<GroupRecord> {
    if (names.length === 0) return storeListing<GroupRecord>(this.store, KIND.group);
    return uniq(names).map((n) => this.group(n));
  }

  private link(groupCrn: string, memberCrn: string): void {
    const row: MembershipRow = { groupCrn, memberCrn };
    this.store.put(KIND.membership, `g|${groupCrn}|${memberCrn}`, row, { parent: `g|${groupCrn}` });
    this.store.put(KIND.membership, `m|${memberCrn}|${groupCrn}`, row, { parent: `m|${memberCrn}` });
  }

  private unlink(groupCrn: string, memberCrn: string): void {
    this.store.delete(KIND.membership, `g|${groupCrn}|${memberCrn}`);
    this.store.delete(KIND.membership, `m|${memberCrn}|${groupCrn}`);
  }

  private isMember(groupCrn: string, memberCrn: string): boolean {
    return this.store.get(KIND.membership, `g|${groupCrn}|${memberCrn}`) !== undefined;
  }

  membersOf(groupCrn: string): string[] {
    return this.store.children<MembershipRow>(KIND.membership, `g|${groupCrn}`).map((r) => r.doc.memberCrn);
  }

  groupsOf(memberCrn: string): string[] {
    return this.store.children<MembershipRow>(KIND.membership, `m|${memberCrn}`).map((r) => r.doc.groupCrn);
  }

  addMember(groupRef: string, memberCrn: string): void {
    const g = this.group(groupRef);
    if (this.isMember(g.crn, memberCrn)) throw alreadyExists(`${memberCrn} is already a member of group ${g.groupName}`);
    this.link(g.crn, memberCrn);
  }

  removeMember(groupRef: string, memberCrn: string): void {
    const g = this.group(groupRef);
    if (!this.isMember(g.crn, memberCrn)) throw notFound(`${memberCrn} is not a member of group ${g.groupName}`);
    this.unlink(g.crn, memberCrn);
  }

  // ---------------------------------------------------------------- roles and resource roles

  private roleCrnOf(ref: string): string {
    const r = this.roles.findRole(ref);
    if (!r) throw notFound(`role ${ref} not found`);
    return r.crn;
  }

  private resourceRoleCrnOf(ref: string): string {
    const r = this.roles.findResourceRole(ref);
    if (!r) throw notFound(`resource role ${ref} not found`);
    return r.crn;
  }

  assignRole(assigneeCrn: string, roleRef: string): void {
    const roleCrn = this.roleCrnOf(roleRef);
    const id = `${assigneeCrn}|${roleCrn}`;
    if (this.store.get(KIND.roleAssignment, id)) throw alreadyExists(`role ${roleCrn} is already assigned to ${assigneeCrn}`);
    const row: RoleAssignmentRow = { assigneeCrn, roleCrn };
    this.store.put(KIND.roleAssignment, id, row, { parent: assigneeCrn });
  }

  unassignRole(assigneeCrn: string, roleRef: string): void {
    const roleCrn = this.roleCrnOf(roleRef);
    if (!this.store.delete(KIND.roleAssignment, `${assigneeCrn}|${roleCrn}`)) {
      throw notFound(`role ${roleCrn} is not assigned to ${assigneeCrn}`);
    }
  }

  assignedRoles(assigneeCrn: string): string[] {
    return this.store.children<RoleAssignmentRow>(KIND.roleAssignment, assigneeCrn).map((r) => r.doc.roleCrn);
  }

  assignResourceRole(assigneeCrn: string, resourceRoleRef: string, resourceCrn: string): void {
    if (!isCrn(resourceCrn)) throw invalid(`resourceCrn must be a CRN, not ${resourceCrn.slice(0, 200)}`);
    const resourceRoleCrn = this.resourceRoleCrnOf(resourceRoleRef);
    const row: ResourceAssignmentRow = { assigneeCrn, resourceCrn, resourceRoleCrn };
    const id = `a|${assigneeCrn}|${resourceCrn}|${resourceRoleCrn}`;
    if (this.store.get(KIND.resourceAssignment, id)) {
      throw alreadyExists(`resource role ${resourceRoleCrn} on ${resourceCrn} is already assigned to ${assigneeCrn}`);
    }
    this.store.put(KIND.resourceAssignment, id, row, { parent: `a|${assigneeCrn}` });
    this.store.put(KIND.resourceAssignment, `r|${resourceCrn}|${assigneeCrn}|${resourceRoleCrn}`, row, { parent: `r|${resourceCrn}` });
  }

  unassignResourceRole(assigneeCrn: string, resourceRoleRef: string, resourceCrn: string): void {
    const resourceRoleCrn = this.resourceRoleCrnOf(resourceRoleRef);
    const row = this.store.get<ResourceAssignmentRow>(KIND.resourceAssignment, `a|${assigneeCrn}|${resourceCrn}|${resourceRoleCrn}`);
    if (!row) throw notFound(`resource role ${resourceRoleCrn} on ${resourceCrn} is not assigned to ${assigneeCrn}`);
    this.dropResourceAssignment(row);
  }

  private dropResourceAssignment(r: ResourceAssignmentRow): void {
    this.store.delete(KIND.resourceAssignment, `a|${r.assigneeCrn}|${r.resourceCrn}|${r.resourceRoleCrn}`);
    this.store.delete(KIND.resourceAssignment, `r|${r.resourceCrn}|${r.assigneeCrn}|${r.resourceRoleCrn}`);
  }

  assignedResourceRoles(assigneeCrn: string): Array<{ resourceCrn: string; resourceRoleCrn: string }> {
    return this.store
      .children<ResourceAssignmentRow>(KIND.resourceAssignment, `a|${assigneeCrn}`)
      .map((r) => ({ resourceCrn: r.doc.resourceCrn, resourceRoleCrn: r.doc.resourceRoleCrn }));
  }

  resourceAssignees(resourceCrn: string): Array<{ assigneeCrn: string; resourceRoleCrn: string }> {
    return this.store
      .children<ResourceAssignmentRow>(KIND.resourceAssignment, `r|${resourceCrn}`)
      .map((r) => ({ assigneeCrn: r.doc.assigneeCrn, resourceRoleCrn: r.doc.resourceRoleCrn }));
  }

  listRoles(names: string[]): Doc[] {
    const all = this.roles.roles();
    if (names.length === 0) return all;
    return uniq(names).map((n) => {
      const c = this.roleCrnOf(n);
      return all.find((r) => r.crn === c) as Doc;
    });
  }

  listResourceRoles(names: string[]): Doc[] {
    const all = this.roles.resourceRoles();
    if (names.length === 0) return all;
    return uniq(names).map((n) => {
      const c = this.resourceRoleCrnOf(n);
      return all.find((r) => r.crn === c) as Doc;
    });
  }

  // ---------------------------------------------------------------- access keys

  defaultKeyType(): AccessKeyType {
    return this.info.region.startsWith('usg') ? 'V3' : 'V2';
  }

  createAccessKey(actorCrn: string, type: unknown): { accessKey: Doc; privateKey: string } {
    const t: AccessKeyType = type === 'V1' || type === 'V2' || type === 'V3' ? type : this.defaultKeyType();
    const issued = issueKey(t);
    const accessKeyId = uuid();
    const rec: AccessKeyRecord = {
      accessKeyId,
      crn: this.crn('accessKey', accessKeyId),
      actorCrn,
      creationDate: this.now(),
      status: 'ACTIVE',
      type: t,
      publicKey: issued.publicKey,
    };
    this.putKey(rec);
    return { accessKey: this.keyOut(rec), privateKey: issued.privateKey };
  }

  /**
   * A sign-in through the console (console/ serves the pages): the user must
   * be active; the sign-in time is recorded and, as the real console does
   * for `cdp login`, a new access key is made for the user.
   */
  /** The account's first administrator (its first start, bootstrap.ts), with this id. */
  createAdmin(userId: string): UserRecord {
    const admin: UserRecord = {
      userId,
      crn: this.crn('user', userId),
      email: 'admin@example.com',
      firstName: 'Account',
      lastName: 'Admin',
      creationDate: this.now(),
      accountAdmin: true,
      identityProviderCrn: this.builtinIdentityProviderCrn(),
      status: 'ACTIVE',
      workloadUsername: 'admin',
    };
    this.putUser(admin);
    return admin;
  }

  consoleSignIn(userRef: string): { user: UserRecord; accessKey: Doc; privateKey: string } {
    const u = this.user(userRef);
    if (u.status !== 'ACTIVE') throw forbidden(`${u.email || u.userId} cannot sign in: the user is ${u.status}`);
    u.lastInteractiveLogin = this.now();
    this.putUser(u);
    return { user: u, ...this.createAccessKey(u.crn, undefined) };
  }

  accessKey(ref: string): AccessKeyRecord {
    const rec = isCrn(ref) ? this.byCrn<AccessKeyRecord>(ref, KIND.accessKey) : this.store.get<AccessKeyRecord>(KIND.accessKey, ref);
    if (!rec) throw notFound(`access key ${ref} not found`);
    return rec;
  }

  /** The named key, or the one that signed the request. */
  accessKeyOrCurrent(ref: unknown): AccessKeyRecord {
    if (typeof ref === 'string' && ref) return this.accessKey(ref);
    if (!this.caller.accessKeyId) throw invalid('accessKeyId is required when the request is not signed with an access key');
    return this.accessKey(this.caller.accessKeyId);
  }

  updateAccessKey(ref: string, status: unknown): AccessKeyRecord {
    if (status !== 'ACTIVE' && status !== 'INACTIVE') throw invalid('status must be ACTIVE or INACTIVE');
    const k = this.accessKey(ref);
    k.status = status;
    this.putKey(k);
    return k;
  }

  deleteAccessKey(ref: string): void {
    const k = this.accessKey(ref);
    this.store.delete(KIND.accessKey, k.accessKeyId);
  }

  keysOf(actorCrn: string): AccessKeyRecord[] {
    // The bootstrap key is stored without a parent, so scan rather than list children.
    return this.store
      .list<AccessKeyRecord>(KIND.accessKey)
      .map((r) => r.doc)
      .filter((k) => k.actorCrn === actorCrn);
  }

  /** The keys named, or every key; only the keys of `onlyActor` when given. */
  listAccessKeys(ids: readonly string[], onlyActor?: string): readonly AccessKeyRecord[] | Listing<AccessKeyRecord> {
    if (ids.length > 0) {
      const keys = uniq(ids).map((r) => this.accessKey(r));
      if (onlyActor && keys.some((k) => k.actorCrn !== onlyActor)) throw forbidden('you may list only your own access keys');
      return keys;
    }
    if (onlyActor) return this.keysOf(onlyActor);
    return storeListing<AccessKeyRecord>(this.store, KIND.accessKey);
  }

  // ---------------------------------------------------------------- SSH keys

  addSshKey(actorCrn: string, publicKey: string, description: unknown): SshKeyRecord {
    this.actor(actorCrn);
    const parsed = parseSshPublicKey(publicKey);
    if (this.store.children<SshKeyRecord>(KIND.sshKey, actorCrn).some((k) => k.doc.publicKeyFingerprint === parsed.fingerprint)) {
      throw alreadyExists(`the SSH key ${parsed.fingerprint} is already registered for ${actorCrn}`);
    }
    const id = uuid();
    const rec: SshKeyRecord = {
      id,
      crn: this.crn('sshPublicKey', id),
      actorCrn,
      publicKeyFingerprint: parsed.fingerprint,
      publicKey: parsed.text,
      ...(typeof description === 'string' ? { description } : {}),
      creationDate: this.now(),
    };
    this.store.put(KIND.sshKey, id, rec, { crn: rec.crn, parent: actorCrn });
    return rec;
  }

  sshKey(actorCrn: string, crnOrFingerprint: string): SshKeyRecord {
    const found = isCrn(crnOrFingerprint)
      ? this.byCrn<SshKeyRecord>(crnOrFingerprint, KIND.sshKey)
      : this.store.children<SshKeyRecord>(KIND.sshKey, actorCrn).find((k) => k.doc.publicKeyFingerprint === crnOrFingerprint)?.doc;
    if (!found || found.actorCrn !== actorCrn) throw notFound(`SSH public key ${crnOrFingerprint} not found for ${actorCrn}`);
    return found;
  }

  deleteSshKey(actorCrn: string, crnOrFingerprint: string): void {
    this.store.delete(KIND.sshKey, this.sshKey(actorCrn, crnOrFingerprint).id);
  }

  sshKeys(actorCrn: string): SshKeyRecord[] {
    this.actor(actorCrn);
    return this.store.children<SshKeyRecord>(KIND.sshKey, actorCrn).map((r) => r.doc);
  }

  sshKeyOut(k: SshKeyRecord): Doc {
    return {
      crn: k.crn,
      publicKeyFingerprint: k.publicKeyFingerprint,
      ...(k.description !== undefined ? { description: k.description } : {}),
      publicKey: k.publicKey,
    };
  }

  // ---------------------------------------------------------------- identity providers

  /** The built-in provider of users who sign in through the vendor single sign-on (Cloudera SSO), by its CRN. */
  builtinIdentityProviderCrn(): string {
    return CLOUDERA_SSO_CRN;
  }

  samlProvider(ref: string): SamlProviderRecord {
    const rec = isCrn(ref)
      ? this.byCrn<SamlProviderRecord>(ref, KIND.samlProvider)
      : this.store.getByName<SamlProviderRecord>(KIND.samlProvider, ref);
    if (!rec) throw notFound(`SAML provider ${ref} not found`);
    return rec;
  }

  ldapProvider(ref: string): LdapProviderRecord {
    const rec = isCrn(ref)
      ? this.byCrn<LdapProviderRecord>(ref, KIND.ldapProvider)
      : this.store.getByName<LdapProviderRecord>(KIND.ldapProvider, ref);
    if (!rec) throw notFound(`LDAP provider ${ref} not found`);
    return rec;
  }

  /** A SAML or LDAP provider, or the built-in one, by name or CRN. */
  identityProviderCrn(ref: string): string {
    if (ref === CLOUDERA_SSO_CRN || ref === BUILTIN_USERS_IDP) return CLOUDERA_SSO_CRN;
    const saml = isCrn(ref)
      ? this.byCrn<SamlProviderRecord>(ref, KIND.samlProvider)
      : this.store.getByName<SamlProviderRecord>(KIND.samlProvider, ref);
    if (saml) return saml.crn;
    const ldap = isCrn(ref)
      ? this.byCrn<LdapProviderRecord>(ref, KIND.ldapProvider)
      : this.store.getByName<LdapProviderRecord>(KIND.ldapProvider, ref);
    if (ldap) return ldap.crn;
    throw notFound(`identity provider ${ref} not found`);
  }

  private providerNameFree(name: string): void {
    if (this.store.getByName(KIND.samlProvider, name) || this.store.getByName(KIND.ldapProvider, name)) {
      throw alreadyExists(`an identity provider named ${name} already exists`);
    }
  }

  private checkMetadata(doc: unknown): void {
    if (typeof doc === 'string' && Buffer.byteLength(doc, 'utf8') > 200_000) {
      throw invalid('the SAML metadata document is larger than 200,000 bytes');
    }
  }

  private putSaml(rec: SamlProviderRecord): void {
    this.store.put(KIND.samlProvider, rec.samlProviderId, rec, { crn: rec.crn, name: rec.samlProviderName });
  }

  createSamlProvider(req: Doc): SamlProviderRecord {
    const name = String(req.samlProviderName);
    if (!SAML_NAME.test(name)) throw invalid('SAML provider names use letters, digits, "-" and "_" and are at most 128 characters');
    this.checkMetadata(req.samlMetadataDocument);
    this.providerNameFree(name);
    const id = uuid();
    const rec: SamlProviderRecord = {
      samlProviderId: id,
      samlProviderName: name,
      crn: this.crn('samlProvider', `${name}/${id}`),
      creationDate: this.now(),
      syncGroupsOnLogin: typeof req.syncGroupsOnLogin === 'boolean' ? req.syncGroupsOnLogin : true,
      generateWorkloadUsernameByEmail: req.generateWorkloadUsernameByEmail === true,
      enableScim: req.enableScim === true,
      ...(typeof req.samlMetadataDocument === 'string' ? { samlMetadataDocument: req.samlMetadataDocument } : {}),
      authnRequestSigningKeyDefined: false,
      currentAuthnRequestVerificationCertificateDefined: false,
      nextAuthnRequestVerificationCertificateDefined: false,
      samlResponseEncryptionCertificateDefined: false,
      currentSamlResponseDecryptionKeyDefined: false,
      nextSamlResponseDecryptionKeyDefined: false,
    };
    this.putSaml(rec);
    return rec;
  }

  updateSamlProvider(req: Doc): SamlProviderRecord {
    const p = this.samlProvider(String(req.samlProviderName));
    this.checkMetadata(req.samlMetadataDocument);
    if (typeof req.samlMetadataDocument === 'string') p.samlMetadataDocument = req.samlMetadataDocument;
    if (typeof req.syncGroupsOnLogin === 'boolean') p.syncGroupsOnLogin = req.syncGroupsOnLogin;
    if (typeof req.generateWorkloadUsernameByEmail === 'boolean') p.generateWorkloadUsernameByEmail = req.generateWorkloadUsernameByEmail;
    if (typeof req.enableScim === 'boolean') p.enableScim = req.enableScim;
    this.putSaml(p);
    return p;
  }

  deleteSamlProvider(ref: string): void {
    const p = this.samlProvider(ref);
    if (this.account().defaultIdentityProviderCrn === p.crn) {
      throw failedPrecondition(`SAML provider ${p.samlProviderName} is the default identity provider; choose another default first`);
    }
    for (const t of this.store.children<ScimTokenRecord>(KIND.scimToken, p.crn)) this.store.delete(KIND.scimToken, t.id);
    this.store.delete(KIND.samlProvider, p.samlProviderId);
  }

  listSamlProviders(names: readonly string[]): readonly SamlProviderRecord[] | Listing<SamlProviderRecord> {
    if (names.length === 0) return storeListing<SamlProviderRecord>(this.store, KIND.samlProvider);
    return uniq(names).map((n) => this.samlProvider(n));
  }

  samlProviderOut(p: SamlProviderRecord): Doc {
    const { samlProviderId, accountId, baseUrl } = {
      samlProviderId: p.samlProviderId,
      accountId: this.info.accountId,
      baseUrl: this.info.baseUrl,
    };
    const entity = `${baseUrl}/saml/${accountId}/${samlProviderId}`;
    return {
      crn: p.crn,
      creationDate: p.creationDate,
      samlProviderName: p.samlProviderName,
      samlProviderId,
      syncGroupsOnLogin: p.syncGroupsOnLogin,
      generateWorkloadUsernameByEmail: p.generateWorkloadUsernameByEmail,
      enableScim: p.enableScim,
      ...(p.enableScim ? { scimUrl: `${baseUrl}/scim/v2/${accountId}/${samlProviderId}` } : {}),
      ...(p.samlMetadataDocument !== undefined ? { samlMetadataDocument: p.samlMetadataDocument } : {}),
      cdpSpMetadata:
        `<?xml version="1.0"?><md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entity}">` +
        `<md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
        `<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${entity}/acs" index="0"/>` +
        `</md:SPSSODescriptor></md:EntityDescriptor>`,
      ...(p.authnRequestConfigurationLastUpdated ? { authnRequestConfigurationLastUpdated: p.authnRequestConfigurationLastUpdated } : {}),
      authnRequestSigningKeyDefined: p.authnRequestSigningKeyDefined,
      currentAuthnRequestVerificationCertificateDefined: p.currentAuthnRequestVerificationCertificateDefined,
      nextAuthnRequestVerificationCertificateDefined: p.nextAuthnRequestVerificationCertificateDefined,
      ...(p.samlResponseEncryptionDecryptionConfigurationLastUpdated
        ? { samlResponseEncryptionDecryptionConfigurationLastUpdated: p.samlResponseEncryptionDecryptionConfigurationLastUpdated }
        : {}),
      samlResponseEncryptionCertificateDefined: p.samlResponseEncryptionCertificateDefined,
      currentSamlResponseDecryptionKeyDefined: p.currentSamlResponseDecryptionKeyDefined,
      nextSamlResponseDecryptionKeyDefined: p.nextSamlResponseDecryptionKeyDefined,
    };
  }

  /** Replaces the signing key and verification certificates: what is left out is cleared. Only whether each is set is kept. */
  setAuthnRequestSigningKey(req: Doc): Doc {
    const p = this.samlProvider(String(req.samlProvider));
    const given = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';
    p.authnRequestSigningKeyDefined = given(req.authnRequestSigningKey);
    p.currentAuthnRequestVerificationCertificateDefined = given(req.currentAuthnRequestVerificationCertificate);
    p.nextAuthnRequestVerificationCertificateDefined = given(req.nextAuthnRequestVerificationCertificate);
    p.authnRequestConfigurationLastUpdated = this.now();
    this.putSaml(p);
    return {
      authnRequestConfigurationLastUpdated: p.authnRequestConfigurationLastUpdated,
      authnRequestSigningKeyDefined: p.authnRequestSigningKeyDefined,
      currentAuthnRequestVerificationCertificateDefined: p.currentAuthnRequestVerificationCertificateDefined,
      nextAuthnRequestVerificationCertificateDefined: p.nextAuthnRequestVerificationCertificateDefined,
    };
  }

  setResponseDecryptionKey(req: Doc): Doc {
    const p = this.samlProvider(String(req.samlProvider));
    const given = (v: unknown): boolean => typeof v === 'string' && v.trim() !== '';
    p.samlResponseEncryptionCertificateDefined = given(req.samlResponseEncryptionCertificate);
    p.currentSamlResponseDecryptionKeyDefined = given(req.currentSamlResponseDecryptionKey);
    p.nextSamlResponseDecryptionKeyDefined = given(req.nextSamlResponseDecryptionKey);
    p.samlResponseEncryptionDecryptionConfigurationLastUpdated = this.now();
    this.putSaml(p);
    return {
      samlResponseEncryptionDecryptionConfigurationLastUpdated: p.samlResponseEncryptionDecryptionConfigurationLastUpdated,
      samlResponseEncryptionCertificateDefined: p.samlResponseEncryptionCertificateDefined,
      currentSamlResponseDecryptionKeyDefined: p.currentSamlResponseDecryptionKeyDefined,
      nextSamlResponseDecryptionKeyDefined: p.nextSamlResponseDecryptionKeyDefined,
    };
  }

  private ldapDetails(req: Doc, previous?: LdapProviderRecord): { details: Doc; bindPasswordSet: boolean } {
    const url = String(req.url);
    if (!/^ldaps?:\/\/[^\s/:]+(:\d{1,5})?\/?$/i.test(url)) {
      throw invalid('the LDAP url must start with ldap:// or ldaps:// followed by a host and an optional port');
    }
    const bindPasswordSet = typeof req.bindPassword === 'string' ? req.bindPassword !== '' : (previous?.bindPasswordSet ?? false);
    if (bindPasswordSet && (typeof req.bindDn !== 'string' || !req.bindDn))
      throw invalid('bindDn is required unless the bind is anonymous');
    const details: Doc = {};
    for (const f of LDAP_DETAIL_FIELDS) if (req[f] !== undefined) details[f] = req[f];
    return { details, bindPasswordSet };
  }

  private putLdap(rec: LdapProviderRecord): void {
    this.store.put(KIND.ldapProvider, rec.identityProviderConnectorId, rec, { crn: rec.crn, name: rec.ldapProviderName });
  }

  createLdapProvider(req: Doc): LdapProviderRecord {
    const name = String(req.ldapProviderName);
    if (!SAML_NAME.test(name)) throw invalid('LDAP provider names use letters, digits, "-" and "_" and are at most 128 characters');
    this.providerNameFree(name);
    const { details, bindPasswordSet } = this.ldapDetails(req);
    const id = uuid();
    const rec: LdapProviderRecord = {
      identityProviderConnectorId: id,
      ldapProviderName: name,
      crn: this.crn('ldapProvider', `${name}/${id}`),
      creationDate: this.clock.now(),
      skipGroupSyncOnLogin: req.skipGroupSyncOnLogin === true,
      ldapDetails: details,
      bindPasswordSet,
    };
    this.putLdap(rec);
    return rec;
  }

  updateLdapProvider(req: Doc): LdapProviderRecord {
    const p = this.ldapProvider(String(req.ldapProviderName));
    const { details, bindPasswordSet } = this.ldapDetails(req, p);
    p.ldapDetails = details;
    p.bindPasswordSet = bindPasswordSet;
    if (typeof req.skipGroupSyncOnLogin === 'boolean') p.skipGroupSyncOnLogin = req.skipGroupSyncOnLogin;
    this.putLdap(p);
    return p;
  }

  ldapProviderOut(p: LdapProviderRecord): Doc {
    return {
      identityProviderConnectorId: p.identityProviderConnectorId,
      ldapProviderName: p.ldapProviderName,
      crn: p.crn,
      skipGroupSyncOnLogin: p.skipGroupSyncOnLogin,
      creationDate: p.creationDate,
      ldapDetails: { ...p.ldapDetails },
    };
  }

  defaultIdentityProviderCrn(): string {
    return this.account().defaultIdentityProviderCrn ?? this.builtinIdentityProviderCrn();
  }

  setDefaultIdentityProvider(ref: string): void {
    const c = this.identityProviderCrn(ref);
    const a = this.account();
    a.defaultIdentityProviderCrn = c;
    this.putAccount(a);
  }

  // ---------------------------------------------------------------- SCIM tokens

  createScimToken(providerRef: string, days: number): { accessToken: Doc; accessTokenSecret: string } {
    const p = this.samlProvider(providerRef);
    if (!p.enableScim) throw failedPrecondition(`SCIM is not enabled for SAML provider ${p.samlProviderName}`);
    if (!Number.isInteger(days) || days < 1 || days > 3650) throw invalid('accessTokenLifetimeDays must be between 1 and 3650');
    const id = uuid();
    const secret = randomBytes(32).toString('base64url');
    const now = this.clock.now();
    const rec: ScimTokenRecord = {
      accessTokenId: id,
      crn: this.crn('scimAccessToken', id),
      creationDate: this.clock.iso(now),
      expirationDate: this.clock.iso(now + days * DAY_MS),
      providerCrn: p.crn,
      secretHash: createHash('sha256').update(secret).digest('hex'),
    };
    this.store.put(KIND.scimToken, id, rec, { crn: rec.crn, parent: p.crn });
    return { accessToken: this.scimTokenOut(rec), accessTokenSecret: secret };
  }

  scimTokens(providerRef: string): ScimTokenRecord[] {
    const p = this.samlProvider(providerRef);
    return this.store.children<ScimTokenRecord>(KIND.scimToken, p.crn).map((r) => r.doc);
  }

  deleteScimToken(ref: string): void {
    const rec = isCrn(ref) ? this.byCrn<ScimTokenRecord>(ref, KIND.scimToken) : this.store.get<ScimTokenRecord>(KIND.scimToken, ref);
    if (!rec) throw notFound(`SCIM access token ${ref} not found`);
    this.store.delete(KIND.scimToken, rec.accessTokenId);
  }

  scimTokenOut(t: ScimTokenRecord): Doc {
    return { accessTokenId: t.accessTokenId, crn: t.crn, creationDate: t.creationDate, expirationDate: t.expirationDate };
  }

  // ---------------------------------------------------------------- account

  account(): AccountRecord {
    return (
      this.store.get<AccountRecord>(KIND.account, this.info.accountId) ?? {
        clouderaSSOLoginEnabled: true,
        clouderaSSOAllLoginEnabled: true,
        workloadPasswordPolicy: { ...DEFAULT_POLICY },
        userWorkloadPasswordChangedNotifications: false,
      }
    );
  }

  private putAccount(a: AccountRecord): void {
    this.store.put(KIND.account, this.info.accountId, a);
  }

  accountOut(a: AccountRecord = this.account()): Doc {
    return {
      clouderaSSOLoginEnabled: a.clouderaSSOLoginEnabled,
      clouderaSSOAllLoginEnabled: a.clouderaSSOAllLoginEnabled,
      workloadPasswordPolicy: { ...a.workloadPasswordPolicy },
      ...(a.machineUserWorkloadPasswordPolicy ? { machineUserWorkloadPasswordPolicy: { ...a.machineUserWorkloadPasswordPolicy } } : {}),
    };
  }

  /** Changes one account switch; setting it to what it already is changes nothing. */
  setAccountSwitch(name: 'clouderaSSOLoginEnabled' | 'userWorkloadPasswordChangedNotifications', on: boolean): AccountRecord {
    const a = this.account();
    if (a[name] !== on) {
      a[name] = on;
      this.putAccount(a);
    }
    return a;
  }

  setAccountMessages(message: unknown): void {
    const a = this.account();
    if (typeof message === 'string') a.contactYourAdministratorMessage = message;
    else delete a.contactYourAdministratorMessage;
    this.putAccount(a);
  }

  // ---------------------------------------------------------------- workload passwords

  setPasswordPolicy(req: Doc): void {
    const isObj = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
    if (!isObj(req.globalPasswordPolicy) && !isObj(req.machineUsersPasswordPolicy)) {
      throw invalid('give globalPasswordPolicy, machineUsersPasswordPolicy or both');
    }
    const a = this.account();
    if (isObj(req.globalPasswordPolicy)) a.workloadPasswordPolicy = policyFrom(req.globalPasswordPolicy);
    if (isObj(req.machineUsersPasswordPolicy)) a.machineUserWorkloadPasswordPolicy = policyFrom(req.machineUsersPasswordPolicy);
    this.putAccount(a);
  }

  unsetPasswordPolicy(global: unknown, machineUsers: unknown): void {
    if (global !== true && machineUsers !== true)
      throw invalid('nothing to unset: set unsetGlobalPasswordPolicy and/or unsetMachineUsersPasswordPolicy');
    const a = this.account();
    if (global === true) a.workloadPasswordPolicy = { ...DEFAULT_POLICY };
    if (machineUsers === true) delete a.machineUserWorkloadPasswordPolicy;
    this.putAccount(a);
  }

  setWorkloadPassword(actorCrn: string, password: string): void {
    const actor = this.actor(actorCrn);
    const a = this.account();
    const policy =
      actor.kind === 'machineUser' ? (a.machineUserWorkloadPasswordPolicy ?? a.workloadPasswordPolicy) : a.workloadPasswordPolicy;
    const now = this.clock.now();
    const prev = this.store.get<WorkloadPasswordRecord>(KIND.workloadPassword, actorCrn);
    if (prev?.passwordMinLifetimeDate && now < Date.parse(prev.passwordMinLifetimeDate)) {
      throw failedPrecondition(`the workload password cannot be changed before ${prev.passwordMinLifetimeDate}`);
    }
    const violation = policyViolation(password, policy);
    if (violation) throw invalid(violation);
    const history = prev?.history ?? [];
    if (policy.passwordHistorySize > 0 && history.slice(0, policy.passwordHistorySize).some((h) => matches(password, h))) {
      throw invalid(`the password was used recently: it must differ from the last ${policy.passwordHistorySize} passwords`);
    }
    const rec: WorkloadPasswordRecord = {
      actorCrn,
      history: [hashPassword(password), ...history].slice(0, MAX_HISTORY),
      ...(policy.maxPasswordLifetimeDays > 0
        ? { passwordExpirationDate: this.clock.iso(now + policy.maxPasswordLifetimeDays * DAY_MS) }
        : {}),
      ...(policy.minPasswordLifetimeDays > 0
        ? { passwordMinLifetimeDate: this.clock.iso(now + policy.minPasswordLifetimeDays * DAY_MS) }
        : {}),
    };
    this.store.put(KIND.workloadPassword, actorCrn, rec);
  }

  unsetPasswordMinLifetime(actorCrn: string): void {
    this.actor(actorCrn);
    const rec = this.store.get<WorkloadPasswordRecord>(KIND.workloadPassword, actorCrn);
    if (rec?.passwordMinLifetimeDate) {
      delete rec.passwordMinLifetimeDate;
      this.store.put(KIND.workloadPassword, actorCrn, rec);
    }
  }

  // ---------------------------------------------------------------- workload tokens

  /** A bearer token for a workload API; only its hash is stored. Tokens live one hour of real time. */
  generateWorkloadToken(req: Doc): Doc {
    const workloadName = String(req.workloadName);
    const asked = typeof req.environmentCrn === 'string' && req.environmentCrn ? req.environmentCrn : undefined;
    if (workloadName === 'DF' && !asked) throw invalid('environmentCrn is required for the DF workload');
    if (asked && !isCrn(asked)) throw invalid('environmentCrn must be a CRN');
    // The token is scoped to the environment (the workload paths check it), which must exist.
    const environmentCrn = asked ? requireEnvironment(this, asked).crn : undefined;
    const actorCrn = this.caller.actorCrn;
    const wall = Date.now();
    // Drop this actor's expired tokens so they do not pile up.
    for (const t of this.store.children<WorkloadTokenRecord>(KIND.workloadToken, actorCrn)) {
      if (t.doc.expireAt <= wall) this.store.delete(KIND.workloadToken, t.id);
    }
    const token = randomBytes(32).toString('base64url');
    const hash = tokenHash(token);
    const rec: WorkloadTokenRecord = {
      hash,
      actorCrn,
      ...(environmentCrn ? { environmentCrn } : {}),
      workloadName,
      expireAt: wall + TOKEN_LIFETIME_MS,
    };
    this.store.put(KIND.workloadToken, hash, rec, { parent: actorCrn });
    const path = workloadName === 'DF' ? 'dfx' : workloadName.toLowerCase();
    return { endpointUrl: `${this.info.baseUrl}/${path}/`, token, expireAt: new Date(rec.expireAt).toISOString() };
  }
}

/** iam's backend for the request a hook serves. */
export const backendOf = (h: Hook<R>): IamBackend => new IamBackend(h.ctx);
