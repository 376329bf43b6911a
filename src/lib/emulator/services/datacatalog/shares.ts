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
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { alreadyExists, failedPrecondition, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { pagingFor } from '../../engine/paging.js';
import { docs, str, strings, text } from '../../values.js';
import { acceptedTags } from './tags.js';

export type R = 'dataShare' | 'externalUser' | 'tagReview' | 'profilers';
type Rec = Readonly<EngineRecord>;

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

/** An external user's access, as a share keeps it in `externalUsers` (showShare adds who they are). */
interface Access {
  userId: number;
  sharedOn: string;
  validTill?: string;
}

/** A share's document: GetDataShareResponse's stored fields, and what it keeps beside them. */
interface Share {
  dataShareId: string;
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

/** The share a request names, in its data lake (NOT_FOUND in another). */
export function shareIn(h: Hook<R>, req: Doc): EngineRecord {
  const id = text(req.dataShareId);
  const lake = text(req.datalakeCrn);
  const rec = h.records('dataShare').find(id);
  if (!rec || shareOf(rec).datalakeCrn !== lake) throw notFound(`data share "${id}" not found in data lake ${lake}`);
  return rec;
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

/** The shares of a data lake (in its environment), those whose name contains `filter` (any case) when given. */
function shares(h: Hook<R>, req: Doc, filter?: string): EngineRecord[] {
  const f = filter?.toLowerCase();
  const lake = text(req.datalakeCrn);
  return h
    .records('dataShare')
    .all()
    .filter((r) => {
      const s = shareOf(r);
      return s.datalakeCrn === lake && (!f || s.dataShareName.toLowerCase().includes(f));
    });
}

function nameTaken(h: Hook<R>, req: Doc, name: string, except?: string): boolean {
  return shares(h, req).some((r) => r.id !== except && shareOf(r).dataShareName.toLowerCase() === name.toLowerCase());
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
    const user = users.byId(String(userId));
    if (!user || user.doc.datalakeCrn !== lake) throw notFound(`external user ${userId} not found in data lake ${lake}`);
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
export function dropAccessEverywhere(h: Hook<R>, userId: number, datalakeCrn: string): void {
  for (const rec of h.records('dataShare').all()) {
    const s = shareOf(rec);
    if (s.datalakeCrn !== datalakeCrn || !s.externalUsers.some((a) => a.userId === userId)) continue;
    s.externalUsers = s.externalUsers.filter((a) => a.userId !== userId);
    h.records('dataShare').save(rec);
  }
}

/** createDataShare: a share's name is unique in its data lake (not its environment). */
export function checkShareName(h: Hook<R>, rec: Rec, req: Doc): void {
  const name = rec.name ?? '';
  if (nameTaken(h, req, name, rec.id))
    throw alreadyExists(`a data share named "${name}" already exists in data lake ${text(req.datalakeCrn)}`);
}

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
export const sharesNamed = (h: Hook<R>, req: Doc): EngineRecord[] => shares(h, req, str(req.name));

/** listDataShares' last page ends with an empty next token, as the service's does (seed 001); a page before it has its own. */
export const lastPageToken = (h: Hook<R>): Doc => ({ [pagingFor(h.ctx).outputToken]: '' });

/** Any change of a share: a new name is unique in its data lake. */
export function checkShareUpdate(h: Hook<R>, rec: Rec, req: Doc): void {
  const s = shareOf(rec);
  const name = str(req.dataShareName);
  if (name && name.toLowerCase() !== s.dataShareName.toLowerCase() && nameTaken(h, req, name, rec.id))
    throw alreadyExists(`a data share named "${name}" already exists in data lake ${s.datalakeCrn}`);
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
    const s = shareOf(shareIn(h, req));
    if (s.isShared === shared) throw failedPrecondition(`data share "${s.dataShareName}" is ${shared ? 'already shared' : 'not shared'}`);
    return { ...req, isShared: shared };
  };

/** addAssetsToDataShare: the share's assets with the new ones (`added`, its answer); only while Not Shared. */
export function assetsAdded(h: Hook<R>, req: Doc): Doc {
  const s = shareOf(shareIn(h, req));
  mustBeNotShared(s, 'add assets');
  const added = makeAssets(h, s, req.assets);
  return { ...req, assets: [...s.assets, ...added], added };
}

export const addedAssets = (_h: Hook<R>, _rec: Rec, req: Doc): Doc => ({ assets: req.added });

/** removeAssetsFromDataShare: the share's assets without those named; only while Not Shared. */
export function assetsRemoved(h: Hook<R>, req: Doc): Doc {
  const s = shareOf(shareIn(h, req));
  mustBeNotShared(s, 'remove assets');
  const ids = strings(req.resourceIds);
  const missing = ids.filter((r) => !s.assets.some((a) => a.resourceId === r));
  if (missing.length > 0) throw notFound(`data share "${s.dataShareName}" has no asset with resource id ${missing.join(', ')}`);
  return { ...req, assets: s.assets.filter((a) => !ids.includes(a.resourceId)) };
}

/** grantAccessToExternalUsersOnDataShare and updateAccessOfExternalUsersOnDataShare: the same grant (a new one, or a new end). */
export function accessGranted(h: Hook<R>, req: Doc): Doc {
  const s = shareOf(shareIn(h, req));
  return { ...req, externalUsers: granted(h, s.datalakeCrn, s.externalUsers, req.externalUsers) };
}

/** removeAccessOfExternalUsersOnDataShare: the share's access without those users; only while Not Shared. */
export function accessRemoved(h: Hook<R>, req: Doc): Doc {
  const s = shareOf(shareIn(h, req));
  mustBeNotShared(s, "remove external users' access");
  const ids = Array.isArray(req.externalUserIds) ? req.externalUserIds.map(Number) : [];
  const missing = ids.filter((u) => !s.externalUsers.some((a) => a.userId === u));
  if (missing.length > 0) throw notFound(`external user ${missing.join(', ')} has no access to data share "${s.dataShareName}"`);
  return { ...req, externalUsers: s.externalUsers.filter((a) => !ids.includes(a.userId)) };
}
