/**
 * Access keys (API keys of users and machine users): engine records whose
 * document is the key as the API shows it, the public half of its key pair
 * kept beside it (`data.publicKey`, never shown). The server authenticates
 * with them through the world (provides.ts, `accessKeyView`).
 */
import type { Doc } from '../../engine/context.js';
import type { Hook, ResourceHooks } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { forbidden, invalid } from '../../errors.js';
import { issueKey } from '../../keys.js';
import { str, strings, uniq } from '../../values.js';
import type { AccessKeyView } from '../../world/contracts.js';
import { accessLevel, crnOf, type R } from './iam.js';
import type { AccessKeyType } from './records.js';

/** A key as the server checks it: its document and its public key. */
export const accessKeyView = (rec: Readonly<EngineRecord>): AccessKeyView => ({
  ...(rec.doc as Omit<AccessKeyView, 'publicKey'>),
  publicKey: String(rec.data?.publicKey ?? ''),
});

/** The type a new key is of: the one asked for, else the region's default (V3 on Cloudera for Government). */
const typeOf = (h: Hook<R>, type: unknown): AccessKeyType =>
  type === 'V1' || type === 'V2' || type === 'V3' ? type : h.ctx.info.region.startsWith('usg') ? 'V3' : 'V2';

/** createUserAccessKey: the request with the key's owner, the user named or the caller. */
export const userKeyOwner = (h: Hook<R>, sent: Doc): Doc => ({
  ...sent,
  actorCrn: str(sent.user) ? crnOf(h, 'user', String(sent.user)) : h.ctx.caller.actorCrn,
});

/** createMachineUserAccessKey: the request with the key's owner, the machine user named. */
export const machineUserKeyOwner = (h: Hook<R>, sent: Doc): Doc => ({
  ...sent,
  actorCrn: crnOf(h, 'machineUser', String(sent.machineUserName)),
});

export const accessKeyHooks: ResourceHooks<R> = {
  check: {
    update: (_h, _rec, req) => {
      if (req.status !== 'ACTIVE' && req.status !== 'INACTIVE') throw invalid('status must be ACTIVE or INACTIVE');
    },
  },
  fill: (h, _rec, req) => ({ status: 'ACTIVE', type: typeOf(h, req.type) }),
};

/** A new key's answer: its key pair, made now; the private half is shown once, the public half kept. */
export function keyPairIssued(h: Hook<R>, rec: Readonly<EngineRecord>): Doc {
  const issued = issueKey(rec.doc.type as AccessKeyType);
  h.records('accessKey').save({ ...rec, data: { ...rec.data, publicKey: issued.publicKey } });
  return { accessKey: rec.doc, privateKey: issued.privateKey };
}

/** The id of the key a request names, or of the one that signed it. */
export function keyOrCurrent(h: Hook<R>, ref: unknown): string {
  if (typeof ref === 'string' && ref) return ref;
  if (!h.ctx.caller.accessKeyId) throw invalid('accessKeyId is required when the request is not signed with an access key');
  return h.ctx.caller.accessKeyId;
}

/** getAccessKey: the key named, or the one that signed the request. */
export const keyNamedOrCurrent = (h: Hook<R>, sent: Doc): Doc => ({ accessKeyId: keyOrCurrent(h, sent.accessKeyId) });

/** An actor's keys. */
export const keysOf = (h: Hook<R>, actorCrn: string): EngineRecord[] =>
  h
    .records('accessKey')
    .all()
    .filter((k) => k.doc.actorCrn === actorCrn);

/** listAccessKeys: the keys named, or every key; a caller who may not read iam sees its own keys only. */
export function keysListed(h: Hook<R>, req: Doc): EngineRecord[] {
  const own = accessLevel(h) === 'none' ? h.ctx.caller.actorCrn : undefined;
  const ids = uniq(strings(req.accessKeyIds));
  if (ids.length === 0) return own ? keysOf(h, own) : h.records('accessKey').all();
  const keys = ids.map((id) => h.records('accessKey').get(id));
  if (own && keys.some((k) => k.doc.actorCrn !== own)) throw forbidden('you may list only your own access keys');
  return keys;
}
