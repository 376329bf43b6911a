/** datacatalog operations: unpack the wire request, call the backend, build the wire answer. */
import { paged, pagingFor } from '../../paging.js';
import { perRequest } from '../../service.js';
import type { Doc, Handler, RequestContext } from '../../types.js';
import { docs, str, strings, text } from '../../values.js';
import {
  DataCatalogBackend,
  fgacStatus,
  type AccessSpec,
  type AssetSpec,
  type Lake,
  type ShareRecord,
  type UserRecord,
  type UserResult,
} from './backend.js';

const op = perRequest((ctx) => new DataCatalogBackend(ctx));

const lakeOf = (b: DataCatalogBackend, req: Doc): Lake => b.lake(text(req.datalakeCrn), text(req.environmentCrn));

const assets = (v: unknown): AssetSpec[] =>
  docs(v).map((a) => ({
    databaseName: text(a.databaseName),
    tableName: text(a.tableName),
    guid: str(a.guid),
    columns: Array.isArray(a.columns) ? a.columns.map(String) : undefined,
  }));

const access = (v: unknown): AccessSpec[] => docs(v).map((u) => ({ userId: Number(u.externalUserId), validTill: str(u.expiryTime) }));

/** A page of a list, ending with an empty next token as the service does (seed 001, for data shares). */
function pagedWithEmptyEnd<T>(ctx: RequestContext, req: Doc, items: readonly T[], view: (item: T) => unknown): Doc {
  const out = paged(ctx, req, items, view);
  const token = pagingFor(ctx).outputToken;
  return { ...out, [token]: out[token] ?? '' };
}

function shareOut(b: DataCatalogBackend, s: ShareRecord): Doc {
  return {
    dataShareId: s.dataShareId,
    dataShareName: s.dataShareName,
    isShared: s.isShared,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    createdBy: s.createdBy,
    keywords: s.keywords,
    tags: [...new Set(s.assets.flatMap((a) => b.acceptedTags(s.datalakeCrn, `${a.databaseName}.${a.tableName}`)))],
    ...(s.expiryTime ? { expiryTime: s.expiryTime } : {}),
    assets: s.assets,
    externalUsers: b.shareUsers(s).map(({ user, access: a }) => ({
      userId: user.userId,
      username: user.username,
      clientId: user.clientId,
      companyName: user.companyName,
      permissions: ['READ'],
      sharedOn: a.sharedOn,
      ...(a.validTill ? { validTill: a.validTill } : {}),
    })),
    ...(s.summary !== undefined ? { summary: s.summary } : {}),
    ...(s.termsOfUse !== undefined ? { termsOfUse: s.termsOfUse } : {}),
  };
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

const resultOut = (r: UserResult): Doc => ('error' in r ? { ...r.spec, error: r.error } : userOut(r.user, r.secret));

export const handlers: Record<string, Handler> = {
  createDataShare: op((b, req) => {
    const lake = lakeOf(b, req);
    const s = b.createShare(lake, {
      name: text(req.dataShareName),
      keywords: strings(req.keywords),
      expiryTime: str(req.expiryTime),
      summary: typeof req.summary === 'string' ? req.summary : undefined,
      termsOfUse: typeof req.termsOfUse === 'string' ? req.termsOfUse : undefined,
      assets: assets(req.assets),
      access: access(req.externalUsers),
    });
    return { dataShareId: s.dataShareId, dataShareName: s.dataShareName, datalakeCrn: lake.datalakeCrn };
  }),
  getDataShare: op((b, req) => shareOut(b, b.share(lakeOf(b, req), text(req.dataShareId)))),
  listDataShares: op((b, req, ctx) => {
    return pagedWithEmptyEnd(ctx, req, b.shares(lakeOf(b, req), str(req.name)), (s) => ({
      dataShareId: s.dataShareId,
      dataShareName: s.dataShareName,
      isShared: s.isShared,
      createdAt: s.createdAt,
      createdBy: s.createdBy,
      keywords: s.keywords,
      ...(s.expiryTime ? { expiryTime: s.expiryTime } : {}),
    }));
  }),
  updateDataShare: op((b, req) => {
    b.updateShare(lakeOf(b, req), text(req.dataShareId), {
      name: str(req.dataShareName),
      keywords: Array.isArray(req.keywords) ? req.keywords.map(String) : undefined,
      expiryTime: str(req.expiryTime),
      summary: typeof req.summary === 'string' ? req.summary : undefined,
      termsOfUse: typeof req.termsOfUse === 'string' ? req.termsOfUse : undefined,
    });
    return {};
  }),
  deleteDataShare: op((b, req) => {
    b.deleteShare(lakeOf(b, req), text(req.dataShareId));
    return {};
  }),
  shareDataShare: op((b, req) => {
    b.setShared(lakeOf(b, req), text(req.dataShareId), true);
    return { success: true };
  }),
  unshareDataShare: op((b, req) => {
    b.setShared(lakeOf(b, req), text(req.dataShareId), false);
    return {};
  }),
  addAssetsToDataShare: op((b, req) => ({ assets: b.addAssets(lakeOf(b, req), text(req.dataShareId), assets(req.assets)) })),
  removeAssetsFromDataShare: op((b, req) => {
    b.removeAssets(lakeOf(b, req), text(req.dataShareId), strings(req.resourceIds));
    return {};
  }),
  grantAccessToExternalUsersOnDataShare: op((b, req) => {
    b.grant(lakeOf(b, req), text(req.dataShareId), access(req.externalUsers));
    return {};
  }),
  updateAccessOfExternalUsersOnDataShare: op((b, req) => {
    b.grant(lakeOf(b, req), text(req.dataShareId), access(req.externalUsers));
    return {};
  }),
  removeAccessOfExternalUsersOnDataShare: op((b, req) => {
    const ids = Array.isArray(req.externalUserIds) ? req.externalUserIds.map(Number) : [];
    b.removeAccess(lakeOf(b, req), text(req.dataShareId), ids);
    return {};
  }),

  createExternalUsers: op((b, req) => {
    const specs = docs(req.externalUsers).map((u) => ({
      username: text(u.username),
      email: text(u.email),
      companyName: text(u.companyName),
    }));
    return { externalUsers: b.createUsers(lakeOf(b, req), specs).map(resultOut) };
  }),
  // Seed 001 says nothing of this list's end marker: its last page has no nextToken, as elsewhere.
  listExternalUsers: op((b, req, ctx) =>
    paged(ctx, req, b.users(lakeOf(b, req), str(req.searchTerm)), (u) => ({
      userId: u.userId,
      username: u.username,
      email: u.email,
      companyName: u.companyName,
      clientId: u.clientId,
      createdAt: u.createdAt,
      isActive: u.isActive,
    })),
  ),
  deleteExternalUser: op((b, req) => {
    b.deleteUser(lakeOf(b, req), Number(req.externalUserId));
    return { success: true };
  }),
  revokeExternalUserCredentials: op((b, req) => {
    b.revokeUser(lakeOf(b, req), Number(req.externalUserId));
    return { success: true };
  }),
  regenerateExternalUserCredentials: op((b, req) => {
    const { user, secret } = b.regenerateUser(lakeOf(b, req), Number(req.externalUserId));
    return { externalUser: userOut(user, secret) };
  }),

  getSuggestedTags: op((b, req) => ({
    suggestedTags: b.suggestedTags(text(req.datalakeCrn), {
      table: str(req.tableFQN),
      column: str(req.columnFQN),
      since: str(req.profiledSince),
    }),
  })),
  reviewSuggestedTags: op((b, req) => ({
    reviewedTags: b.reviewTags(
      text(req.datalakeCrn),
      req.action === 'ACCEPT',
      docs(req.assets).map((a) => ({ qualifiedName: text(a.qualifiedName), tags: strings(a.tags) })),
    ),
  })),
  launchProfilers: op((b, req) => ({
    datahubCluster: b.launchProfilers(text(req.datalake), {
      enableHA: req.enableHA === true,
      compute: req.maxNodes !== undefined || req.profilers !== undefined || req.instanceTypes !== undefined,
      maxNodes: typeof req.maxNodes === 'number' ? req.maxNodes : undefined,
    }),
  })),
  getFgacStatusByAssets: (req) => ({
    listOfFgacStatus: fgacStatus(docs(req.assets).map((a) => ({ databaseName: text(a.databaseName), tableName: text(a.tableName) }))),
  }),
};
