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
import { page } from '../../paging.js';
import { requireEnvironment } from '../../environments.js';
import type { Doc, RequestContext } from '../../types.js';

export const KIND = {
  share: 'datacatalog.share',
  user: 'datacatalog.externalUser',
  review: 'datacatalog.tagReview',
  profilers: 'datacatalog.profilers',
} as const;

interface Asset {
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

interface Access {
  userId: number;
  sharedOn: string;
  validTill?: string;
}

interface ShareRecord {
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

interface UserRecord {
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

const lakeKey = (ctx: RequestContext, datalakeCrn: string): string => `${ctx.caller.accountId}|${datalakeCrn}`;
const userKey = (ctx: RequestContext, userId: number): string => `${ctx.caller.accountId}:${userId}`;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The data lake and the environment (one of the account's, by its CRN) a request names. */
function lakeOf(req: Doc, ctx: RequestContext): { datalakeCrn: string; environmentCrn: string } {
  const datalakeCrn = String(req.datalakeCrn);
  const environmentCrn = String(req.environmentCrn);
  if (!datalakeCrn.startsWith('crn:')) throw invalid(`datalakeCrn must be a CRN; got "${datalakeCrn}"`);
  if (!environmentCrn.startsWith('crn:')) throw invalid(`environmentCrn must be a CRN; got "${environmentCrn}"`);
  return { datalakeCrn, environmentCrn: requireEnvironment(ctx, environmentCrn).crn };
}

// ---- data shares

function getShare(req: Doc, ctx: RequestContext): ShareRecord {
  const { datalakeCrn } = lakeOf(req, ctx);
  const id = String(req.dataShareId);
  const share = ctx.store.get<ShareRecord>(KIND.share, id);
  if (!share || share.accountId !== ctx.caller.accountId || share.datalakeCrn !== datalakeCrn)
    throw notFound(`data share "${id}" not found in data lake ${datalakeCrn}`);
  return share;
}

function saveShare(ctx: RequestContext, share: ShareRecord): void {
  ctx.store.put(KIND.share, share.dataShareId, share, { parent: lakeKey(ctx, share.datalakeCrn) });
}

function mustBeNotShared(share: ShareRecord, what: string): void {
  if (share.isShared)
    throw failedPrecondition(
      `data share "${share.dataShareName}" is shared; unshare it before you ${what} (changes are allowed only while Not Shared)`,
    );
}

function makeAssets(ctx: RequestContext, share: ShareRecord, assets: Doc[]): Asset[] {
  const now = ctx.clock.iso();
  const out: Asset[] = [];
  for (const a of assets) {
    const databaseName = String(a.databaseName);
    const tableName = String(a.tableName);
    const same = (x: Asset): boolean =>
      x.databaseName.toLowerCase() === databaseName.toLowerCase() && x.tableName.toLowerCase() === tableName.toLowerCase();
    if (share.assets.some(same) || out.some(same))
      throw alreadyExists(`table ${databaseName}.${tableName} is already in data share "${share.dataShareName}"`);
    const asset: Asset = {
      resourceId: String(share.nextResourceId++),
      guid: str(a.guid) ?? uuid(),
      databaseName,
      tableName,
      createTime: now,
      createdBy: ctx.caller.actorCrn,
      updateTime: now,
      updatedBy: ctx.caller.actorCrn,
    };
    if (Array.isArray(a.columns) && a.columns.length > 0) asset.columns = a.columns.map(String);
    out.push(asset);
  }
  return out;
}

/** The users of a grant must exist in the share's data lake and be active. */
function grantAccess(ctx: RequestContext, share: ShareRecord, updates: Doc[]): void {
  const now = ctx.clock.iso();
  for (const u of updates) {
    const userId = Number(u.externalUserId);
    if (!Number.isInteger(userId)) throw invalid('externalUsers[].externalUserId is required');
    const user = ctx.store.get<UserRecord>(KIND.user, userKey(ctx, userId));
    if (!user || user.datalakeCrn !== share.datalakeCrn)
      throw notFound(`external user ${userId} not found in data lake ${share.datalakeCrn}`);
    if (!user.isActive) throw failedPrecondition(`external user ${userId} has revoked credentials; regenerate them first`);
    const validTill = str(u.expiryTime);
    const hit = share.access.find((x) => x.userId === userId);
    if (hit) {
      if (validTill) hit.validTill = validTill;
      else delete hit.validTill;
    } else share.access.push({ userId, sharedOn: now, ...(validTill ? { validTill } : {}) });
  }
}

export function createShare(req: Doc, ctx: RequestContext): Doc {
  const { datalakeCrn, environmentCrn } = lakeOf(req, ctx);
  const name = String(req.dataShareName);
  const taken = ctx.store
    .children<ShareRecord>(KIND.share, lakeKey(ctx, datalakeCrn))
    .some((s) => s.doc.dataShareName.toLowerCase() === name.toLowerCase());
  if (taken) throw alreadyExists(`a data share named "${name}" already exists in data lake ${datalakeCrn}`);
  const now = ctx.clock.iso();
  const share: ShareRecord = {
    dataShareId: uuid(),
    accountId: ctx.caller.accountId,
    datalakeCrn,
    environmentCrn,
    dataShareName: name,
    isShared: false,
    createdAt: now,
    updatedAt: now,
    createdBy: ctx.caller.actorCrn,
    keywords: Array.isArray(req.keywords) ? req.keywords.map(String) : [],
    assets: [],
    access: [],
    nextResourceId: 1,
  };
  if (str(req.expiryTime)) share.expiryTime = str(req.expiryTime);
  if (typeof req.summary === 'string') share.summary = req.summary;
  if (typeof req.termsOfUse === 'string') share.termsOfUse = req.termsOfUse;
  share.assets = makeAssets(ctx, share, (req.assets as Doc[] | undefined) ?? []);
  grantAccess(ctx, share, (req.externalUsers as Doc[] | undefined) ?? []);
  saveShare(ctx, share);
  return { dataShareId: share.dataShareId, dataShareName: share.dataShareName, datalakeCrn };
}

function shareUsers(ctx: RequestContext, share: ShareRecord): Doc[] {
  const out: Doc[] = [];
  for (const a of share.access) {
    const user = ctx.store.get<UserRecord>(KIND.user, userKey(ctx, a.userId));
    if (!user) continue;
    out.push({
      userId: user.userId,
      username: user.username,
      clientId: user.clientId,
      companyName: user.companyName,
      permissions: ['READ'],
      sharedOn: a.sharedOn,
      ...(a.validTill ? { validTill: a.validTill } : {}),
    });
  }
  return out;
}

export function describeShare(req: Doc, ctx: RequestContext): Doc {
  const s = getShare(req, ctx);
  return {
    dataShareId: s.dataShareId,
    dataShareName: s.dataShareName,
    isShared: s.isShared,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    createdBy: s.createdBy,
    keywords: s.keywords,
    tags: [...new Set(s.assets.flatMap((a) => acceptedTagsOf(ctx, s.datalakeCrn, `${a.databaseName}.${a.tableName}`)))],
    ...(s.expiryTime ? { expiryTime: s.expiryTime } : {}),
    assets: s.assets,
    externalUsers: shareUsers(ctx, s),
    ...(s.summary !== undefined ? { summary: s.summary } : {}),
    ...(s.termsOfUse !== undefined ? { termsOfUse: s.termsOfUse } : {}),
  };
}

/** The last page carries an empty nextToken, as the service does. */
function pageWithEmptyEnd<T>(items: readonly T[], req: Doc): { items: T[]; nextToken: string } {
  const p = page(items, req, { defaultSize: 100, maxSize: 100 });
  return { items: p.items, nextToken: p.nextToken ?? '' };
}

export function listShares(req: Doc, ctx: RequestContext): Doc {
  const { datalakeCrn } = lakeOf(req, ctx);
  const filter = str(req.name)?.toLowerCase();
  const all = ctx.store
    .children<ShareRecord>(KIND.share, lakeKey(ctx, datalakeCrn))
    .map((r) => r.doc)
    .filter((s) => !filter || s.dataShareName.toLowerCase().includes(filter));
  const p = pageWithEmptyEnd(all, req);
  return {
    dataShares: p.items.map((s) => ({
      dataShareId: s.dataShareId,
      dataShareName: s.dataShareName,
      isShared: s.isShared,
      createdAt: s.createdAt,
      createdBy: s.createdBy,
      keywords: s.keywords,
      ...(s.expiryTime ? { expiryTime: s.expiryTime } : {}),
    })),
    nextToken: p.nextToken,
  };
}

export function updateShare(req: Doc, ctx: RequestContext): Doc {
  const s = getShare(req, ctx);
  const name = str(req.dataShareName);
  if (name && name.toLowerCase() !== s.dataShareName.toLowerCase()) {
    const taken = ctx.store
      .children<ShareRecord>(KIND.share, lakeKey(ctx, s.datalakeCrn))
      .some((x) => x.doc.dataShareId !== s.dataShareId && x.doc.dataShareName.toLowerCase() === name.toLowerCase());
    if (taken) throw alreadyExists(`a data share named "${name}" already exists in data lake ${s.datalakeCrn}`);
  }
  if (name) s.dataShareName = name;
  if (Array.isArray(req.keywords)) s.keywords = req.keywords.map(String);
  if (str(req.expiryTime)) s.expiryTime = str(req.expiryTime);
  if (typeof req.summary === 'string') s.summary = req.summary;
  if (typeof req.termsOfUse === 'string') s.termsOfUse = req.termsOfUse;
  s.updatedAt = ctx.clock.iso();
  saveShare(ctx, s);
  return {};
}

export function deleteShare(req: Doc, ctx: RequestContext): Doc {
  const s = getShare(req, ctx);
  mustBeNotShared(s, 'delete it');
  ctx.store.delete(KIND.share, s.dataShareId);
  return {};
}

export function share(req: Doc, ctx: RequestContext): Doc {
  const s = getShare(req, ctx);
  if (s.isShared) throw failedPrecondition(`data share "${s.dataShareName}" is already shared`);
  s.isShared = true;
  s.updatedAt = ctx.clock.iso();
  saveShare(ctx, s);
  return { success: true };
}

export function unshare(req: Doc, ctx: RequestContext): Doc {
  const s = getShare(req, ctx);
  if (!s.isShared) throw failedPrecondition(`data share "${s.dataShareName}" is not shared`);
  s.isShared = false;
  s.updatedAt = ctx.clock.iso();
  saveShare(ctx, s);
  return {};
}

export function addAssets(req: Doc, ctx: RequestContext): Doc {
  const s = getShare(req, ctx);
  mustBeNotShared(s, 'add assets');
  const added = makeAssets(ctx, s, req.assets as Doc[]);
  s.assets.push(...added);
  s.updatedAt = ctx.clock.iso();
  saveShare(ctx, s);
  return { assets: added };
}

export function removeAssets(req: Doc, ctx: RequestContext): Doc {
  const s = getShare(req, ctx);
  mustBeNotShared(s, 'remove assets');
  const ids = (req.resourceIds as string[]).map(String);
  const missing = ids.filter((id) => !s.assets.some((a) => a.resourceId === id));
  if (missing.length > 0) throw notFound(`data share "${s.dataShareName}" has no asset with resource id ${missing.join(', ')}`);
  s.assets = s.assets.filter((a) => !ids.includes(a.resourceId));
  s.updatedAt = ctx.clock.iso();
  saveShare(ctx, s);
  return {};
}

export function grant(req: Doc, ctx: RequestContext): Doc {
  const s = getShare(req, ctx);
  grantAccess(ctx, s, req.externalUsers as Doc[]);
  s.updatedAt = ctx.clock.iso();
  saveShare(ctx, s);
  return {};
}

export function removeAccess(req: Doc, ctx: RequestContext): Doc {
  const s = getShare(req, ctx);
  mustBeNotShared(s, "remove external users' access");
  const ids = (req.externalUserIds as number[]).map(Number);
  const missing = ids.filter((id) => !s.access.some((a) => a.userId === id));
  if (missing.length > 0) throw notFound(`external user ${missing.join(', ')} has no access to data share "${s.dataShareName}"`);
  s.access = s.access.filter((a) => !ids.includes(a.userId));
  s.updatedAt = ctx.clock.iso();
  saveShare(ctx, s);
  return {};
}

// ---- external users

const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

function newCredentials(): { clientId: string; secret: string } {
  return { clientId: `ext-${randomBytes(10).toString('hex')}`, secret: randomBytes(32).toString('base64url') };
}

function nextUserId(ctx: RequestContext): number {
  const key = `datacatalog.nextUserId.${ctx.caller.accountId}`;
  const n = Number(ctx.store.meta(key) ?? '1');
  ctx.store.setMeta(key, String(n + 1));
  return n;
}

function getUser(req: Doc, ctx: RequestContext): UserRecord {
  const { datalakeCrn } = lakeOf(req, ctx);
  const id = Number(req.externalUserId);
  const user = ctx.store.get<UserRecord>(KIND.user, userKey(ctx, id));
  if (!user || user.datalakeCrn !== datalakeCrn) throw notFound(`external user ${id} not found in data lake ${datalakeCrn}`);
  return user;
}

const userOut = (u: UserRecord, secret?: string): Doc => ({
  userId: u.userId,
  username: u.username,
  email: u.email,
  companyName: u.companyName,
  clientId: u.clientId,
  ...(secret ? { secret } : {}),
  createdAt: u.createdAt,
  expiryTime: u.expiryTime,
});

/** Drops a user's access to every share of their data lake. */
function dropEverywhere(ctx: RequestContext, user: UserRecord): void {
  for (const { doc } of ctx.store.children<ShareRecord>(KIND.share, lakeKey(ctx, user.datalakeCrn))) {
    if (!doc.access.some((a) => a.userId === user.userId)) continue;
    doc.access = doc.access.filter((a) => a.userId !== user.userId);
    saveShare(ctx, doc);
  }
}

export function createUsers(req: Doc, ctx: RequestContext): Doc {
  const { datalakeCrn, environmentCrn } = lakeOf(req, ctx);
  const parent = lakeKey(ctx, datalakeCrn);
  const existing = ctx.store.children<UserRecord>(KIND.user, parent).map((r) => r.doc);
  const out: Doc[] = [];
  const now = ctx.clock.now();
  for (const raw of req.externalUsers as Doc[]) {
    const username = String(raw.username);
    const email = String(raw.email);
    const companyName = String(raw.companyName);
    const clash = existing.find(
      (u) => u.username.toLowerCase() === username.toLowerCase() || u.email.toLowerCase() === email.toLowerCase(),
    );
    if (clash) {
      out.push({
        username,
        email,
        companyName,
        error: clash.username.toLowerCase() === username.toLowerCase() ? `user name "${username}" is taken` : `e-mail ${email} is taken`,
      });
      continue;
    }
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
      out.push({ username, email, companyName, error: `"${email}" is not an e-mail address` });
      continue;
    }
    const { clientId, secret } = newCredentials();
    const user: UserRecord = {
      userId: nextUserId(ctx),
      accountId: ctx.caller.accountId,
      datalakeCrn,
      environmentCrn,
      username,
      email,
      companyName,
      clientId,
      secretHash: secretHash(secret),
      createdAt: ctx.clock.iso(now),
      expiryTime: ctx.clock.iso(now + 365 * 86_400_000),
      isActive: true,
    };
    ctx.store.put(KIND.user, userKey(ctx, user.userId), user, { parent });
    existing.push(user);
    out.push(userOut(user, secret));
  }
  return { externalUsers: out };
}

export function listUsers(req: Doc, ctx: RequestContext): Doc {
  const { datalakeCrn } = lakeOf(req, ctx);
  const term = str(req.searchTerm)?.toLowerCase();
  const all = ctx.store
    .children<UserRecord>(KIND.user, lakeKey(ctx, datalakeCrn))
    .map((r) => r.doc)
    .filter((u) => !term || [u.username, u.email, u.companyName].some((f) => f.toLowerCase().includes(term)));
  // Seed 001 says nothing of this list's end marker: the last page has no nextToken, as elsewhere.
  const p = page(all, req, { defaultSize: 100, maxSize: 100 });
  return {
    externalUsers: p.items.map((u) => ({
      userId: u.userId,
      username: u.username,
      email: u.email,
      companyName: u.companyName,
      clientId: u.clientId,
      createdAt: u.createdAt,
      isActive: u.isActive,
    })),
    ...(p.nextToken ? { nextToken: p.nextToken } : {}),
  };
}

export function deleteUser(req: Doc, ctx: RequestContext): Doc {
  const user = getUser(req, ctx);
  dropEverywhere(ctx, user);
  ctx.store.delete(KIND.user, userKey(ctx, user.userId));
  return { success: true };
}

export function revokeUser(req: Doc, ctx: RequestContext): Doc {
  const user = getUser(req, ctx);
  if (!user.isActive) throw failedPrecondition(`the credentials of external user ${user.userId} are already revoked`);
  user.isActive = false;
  ctx.store.put(KIND.user, userKey(ctx, user.userId), user, { parent: lakeKey(ctx, user.datalakeCrn) });
  dropEverywhere(ctx, user);
  return { success: true };
}

export function regenerateUser(req: Doc, ctx: RequestContext): Doc {
  const user = getUser(req, ctx);
  const { clientId, secret } = newCredentials();
  user.clientId = clientId;
  user.secretHash = secretHash(secret);
  user.isActive = true;
  user.expiryTime = ctx.clock.iso(ctx.clock.now() + 365 * 86_400_000);
  ctx.store.put(KIND.user, userKey(ctx, user.userId), user, { parent: lakeKey(ctx, user.datalakeCrn) });
  return { externalUser: userOut(user, secret) };
}

// ---- tags and profilers

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

const reviewKey = (ctx: RequestContext, datalakeCrn: string): string => `${ctx.caller.accountId}|${datalakeCrn}`;

function reviewsOf(ctx: RequestContext, datalakeCrn: string): ReviewRecord {
  return ctx.store.get<ReviewRecord>(KIND.review, reviewKey(ctx, datalakeCrn)) ?? { reviewed: {}, accepted: {} };
}

function acceptedTagsOf(ctx: RequestContext, datalakeCrn: string, tableFqn: string): string[] {
  const { accepted } = reviewsOf(ctx, datalakeCrn);
  return Object.entries(accepted)
    .filter(([qn]) => qn.toLowerCase().startsWith(`${tableFqn.toLowerCase()}.`))
    .flatMap(([, tags]) => tags);
}

export function suggestedTags(req: Doc, ctx: RequestContext): Doc {
  const datalakeCrn = String(req.datalakeCrn);
  const table = str(req.tableFQN)?.toLowerCase();
  const column = str(req.columnFQN)?.toLowerCase();
  const since = str(req.profiledSince);
  if (since && Date.parse(since) > ctx.clock.now()) return { suggestedTags: [] };
  const { reviewed } = reviewsOf(ctx, datalakeCrn);
  const out: Doc[] = [];
  for (const [qn, tags] of Object.entries(PROFILE)) {
    if (column && qn !== column) continue;
    if (table && !qn.startsWith(`${table}.`)) continue;
    const pending = tags.filter((t) => !(reviewed[qn] ?? []).includes(t));
    if (pending.length > 0) out.push({ qualifiedName: qn, tags: pending });
  }
  return { suggestedTags: out };
}

export function reviewTags(req: Doc, ctx: RequestContext): Doc {
  const datalakeCrn = String(req.datalakeCrn);
  const accept = req.action === 'ACCEPT';
  const rec = reviewsOf(ctx, datalakeCrn);
  const reviewedTags: Doc[] = [];
  for (const a of req.assets as Doc[]) {
    const qn = String(a.qualifiedName).toLowerCase();
    const tags = (a.tags as string[]).map(String);
    const done = rec.reviewed[qn] ?? [];
    const pending = (PROFILE[qn] ?? []).filter((t) => !done.includes(t));
    const hit = tags.filter((t) => pending.includes(t));
    if (hit.length === 0) {
      reviewedTags.push({ qualifiedName: a.qualifiedName, tagsUpdated: [], status: 'FAILED' });
      continue;
    }
    rec.reviewed[qn] = [...done, ...hit];
    if (accept) rec.accepted[qn] = [...(rec.accepted[qn] ?? []), ...hit];
    reviewedTags.push({ qualifiedName: a.qualifiedName, tagsUpdated: hit, status: accept ? 'ACCEPTED' : 'REJECTED' });
  }
  ctx.store.put(KIND.review, reviewKey(ctx, datalakeCrn), rec);
  return { reviewedTags };
}

export function launchProfilers(req: Doc, ctx: RequestContext): Doc {
  const datalake = String(req.datalake);
  const key = `${ctx.caller.accountId}|${datalake.startsWith('crn:') ? crnId(datalake) : datalake.toLowerCase()}`;
  if (ctx.store.get(KIND.profilers, key)) throw alreadyExists(`the profilers of data lake ${datalake} are already launched`);
  // The data lake's own record, when the datalake service of this emulator has one.
  const lake = datalake.startsWith('crn:')
    ? ctx.store.getByCrn<Doc>(datalake)?.doc
    : ctx.store.getByName<Doc>('datalake.datalake', datalake);
  const lakeName = str(lake?.datalakeName) ?? crnId(datalake);
  const id = uuid();
  const compute = req.maxNodes !== undefined || req.profilers !== undefined || req.instanceTypes !== undefined;
  const cluster: Doc = {
    clusterName: `${lakeName}-profilers`.slice(0, 40),
    crn: crn('datahub', ctx.info.region, ctx.caller.accountId, 'cluster', id),
    creationDate: ctx.clock.iso(),
    clusterStatus: 'REQUESTED',
    nodeCount: req.enableHA === true ? 3 : compute ? Math.min(Number(req.maxNodes ?? 30), 3) : 1,
    workloadType: 'DataCatalogProfilers',
    cloudPlatform: str(lake?.cloudPlatform) ?? 'AWS',
    ...(str(lake?.environmentCrn) ? { environmentCrn: lake?.environmentCrn } : {}),
    ...(str(lake?.credentialCrn) ? { credentialCrn: lake?.credentialCrn } : {}),
    datalakeCrn: str(lake?.crn) ?? (datalake.startsWith('crn:') ? datalake : undefined),
    clusterTemplateCrn: crn('datahub', ctx.info.region, 'cloudera', 'clustertemplate', 'datacatalog-profilers'),
    imageDetails: {
      name: 'runtime-7.3.1',
      id: '2f6c1e3a-8d4b-4f7e-9a21-5c0b7d3e9f10',
      catalogUrl: 'https://cloudbreak-imagecatalog.s3.amazonaws.com/v3-prod-cb-image-catalog.json',
      catalogName: 'cdp-default',
    },
  };
  ctx.store.put(KIND.profilers, key, cluster);
  return { datahubCluster: cluster };
}

/**
 * Fine-grained access status per table: a table whose columns the profile
 * tags as PII or PCI is covered by a masking policy; others have none.
 */
export function fgacStatus(req: Doc): Doc {
  const out: Record<string, string> = {};
  for (const a of req.assets as Doc[]) {
    const table = `${String(a.databaseName)}.${String(a.tableName)}`;
    const prefix = `${table.toLowerCase()}.`;
    const sensitive = Object.entries(PROFILE).some(([qn, tags]) => qn.startsWith(prefix) && tags.some((t) => t === 'PII' || t === 'PCI'));
    out[table] = sensitive ? 'FGAC_POLICY_FOUND' : 'NO_FGAC_POLICY';
  }
  return { listOfFgacStatus: out };
}
