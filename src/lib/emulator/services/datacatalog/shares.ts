/**
 * Data shares of a data lake: `dataShare` records in the lake's
 * environment, each holding its data lake's CRN (a share of another lake is
 * not found), its assets (tables, each with a resource id of its share) and
 * the external users' access to it (`externalUsers`, as granted: shown with
 * who they are). A share starts Not Shared; sharing and unsharing flip
 * `isShared`; adding or removing assets, removing users' access and deleting
 * are refused while it is shared. Every change is the update verb: each
 * operation's `rewrite` checks the request and says what it sets, the
 * share's `check.update` refuses a name taken in its data lake, and its
 * `effect.update` sets what any change does (the name, the update time, the
 * next asset id).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { pagingFor } from '../../engine/paging.js';
import { docs, str, strings, text } from '../../values.js';
import { acceptedTags } from './tags.js';

export type R = 'dataShare' | 'externalUser' | 'tagReview' | 'profilers';
export type Rec = Readonly<EngineRecord>;

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

/** An external user's access, as a share keeps it in `externalUsers` (showShare adds who they are). */
interface Access {
  userId: number;
  sharedOn: string;
  validTill?: string;
}

/** What this file reads of a share's document (its other fields are the model's GetDataShareResponse, as stored). */
interface Share {
  dataShareName: string;
  isShared: boolean;
  assets: Asset[];
  datalakeCrn: string;
  externalUsers: Access[];
  nextResourceId: number;
}

const shareOf = (rec: Rec): Share => rec.doc as unknown as Share;

/** The ops whose requests name no data lake and environment (tags and profilers name a lake on their own terms). */
const NO_LAKE: ReadonlySet<string> = new Set(['getSuggestedTags', 'reviewSuggestedTags', 'launchProfilers', 'getFgacStatusByAssets']);

/** Every other operation names a data lake and one of the account's environments, both by CRN. */
export function lakeGuard(h: Hook<R>, op: string, req: Doc): void {
  if (NO_LAKE.has(op)) return;
  const lake = text(req.datalakeCrn);
  const env = text(req.environmentCrn);
  if (!lake.startsWith('crn:')) throw invalid(`datalakeCrn must be a CRN; got "${lake}"`);
  if (!env.startsWith('crn:')) throw invalid(`environmentCrn must be a CRN; got "${env}"`);
  h.world.environments.require(env);
}

/** A record found (`what`, for the message), when it is in the data lake: NOT_FOUND in another. */
function inLakeOnly(rec: EngineRecord | undefined, lake: string, what: string): EngineRecord {
  if (!rec || rec.doc.datalakeCrn !== lake) throw notFound(`${what} not found in data lake ${lake}`);
  return rec;
}

/** The records of a kind in the data lake a request names. */
function ofLake(h: Hook<R>, kind: 'dataShare' | 'externalUser', req: Doc): EngineRecord[] {
  const lake = text(req.datalakeCrn);
  return h
    .records(kind)
    .all()
    .filter((r) => r.doc.datalakeCrn === lake);
}

/** The share a request names, in its data lake; a change `forChange` (named for the message) only while it is Not Shared. */
function shareIn(h: Hook<R>, req: Doc, forChange?: string): Share {
  const id = text(req.dataShareId);
  const s = shareOf(inLakeOnly(h.records('dataShare').find(id), text(req.datalakeCrn), `data share "${id}"`));
  if (forChange) mustBeNotShared(s, forChange);
  return s;
}

/** A request about a share, as the verbs read it: only when the share is in the data lake it names. */
export function inLake(h: Hook<R>, req: Doc): Doc {
  shareIn(h, req);
  return req;
}

function mustBeNotShared(s: Share, what: string): void {
  if (s.isShared)
    throw failedPrecondition(
      `data share "${s.dataShareName}" is shared; unshare it before you ${what} (changes are allowed only while Not Shared)`,
    );
}

export const notShared = (what: string) => (_h: Hook<R>, rec: Rec) => mustBeNotShared(shareOf(rec), what);

/** A share's name is unique in its data lake (not its environment). */
function refuseTaken(h: Hook<R>, req: Doc, name: string, except: string): void {
  if (ofLake(h, 'dataShare', req).some((r) => r.id !== except && shareOf(r).dataShareName.toLowerCase() === name.toLowerCase()))
    throw alreadyExists(`a data share named "${name}" already exists in data lake ${text(req.datalakeCrn)}`);
}

/** New assets of a share (table names unique in it), numbered on from its next resource id. */
function makeAssets(h: Hook<R>, s: Pick<Share, 'assets' | 'dataShareName' | 'nextResourceId'>, given: unknown): Asset[] {
  const now = h.ctx.clock.iso();
  const actor = h.ctx.caller.actorCrn;
  const out: Asset[] = [];
  for (const a of docs(given)) {
    const databaseName = text(a.databaseName);
    const tableName = text(a.tableName);
    const same = (x: Asset): boolean =>
      x.databaseName.toLowerCase() === databaseName.toLowerCase() && x.tableName.toLowerCase() === tableName.toLowerCase();
    if (s.assets.some(same) || out.some(same))
      throw alreadyExists(`table ${databaseName}.${tableName} is already in data share "${s.dataShareName}"`);
    const columns = Array.isArray(a.columns) ? a.columns.map(String) : [];
    out.push({
      resourceId: String(s.nextResourceId + out.length),
      guid: str(a.guid) ?? uuid(),
      databaseName,
      tableName,
      ...(columns.length > 0 ? { columns } : {}),
      createTime: now,
      createdBy: actor,
      updateTime: now,
      updatedBy: actor,
    });
  }
  return out;
}

/** A share's access with users granted it (until a time, or for good): each must be an active external user of its data lake. */
function granted(h: Hook<R>, lake: string, access: readonly Access[], given: unknown): Access[] {
  const now = h.ctx.clock.iso();
  const users = h.records('externalUser');
  const out = access.map((a) => ({ ...a }));
  for (const u of docs(given)) {
    const userId = Number(u.externalUserId);
    const validTill = str(u.expiryTime);
    if (!Number.isInteger(userId)) throw invalid('externalUsers[].externalUserId is required');
    const user = inLakeOnly(users.byId(String(userId)), lake, `external user ${userId}`);
    if (user.doc.isActive !== true) throw failedPrecondition(`external user ${userId} has revoked credentials; regenerate them first`);
    const hit = out.find((x) => x.userId === userId);
    if (hit) {
      if (validTill) hit.validTill = validTill;
      else delete hit.validTill;
    } else out.push({ userId, sharedOn: now, ...(validTill ? { validTill } : {}) });
  }
  return out;
}

/** Drops a user's access to every share of their data lake. */
function dropAccessEverywhere(h: Hook<R>, userId: number, datalakeCrn: string): void {
  for (const rec of h.records('dataShare').all()) {
    const s = shareOf(rec);
    if (s.datalakeCrn !== datalakeCrn || !s.externalUsers.some((a) => a.userId === userId)) continue;
    s.externalUsers = s.externalUsers.filter((a) => a.userId !== userId);
    h.records('dataShare').save(rec);
  }
}

export const checkShareName = (h: Hook<R>, rec: Rec, req: Doc): void => refuseTaken(h, req, rec.name ?? '', rec.id);

/** What a new share holds beside the request's fields: its data lake, its assets and grants, Not Shared. */
export function fillShare(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const first = { assets: [], dataShareName: rec.name ?? '', nextResourceId: 1 };
  const assets = makeAssets(h, first, req.assets);
  const lake = text(req.datalakeCrn);
  return {
    isShared: false,
    updatedAt: rec.doc.createdAt,
    keywords: strings(req.keywords),
    // Only what the request gives, none made up.
    expiryTime: str(req.expiryTime),
    tags: undefined,
    assets,
    datalakeCrn: lake,
    externalUsers: granted(h, lake, [], req.externalUsers),
    nextResourceId: 1 + assets.length,
  };
}

/** What every view of a share computes: the tags accepted for its tables, and its external users with their access. */
export function showShare(h: Hook<R>, rec: Rec): Doc {
  const s = shareOf(rec);
  const users = h.records('externalUser');
  return {
    tags: [...new Set(s.assets.flatMap((a) => acceptedTags(h, s.datalakeCrn, `${a.databaseName}.${a.tableName}`)))],
    externalUsers: s.externalUsers.flatMap((a) => {
      const u = users.byId(String(a.userId))?.doc;
      if (!u) return [];
      return [
        {
          userId: u.userId,
          username: u.username,
          clientId: u.clientId,
          companyName: u.companyName,
          permissions: ['READ'],
          sharedOn: a.sharedOn,
          ...(a.validTill ? { validTill: a.validTill } : {}),
        },
      ];
    }),
  };
}

/** listDataShares' records: the data lake's shares, those whose name holds `name` (any case) when given. */
export function sharesNamed(h: Hook<R>, req: Doc): EngineRecord[] {
  const f = str(req.name)?.toLowerCase();
  return ofLake(h, 'dataShare', req).filter((r) => !f || shareOf(r).dataShareName.toLowerCase().includes(f));
}

/** listDataShares' last page ends with an empty next token, as the service's does (seed 001); a page before it has its own. */
export const lastPageToken = (h: Hook<R>): Doc => ({ [pagingFor(h.ctx).outputToken]: '' });

/** Any change of a share (each one's rewrite has found it in the request's data lake): a new name is unique there. */
export function checkShareUpdate(h: Hook<R>, rec: Rec, req: Doc): void {
  const name = str(req.dataShareName);
  if (name && name.toLowerCase() !== shareOf(rec).dataShareName.toLowerCase()) refuseTaken(h, req, name, rec.id);
}

/**
 * What any change of a share sets (its `effect.update`): the new name (the
 * resource renames), the update time, and the next asset id after every one
 * given so far.
 */
export function shareChanged(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const s = shareOf(rec);
  const name = str(req.dataShareName);
  return {
    ...(name ? { dataShareName: name } : {}),
    updatedAt: h.ctx.clock.iso(),
    nextResourceId: Math.max(s.nextResourceId, ...s.assets.map((a) => Number(a.resourceId) + 1)),
  };
}

/**
 * shareDataShare's and unshareDataShare's request, as the update verb reads
 * it: the share flipped to `shared` (only a change is allowed: sharing a
 * shared share fails).
 */
export const sharing =
  (shared: boolean) =>
  (h: Hook<R>, req: Doc): Doc => {
    const s = shareIn(h, req);
    if (s.isShared === shared) throw failedPrecondition(`data share "${s.dataShareName}" is ${shared ? 'already shared' : 'not shared'}`);
    return { ...req, isShared: shared };
  };

/** addAssetsToDataShare: the share's assets with the new ones (`added`, its answer); only while Not Shared. */
export function assetsAdded(h: Hook<R>, req: Doc): Doc {
  const s = shareIn(h, req, 'add assets');
  const added = makeAssets(h, s, req.assets);
  return { ...req, assets: [...s.assets, ...added], added };
}

export const addedAssets = (_h: Hook<R>, _rec: Rec, req: Doc): Doc => ({ assets: req.added });

/** removeAssetsFromDataShare: the share's assets without those named; only while Not Shared. */
export function assetsRemoved(h: Hook<R>, req: Doc): Doc {
  const s = shareIn(h, req, 'remove assets');
  const ids = strings(req.resourceIds);
  const missing = ids.filter((r) => !s.assets.some((a) => a.resourceId === r));
  if (missing.length > 0) throw notFound(`data share "${s.dataShareName}" has no asset with resource id ${missing.join(', ')}`);
  return { ...req, assets: s.assets.filter((a) => !ids.includes(a.resourceId)) };
}

/** grantAccessToExternalUsersOnDataShare and updateAccessOfExternalUsersOnDataShare: the same grant (a new one, or a new end). */
export function accessGranted(h: Hook<R>, req: Doc): Doc {
  const s = shareIn(h, req);
  return { ...req, externalUsers: granted(h, s.datalakeCrn, s.externalUsers, req.externalUsers) };
}

/** removeAccessOfExternalUsersOnDataShare: the share's access without those users; only while Not Shared. */
export function accessRemoved(h: Hook<R>, req: Doc): Doc {
  const s = shareIn(h, req, "remove external users' access");
  const ids = Array.isArray(req.externalUserIds) ? req.externalUserIds.map(Number) : [];
  const missing = ids.filter((u) => !s.externalUsers.some((a) => a.userId === u));
  if (missing.length > 0) throw notFound(`external user ${missing.join(', ')} has no access to data share "${s.dataShareName}"`);
  return { ...req, externalUsers: s.externalUsers.filter((a) => !ids.includes(a.userId)) };
}

// ---- external users --------------------------------------------------------------

/*
 * External users of a data lake: `externalUser` records (ids 1, 2, 3... an
 * account) in the lake's environment, each holding its data lake's CRN. A
 * user gets a client id and a secret at creation (the secret is shown once
 * and only its hash is kept); revoking disables them and drops their access
 * to every share, regenerating issues new credentials (both the update verb,
 * each with a rewrite that says what it sets), deleting is final.
 */
/** A user's document: ExternalUserListItem's fields, and what it keeps beside them. */
interface User {
  userId: number;
  username: string;
  email: string;
  companyName: string;
  clientId: string;
  createdAt: string;
  isActive: boolean;
  datalakeCrn: string;
  /** sha256 of the secret, hex. */
  secretHash: string;
  expiryTime: string;
}

const userOf = (rec: Rec): User => rec.doc as unknown as User;
const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');
const YEAR_MS = 365 * 86_400_000;

function newCredentials(): { clientId: string; secret: string } {
  return { clientId: `ext-${randomBytes(10).toString('hex')}`, secret: randomBytes(32).toString('base64url') };
}

/** The user a request names, in its data lake (NOT_FOUND in another). */
function userIn(h: Hook<R>, req: Doc): User {
  const id = Number(req.externalUserId);
  return userOf(inLakeOnly(h.records('externalUser').byId(String(id)), text(req.datalakeCrn), `external user ${id}`));
}

/** The next user id of the account: 1, 2, 3... */
function nextUserId(h: Hook<R>): number {
  const key = `datacatalog.nextUserId.${h.ctx.caller.accountId}`;
  const n = Number(h.ctx.store.meta(key) ?? '1');
  h.ctx.store.setMeta(key, String(n + 1));
  return n;
}

/**
 * createExternalUsers: code, because it makes users one by one: a name or
 * e-mail taken, or an e-mail that is not one, fails that user only.
 */
export function createExternalUsers(h: Hook<R>, req: Doc): Doc {
  const env = h.world.environments.require(text(req.environmentCrn));
  const existing = ofLake(h, 'externalUser', req).map(userOf);
  const now = h.ctx.clock.now();
  const all = h.records('externalUser');
  const externalUsers = docs(req.externalUsers).map((u): Doc => {
    const spec = { username: text(u.username), email: text(u.email), companyName: text(u.companyName) };
    const clash = existing.find(
      (x) => x.username.toLowerCase() === spec.username.toLowerCase() || x.email.toLowerCase() === spec.email.toLowerCase(),
    );
    if (clash)
      return {
        ...spec,
        error:
          clash.username.toLowerCase() === spec.username.toLowerCase()
            ? `user name "${spec.username}" is taken`
            : `e-mail ${spec.email} is taken`,
      };
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(spec.email)) return { ...spec, error: `"${spec.email}" is not an e-mail address` };
    const { clientId, secret } = newCredentials();
    const user: User = {
      userId: nextUserId(h),
      ...spec,
      clientId,
      createdAt: h.ctx.clock.iso(now),
      isActive: true,
      datalakeCrn: text(req.datalakeCrn),
      secretHash: secretHash(secret),
      expiryTime: h.ctx.clock.iso(now + YEAR_MS),
    };
    all.create({ id: String(user.userId), name: user.username, scope: env.crn, env: env.crn, doc: user as unknown as Doc });
    existing.push(user);
    // The secret is shown this once.
    return h.conform('ExternalUser', { ...user, secret }, String(user.userId));
  });
  return { externalUsers };
}

/** listExternalUsers' records: the data lake's users matching `searchTerm` in name, e-mail or company when given. */
export function usersMatching(h: Hook<R>, req: Doc): EngineRecord[] {
  const t = str(req.searchTerm)?.toLowerCase();
  return ofLake(h, 'externalUser', req).filter((r) => {
    const u = userOf(r);
    return !t || [u.username, u.email, u.companyName].some((f) => f.toLowerCase().includes(t));
  });
}

/** deleteExternalUser's request: the user's access to every share of their data lake goes with them. */
export function userLeaving(h: Hook<R>, req: Doc): Doc {
  const u = userIn(h, req);
  dropAccessEverywhere(h, u.userId, u.datalakeCrn);
  return req;
}

export const succeeded = (): Doc => ({ success: true });

/** revokeExternalUserCredentials: the user disabled (once). */
export function revoking(h: Hook<R>, req: Doc): Doc {
  const u = userIn(h, req);
  if (!u.isActive) throw failedPrecondition(`the credentials of external user ${u.userId} are already revoked`);
  return { ...req, isActive: false };
}

/** regenerateExternalUserCredentials: new credentials (the secret, for the answer only); the user is active again. */
export function regenerating(h: Hook<R>, req: Doc): Doc {
  userIn(h, req);
  return { ...req, ...newCredentials(), isActive: true };
}

/**
 * What a change of a user's credentials does (its `effect.update`): a
 * disabled user loses their access to every share; new credentials keep
 * only the secret's hash, and last a year from now.
 */
export function credentialsChanged(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const u = userOf(rec);
  if (!u.isActive) dropAccessEverywhere(h, u.userId, u.datalakeCrn);
  const secret = str(req.secret);
  return secret === undefined ? {} : { secretHash: secretHash(secret), expiryTime: h.ctx.clock.iso(h.ctx.clock.now() + YEAR_MS) };
}

/** regenerateExternalUserCredentials' answer: the user with the secret, the one time it is shown. */
export const regenerated = (_h: Hook<R>, rec: Rec, req: Doc): Doc => ({ externalUser: { ...rec.doc, secret: str(req.secret) } });
