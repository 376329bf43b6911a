/**
 * The data catalog in the emulator: state and rules, no HTTP.
 *
 * Data shares belong to one data lake and start Not Shared. Sharing and
 * unsharing flip `isShared`; adding or removing assets, removing users'
 * access and deleting are refused while a share is shared. External users
 * get a client id and a secret at creation (the secret is shown once and
 * only its hash is kept); revoking disables them and drops their access to
 * every share, regenerating issues new credentials, deleting is final.
 * Tag suggestions come from a small built-in profile of each data lake.
 */
import { createHash, randomBytes } from 'node:crypto';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { crn, crnId, uuid } from '../../ids.js';
import { requireEnvironment } from '../../environments.js';
import type { BackendContext, Doc } from '../../types.js';
import { str } from '../../values.js';

export const KIND = {
  share: 'datacatalog.share',
  user: 'datacatalog.externalUser',
  review: 'datacatalog.tagReview',
  profilers: 'datacatalog.profilers',
} as const;

export interface Asset {
  resourceId: string;
  guid: string;
  databaseName: string;
  tableName: string;
  columns?: string[];
  createTime: string;
  createdBy: string;
  updateTime: string;
  updatedBy: string;
}

export interface Access {
  userId: number;
  sharedOn: string;
  validTill?: string;
}

export interface ShareRecord {
  dataShareId: string;
  accountId: string;
  datalakeCrn: string;
  environmentCrn: string;
  dataShareName: string;
  isShared: boolean;
  createdAt: string;
  updatedAt: string;
  createdBy: string;
  keywords: string[];
  expiryTime?: string;
  summary?: string;
  termsOfUse?: string;
  assets: Asset[];
  access: Access[];
  nextResourceId: number;
}

export interface UserRecord {
  userId: number;
  accountId: string;
  datalakeCrn: string;
  environmentCrn: string;
  username: string;
  email: string;
  companyName: string;
  clientId: string;
  /** sha256 of the secret, hex. */
  secretHash: string;
  createdAt: string;
  expiryTime: string;
  isActive: boolean;
}

interface ReviewRecord {
  /** qualified name -> tags reviewed (accepted or rejected) */
  reviewed: Record<string, string[]>;
  /** qualified name -> tags accepted */
  accepted: Record<string, string[]>;
}

/** A data lake a request names, in one of the account's environments. */
export interface Lake {
  readonly datalakeCrn: string;
  readonly environmentCrn: string;
}

/** A table to put in a share. */
export interface AssetSpec {
  readonly databaseName: string;
  readonly tableName: string;
  readonly guid?: string;
  readonly columns?: readonly string[];
}

/** An external user's access to a share, until a time or for good. */
export interface AccessSpec {
  readonly userId: number;
  readonly validTill?: string;
}

export interface ShareSpec {
  readonly name: string;
  readonly keywords: readonly string[];
  readonly expiryTime?: string;
  readonly summary?: string;
  readonly termsOfUse?: string;
  readonly assets: readonly AssetSpec[];
  readonly access: readonly AccessSpec[];
}

export interface ShareChange {
  readonly name?: string;
  readonly keywords?: readonly string[];
  readonly expiryTime?: string;
  readonly summary?: string;
  readonly termsOfUse?: string;
}

export interface ExternalUserSpec {
  readonly username: string;
  readonly email: string;
  readonly companyName: string;
}

/** A user made (with its secret, shown this once) or the reason it was not. */
export type UserResult =
  { readonly user: UserRecord; readonly secret: string } | { readonly spec: ExternalUserSpec; readonly error: string };

/** What the built-in profile of every data lake finds: column -> suggested tags. */
const PROFILE: Readonly<Record<string, readonly string[]>> = {
  'sales.customers.name': ['PII', 'PERSON_NAME'],
  'sales.customers.email': ['PII', 'EMAIL'],
  'sales.customers.phone': ['PII', 'PHONE_NUMBER'],
  'sales.orders.card_number': ['PCI', 'CREDIT_CARD'],
  'hr.employees.ssn': ['PII', 'US_SSN'],
  'hr.employees.email': ['PII', 'EMAIL'],
  'hr.employees.salary': ['CONFIDENTIAL'],
};

const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

function newCredentials(): { clientId: string; secret: string } {
  return { clientId: `ext-${randomBytes(10).toString('hex')}`, secret: randomBytes(32).toString('base64url') };
}

function mustBeNotShared(share: ShareRecord, what: string): void {
  if (share.isShared)
    throw failedPrecondition(
      `data share "${share.dataShareName}" is shared; unshare it before you ${what} (changes are allowed only while Not Shared)`,
    );
}

/**
 * Fine-grained access status per table: a table whose columns the profile
 * tags as PII or PCI is covered by a masking policy; others have none.
 */
export function fgacStatus(tables: ReadonlyArray<{ databaseName: string; tableName: string }>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const a of tables) {
    const table = `${a.databaseName}.${a.tableName}`;
    const prefix = `${table.toLowerCase()}.`;
    const sensitive = Object.entries(PROFILE).some(([qn, tags]) => qn.startsWith(prefix) && tags.some((t) => t === 'PII' || t === 'PCI'));
    out[table] = sensitive ? 'FGAC_POLICY_FOUND' : 'NO_FGAC_POLICY';
  }
  return out;
}

export class DataCatalogBackend {
  constructor(private readonly ctx: BackendContext) {}

  private get account(): string {
    return this.ctx.caller.accountId;
  }

  private lakeKey(datalakeCrn: string): string {
    return `${this.account}|${datalakeCrn}`;
  }

  private userKey(userId: number): string {
    return `${this.account}:${userId}`;
  }

  /** The data lake and the environment (one of the account's, by its CRN) a request names. */
  lake(datalakeCrn: string, environmentCrn: string): Lake {
    if (!datalakeCrn.startsWith('crn:')) throw invalid(`datalakeCrn must be a CRN; got "${datalakeCrn}"`);
    if (!environmentCrn.startsWith('crn:')) throw invalid(`environmentCrn must be a CRN; got "${environmentCrn}"`);
    return { datalakeCrn, environmentCrn: requireEnvironment(this.ctx, environmentCrn).crn };
  }

  // ---- data shares

  share(lake: Lake, id: string): ShareRecord {
    const share = this.ctx.store.get<ShareRecord>(KIND.share, id);
    if (!share || share.accountId !== this.account || share.datalakeCrn !== lake.datalakeCrn)
      throw notFound(`data share "${id}" not found in data lake ${lake.datalakeCrn}`);
    return share;
  }

  private save(share: ShareRecord): void {
    share.updatedAt = this.ctx.clock.iso();
    this.ctx.store.put(KIND.share, share.dataShareId, share, { parent: this.lakeKey(share.datalakeCrn) });
  }

  /** The shares of a data lake, those whose name contains `filter` (any case) when given. */
  shares(lake: Lake, filter?: string): ShareRecord[] {
    const f = filter?.toLowerCase();
    return this.ctx.store
      .children<ShareRecord>(KIND.share, this.lakeKey(lake.datalakeCrn))
      .map((r) => r.doc)
      .filter((s) => !f || s.dataShareName.toLowerCase().includes(f));
  }

  private nameTaken(datalakeCrn: string, name: string, except?: string): boolean {
    return this.ctx.store
      .children<ShareRecord>(KIND.share, this.lakeKey(datalakeCrn))
      .some((x) => x.doc.dataShareId !== except && x.doc.dataShareName.toLowerCase() === name.toLowerCase());
  }

  private makeAssets(share: ShareRecord, assets: readonly AssetSpec[]): Asset[] {
    const now = this.ctx.clock.iso();
    const out: Asset[] = [];
    for (const a of assets) {
      const same = (x: Asset): boolean =>
        x.databaseName.toLowerCase() === a.databaseName.toLowerCase() && x.tableName.toLowerCase() === a.tableName.toLowerCase();
      if (share.assets.some(same) || out.some(same))
        throw alreadyExists(`table ${a.databaseName}.${a.tableName} is already in data share "${share.dataShareName}"`);
      out.push({
        resourceId: String(share.nextResourceId++),
        guid: a.guid ?? uuid(),
        databaseName: a.databaseName,
        tableName: a.tableName,
        ...(a.columns && a.columns.length > 0 ? { columns: [...a.columns] } : {}),
        createTime: now,
        createdBy: this.ctx.caller.actorCrn,
        updateTime: now,
        updatedBy: this.ctx.caller.actorCrn,
      });
    }
    return out;
  }

  /** The users of a grant must exist in the share's data lake and be active. */
  private grantAccess(share: ShareRecord, access: readonly AccessSpec[]): void {
    const now = this.ctx.clock.iso();
    for (const u of access) {
      if (!Number.isInteger(u.userId)) throw invalid('externalUsers[].externalUserId is required');
      const user = this.ctx.store.get<UserRecord>(KIND.user, this.userKey(u.userId));
      if (!user || user.datalakeCrn !== share.datalakeCrn)
        throw notFound(`external user ${u.userId} not found in data lake ${share.datalakeCrn}`);
      if (!user.isActive) throw failedPrecondition(`external user ${u.userId} has revoked credentials; regenerate them first`);
      const hit = share.access.find((x) => x.userId === u.userId);
      if (hit) {
        if (u.validTill) hit.validTill = u.validTill;
        else delete hit.validTill;
      } else share.access.push({ userId: u.userId, sharedOn: now, ...(u.validTill ? { validTill: u.validTill } : {}) });
    }
  }

  createShare(lake: Lake, spec: ShareSpec): ShareRecord {
    if (this.nameTaken(lake.datalakeCrn, spec.name))
      throw alreadyExists(`a data share named "${spec.name}" already exists in data lake ${lake.datalakeCrn}`);
    const now = this.ctx.clock.iso();
    const share: ShareRecord = {
      dataShareId: uuid(),
      accountId: this.account,
      datalakeCrn: lake.datalakeCrn,
      environmentCrn: lake.environmentCrn,
      dataShareName: spec.name,
      isShared: false,
      createdAt: now,
      updatedAt: now,
      createdBy: this.ctx.caller.actorCrn,
      keywords: [...spec.keywords],
      ...(spec.expiryTime ? { expiryTime: spec.expiryTime } : {}),
      ...(spec.summary !== undefined ? { summary: spec.summary } : {}),
      ...(spec.termsOfUse !== undefined ? { termsOfUse: spec.termsOfUse } : {}),
      assets: [],
      access: [],
      nextResourceId: 1,
    };
    share.assets = this.makeAssets(share, spec.assets);
    this.grantAccess(share, spec.access);
    this.save(share);
    return share;
  }

  updateShare(lake: Lake, id: string, change: ShareChange): void {
    const s = this.share(lake, id);
    if (
      change.name &&
      change.name.toLowerCase() !== s.dataShareName.toLowerCase() &&
      this.nameTaken(s.datalakeCrn, change.name, s.dataShareId)
    )
      throw alreadyExists(`a data share named "${change.name}" already exists in data lake ${s.datalakeCrn}`);
    if (change.name) s.dataShareName = change.name;
    if (change.keywords) s.keywords = [...change.keywords];
    if (change.expiryTime) s.expiryTime = change.expiryTime;
    if (change.summary !== undefined) s.summary = change.summary;
    if (change.termsOfUse !== undefined) s.termsOfUse = change.termsOfUse;
    this.save(s);
  }

  deleteShare(lake: Lake, id: string): void {
    const s = this.share(lake, id);
    mustBeNotShared(s, 'delete it');
    this.ctx.store.delete(KIND.share, s.dataShareId);
  }

  /** Shares or unshares: only a change is allowed (sharing a shared share fails). */
  setShared(lake: Lake, id: string, shared: boolean): void {
    const s = this.share(lake, id);
    if (s.isShared === shared) throw failedPrecondition(`data share "${s.dataShareName}" is ${shared ? 'already shared' : 'not shared'}`);
    s.isShared = shared;
    this.save(s);
  }

  addAssets(lake: Lake, id: string, assets: readonly AssetSpec[]): Asset[] {
    const s = this.share(lake, id);
    mustBeNotShared(s, 'add assets');
    const added = this.makeAssets(s, assets);
    s.assets.push(...added);
    this.save(s);
    return added;
  }

  removeAssets(lake: Lake, id: string, resourceIds: readonly string[]): void {
    const s = this.share(lake, id);
    mustBeNotShared(s, 'remove assets');
    const missing = resourceIds.filter((r) => !s.assets.some((a) => a.resourceId === r));
    if (missing.length > 0) throw notFound(`data share "${s.dataShareName}" has no asset with resource id ${missing.join(', ')}`);
    s.assets = s.assets.filter((a) => !resourceIds.includes(a.resourceId));
    this.save(s);
  }

  grant(lake: Lake, id: string, access: readonly AccessSpec[]): void {
    const s = this.share(lake, id);
    this.grantAccess(s, access);
    this.save(s);
  }

  removeAccess(lake: Lake, id: string, userIds: readonly number[]): void {
    const s = this.share(lake, id);
    mustBeNotShared(s, "remove external users' access");
    const missing = userIds.filter((u) => !s.access.some((a) => a.userId === u));
    if (missing.length > 0) throw notFound(`external user ${missing.join(', ')} has no access to data share "${s.dataShareName}"`);
    s.access = s.access.filter((a) => !userIds.includes(a.userId));
    this.save(s);
  }

  /** The users with access to a share, each with their access. */
  shareUsers(share: ShareRecord): Array<{ user: UserRecord; access: Access }> {
    return share.access.flatMap((access) => {
      const user = this.ctx.store.get<UserRecord>(KIND.user, this.userKey(access.userId));
      return user ? [{ user, access }] : [];
    });
  }

  // ---- external users

  private nextUserId(): number {
    const key = `datacatalog.nextUserId.${this.account}`;
    const n = Number(this.ctx.store.meta(key) ?? '1');
    this.ctx.store.setMeta(key, String(n + 1));
    return n;
  }

  user(lake: Lake, id: number): UserRecord {
    const user = this.ctx.store.get<UserRecord>(KIND.user, this.userKey(id));
    if (!user || user.datalakeCrn !== lake.datalakeCrn) throw notFound(`external user ${id} not found in data lake ${lake.datalakeCrn}`);
    return user;
  }

  private saveUser(user: UserRecord): void {
    this.ctx.store.put(KIND.user, this.userKey(user.userId), user, { parent: this.lakeKey(user.datalakeCrn) });
  }

  /** The users of a data lake, those matching `term` in name, e-mail or company when given. */
  users(lake: Lake, term?: string): UserRecord[] {
    const t = term?.toLowerCase();
    return this.ctx.store
      .children<UserRecord>(KIND.user, this.lakeKey(lake.datalakeCrn))
      .map((r) => r.doc)
      .filter((u) => !t || [u.username, u.email, u.companyName].some((f) => f.toLowerCase().includes(t)));
  }

  /** Makes users one by one: a name or e-mail taken, or an e-mail that is not one, fails that user only. */
  createUsers(lake: Lake, specs: readonly ExternalUserSpec[]): UserResult[] {
    const existing = this.users(lake);
    const now = this.ctx.clock.now();
    return specs.map((spec): UserResult => {
      const clash = existing.find(
        (u) => u.username.toLowerCase() === spec.username.toLowerCase() || u.email.toLowerCase() === spec.email.toLowerCase(),
      );
      if (clash)
        return {
          spec,
          error:
            clash.username.toLowerCase() === spec.username.toLowerCase()
              ? `user name "${spec.username}" is taken`
              : `e-mail ${spec.email} is taken`,
        };
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(spec.email)) return { spec, error: `"${spec.email}" is not an e-mail address` };
      const { clientId, secret } = newCredentials();
      const user: UserRecord = {
        userId: this.nextUserId(),
        accountId: this.account,
        datalakeCrn: lake.datalakeCrn,
        environmentCrn: lake.environmentCrn,
        username: spec.username,
        email: spec.email,
        companyName: spec.companyName,
        clientId,
        secretHash: secretHash(secret),
        createdAt: this.ctx.clock.iso(now),
        expiryTime: this.ctx.clock.iso(now + 365 * 86_400_000),
        isActive: true,
      };
      this.saveUser(user);
      existing.push(user);
      return { user, secret };
    });
  }

  /** Drops a user's access to every share of their data lake. */
  private dropEverywhere(user: UserRecord): void {
    for (const { doc } of this.ctx.store.children<ShareRecord>(KIND.share, this.lakeKey(user.datalakeCrn))) {
      if (!doc.access.some((a) => a.userId === user.userId)) continue;
      doc.access = doc.access.filter((a) => a.userId !== user.userId);
      this.ctx.store.put(KIND.share, doc.dataShareId, doc, { parent: this.lakeKey(doc.datalakeCrn) });
    }
  }

  deleteUser(lake: Lake, id: number): void {
    const user = this.user(lake, id);
    this.dropEverywhere(user);
    this.ctx.store.delete(KIND.user, this.userKey(user.userId));
  }

  revokeUser(lake: Lake, id: number): void {
    const user = this.user(lake, id);
    if (!user.isActive) throw failedPrecondition(`the credentials of external user ${user.userId} are already revoked`);
    user.isActive = false;
    this.saveUser(user);
    this.dropEverywhere(user);
  }

  /** New credentials (the secret shown this once); the user is active again. */
  regenerateUser(lake: Lake, id: number): { user: UserRecord; secret: string } {
    const user = this.user(lake, id);
    const { clientId, secret } = newCredentials();
    user.clientId = clientId;
    user.secretHash = secretHash(secret);
    user.isActive = true;
    user.expiryTime = this.ctx.clock.iso(this.ctx.clock.now() + 365 * 86_400_000);
    this.saveUser(user);
    return { user, secret };
  }

  // ---- tags and profilers

  private reviews(datalakeCrn: string): ReviewRecord {
    return this.ctx.store.get<ReviewRecord>(KIND.review, this.lakeKey(datalakeCrn)) ?? { reviewed: {}, accepted: {} };
  }

  /** The tags accepted for the columns of a table. */
  acceptedTags(datalakeCrn: string, tableFqn: string): string[] {
    return Object.entries(this.reviews(datalakeCrn).accepted)
      .filter(([qn]) => qn.toLowerCase().startsWith(`${tableFqn.toLowerCase()}.`))
      .flatMap(([, tags]) => tags);
  }

  /** The profile's tags not yet reviewed, of a table or column when given; none when profiled since a time to come. */
  suggestedTags(
    datalakeCrn: string,
    filter: { table?: string; column?: string; since?: string },
  ): Array<{ qualifiedName: string; tags: string[] }> {
    if (filter.since && Date.parse(filter.since) > this.ctx.clock.now()) return [];
    const { reviewed } = this.reviews(datalakeCrn);
    const table = filter.table?.toLowerCase();
    const column = filter.column?.toLowerCase();
    const out: Array<{ qualifiedName: string; tags: string[] }> = [];
    for (const [qn, tags] of Object.entries(PROFILE)) {
      if (column && qn !== column) continue;
      if (table && !qn.startsWith(`${table}.`)) continue;
      const pending = tags.filter((t) => !(reviewed[qn] ?? []).includes(t));
      if (pending.length > 0) out.push({ qualifiedName: qn, tags: pending });
    }
    return out;
  }

  /** Accepts or rejects suggested tags; a column with none of them pending fails alone. */
  reviewTags(
    datalakeCrn: string,
    accept: boolean,
    assets: ReadonlyArray<{ qualifiedName: string; tags: readonly string[] }>,
  ): Array<{ qualifiedName: string; tagsUpdated: string[]; status: string }> {
    const rec = this.reviews(datalakeCrn);
    const out = assets.map((a) => {
      const qn = a.qualifiedName.toLowerCase();
      const done = rec.reviewed[qn] ?? [];
      const pending = (PROFILE[qn] ?? []).filter((t) => !done.includes(t));
      const hit = a.tags.filter((t) => pending.includes(t));
      if (hit.length === 0) return { qualifiedName: a.qualifiedName, tagsUpdated: [], status: 'FAILED' };
      rec.reviewed[qn] = [...done, ...hit];
      if (accept) rec.accepted[qn] = [...(rec.accepted[qn] ?? []), ...hit];
      return { qualifiedName: a.qualifiedName, tagsUpdated: hit, status: accept ? 'ACCEPTED' : 'REJECTED' };
    });
    this.ctx.store.put(KIND.review, this.lakeKey(datalakeCrn), rec);
    return out;
  }

  /** Launches a data lake's profilers once: a Data Hub cluster record (HA: 3 nodes; with compute options up to maxNodes, at most 3). */
  launchProfilers(datalake: string, opts: { enableHA: boolean; compute: boolean; maxNodes?: number }): Doc {
    const key = `${this.account}|${datalake.startsWith('crn:') ? crnId(datalake) : datalake.toLowerCase()}`;
    if (this.ctx.store.get(KIND.profilers, key)) throw alreadyExists(`the profilers of data lake ${datalake} are already launched`);
    // The data lake's own record, when the datalake service of this emulator has one.
    const lake = datalake.startsWith('crn:')
      ? this.ctx.store.getByCrn<Doc>(datalake)?.doc
      : this.ctx.store.getByName<Doc>('datalake.datalake', datalake);
    const lakeName = str(lake?.datalakeName) ?? crnId(datalake);
    const cluster: Doc = {
      clusterName: `${lakeName}-profilers`.slice(0, 40),
      crn: crn('datahub', this.ctx.info.region, this.account, 'cluster', uuid()),
      creationDate: this.ctx.clock.iso(),
      clusterStatus: 'REQUESTED',
      nodeCount: opts.enableHA ? 3 : opts.compute ? Math.min(opts.maxNodes ?? 30, 3) : 1,
      workloadType: 'DataCatalogProfilers',
      cloudPlatform: str(lake?.cloudPlatform) ?? 'AWS',
      ...(str(lake?.environmentCrn) ? { environmentCrn: lake?.environmentCrn } : {}),
      ...(str(lake?.credentialCrn) ? { credentialCrn: lake?.credentialCrn } : {}),
      datalakeCrn: str(lake?.crn) ?? (datalake.startsWith('crn:') ? datalake : undefined),
      clusterTemplateCrn: crn('datahub', this.ctx.info.region, 'cloudera', 'clustertemplate', 'datacatalog-profilers'),
      imageDetails: {
        name: 'runtime-7.3.1',
        id: '2f6c1e3a-8d4b-4f7e-9a21-5c0b7d3e9f10',
        catalogUrl: 'https://cloudbreak-imagecatalog.s3.amazonaws.com/v3-prod-cb-image-catalog.json',
        catalogName: 'cdp-default',
      },
    };
    this.ctx.store.put(KIND.profilers, key, cluster);
    return cluster;
  }
}
