/**
 * External users of a data lake: `externalUser` records (ids 1, 2, 3... an
 * account) in the lake's environment, each holding its data lake's CRN. A
 * user gets a client id and a secret at creation (the secret is shown once
 * and only its hash is kept); revoking disables them and drops their access
 * to every share, regenerating issues new credentials (both the update verb,
 * each with a rewrite that says what it sets), deleting is final.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { failedPrecondition, notFound } from '../../errors.js';
import { docs, str, text } from '../../values.js';
import { dropAccessEverywhere, type R } from './shares.js';

type Rec = Readonly<EngineRecord>;

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

/** The users of the data lake a request names. */
function usersIn(h: Hook<R>, req: Doc): EngineRecord[] {
  const lake = text(req.datalakeCrn);
  return h
    .records('externalUser')
    .all()
    .filter((r) => userOf(r).datalakeCrn === lake);
}

/** The user a request names, in its data lake (NOT_FOUND in another). */
function userIn(h: Hook<R>, req: Doc): EngineRecord {
  const id = Number(req.externalUserId);
  const lake = text(req.datalakeCrn);
  const rec = h.records('externalUser').byId(String(id));
  if (!rec || userOf(rec).datalakeCrn !== lake) throw notFound(`external user ${id} not found in data lake ${lake}`);
  return rec;
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
  const existing = usersIn(h, req).map(userOf);
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
  return usersIn(h, req).filter((r) => {
    const u = userOf(r);
    return !t || [u.username, u.email, u.companyName].some((f) => f.toLowerCase().includes(t));
  });
}

/** deleteExternalUser's request: the user's access to every share of their data lake goes with them. */
export function userLeaving(h: Hook<R>, req: Doc): Doc {
  const u = userOf(userIn(h, req));
  dropAccessEverywhere(h, u.userId, u.datalakeCrn);
  return req;
}

export const succeeded = (): Doc => ({ success: true });

/** revokeExternalUserCredentials: the user disabled (once). */
export function revoking(h: Hook<R>, req: Doc): Doc {
  const u = userOf(userIn(h, req));
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
