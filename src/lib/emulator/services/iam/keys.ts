/** Access keys (API keys of users and machine users). */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { forbidden, invalid } from '../../errors.js';
import { uuid } from '../../ids.js';
import { issueKey } from '../../keys.js';
import { paged, storeListing, type Listing } from '../../paging.js';
import { str, strings, text, uniq } from '../../values.js';
import { iamOf, type Iam, type R } from './iam.js';
import { KIND, type AccessKeyRecord, type AccessKeyType } from './records.js';

// ---------------------------------------------------------------- access keys

const keyOut = (k: AccessKeyRecord): Doc => ({
  accessKeyId: k.accessKeyId,
  crn: k.crn,
  actorCrn: k.actorCrn,
  creationDate: k.creationDate,
  status: k.status,
  type: k.type,
  ...(k.lastUsage ? { lastUsage: k.lastUsage } : {}),
});

const putKey = (iam: Iam, rec: AccessKeyRecord): void =>
  void iam.store.put(KIND.accessKey, rec.accessKeyId, rec, { crn: rec.crn, parent: rec.actorCrn });

/** A new key of an actor, of the type asked for (else the region's default: V3 on Cloudera for Government); its private key is shown once. */
export function issueAccessKey(iam: Iam, actorCrn: string, type: unknown): { accessKey: Doc; privateKey: string } {
  const t: AccessKeyType = type === 'V1' || type === 'V2' || type === 'V3' ? type : iam.info.region.startsWith('usg') ? 'V3' : 'V2';
  const issued = issueKey(t);
  const accessKeyId = uuid();
  const rec: AccessKeyRecord = {
    accessKeyId,
    crn: iam.crn('accessKey', accessKeyId),
    actorCrn,
    creationDate: iam.now(),
    status: 'ACTIVE',
    type: t,
    publicKey: issued.publicKey,
  };
  putKey(iam, rec);
  return { accessKey: keyOut(rec), privateKey: issued.privateKey };
}

export function createUserAccessKey(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  return issueAccessKey(iam, str(req.user) ? iam.user(text(req.user)).crn : iam.caller.actorCrn, req.type);
}

export function createMachineUserAccessKey(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  return issueAccessKey(iam, iam.machineUser(text(req.machineUserName)).crn, req.type);
}

/** The key named, or the one that signed the request. */
export function accessKeyOrCurrent(iam: Iam, ref: unknown): AccessKeyRecord {
  if (typeof ref === 'string' && ref) return iam.accessKey(ref);
  if (!iam.caller.accessKeyId) throw invalid('accessKeyId is required when the request is not signed with an access key');
  return iam.accessKey(iam.caller.accessKeyId);
}

export function getAccessKey(h: Hook<R>, req: Doc): Doc {
  return { accessKey: keyOut(accessKeyOrCurrent(iamOf(h), req.accessKeyId)) };
}

export function updateAccessKey(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const status = req.status;
  if (status !== 'ACTIVE' && status !== 'INACTIVE') throw invalid('status must be ACTIVE or INACTIVE');
  const k = iam.accessKey(text(req.accessKeyId));
  k.status = status;
  putKey(iam, k);
  return { accessKey: keyOut(k) };
}

export function deleteAccessKey(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  iam.store.delete(KIND.accessKey, iam.accessKey(text(req.accessKeyId)).accessKeyId);
  return {};
}

/** An actor's keys. The bootstrap key is stored without a parent, so this scans rather than lists children. */
const keysOf = (iam: Iam, actorCrn: string): AccessKeyRecord[] =>
  iam.store
    .list<AccessKeyRecord>(KIND.accessKey)
    .map((r) => r.doc)
    .filter((k) => k.actorCrn === actorCrn);

/** Deletes an actor's keys; says which, by CRN. */
export function dropKeysOf(iam: Iam, actorCrn: string): string[] {
  return keysOf(iam, actorCrn).map((k) => {
    iam.store.delete(KIND.accessKey, k.accessKeyId);
    return k.crn;
  });
}

/** The keys named, or every key; a caller who may not read iam sees its own keys only. */
export function listAccessKeys(h: Hook<R>, req: Doc): Doc {
  const iam = iamOf(h);
  const own = iam.accessLevel() === 'none' ? iam.caller.actorCrn : undefined;
  const ids = uniq(strings(req.accessKeyIds));
  let keys: readonly AccessKeyRecord[] | Listing<AccessKeyRecord>;
  if (ids.length > 0) {
    keys = ids.map((r) => iam.accessKey(r));
    if (own && keys.some((k) => k.actorCrn !== own)) throw forbidden('you may list only your own access keys');
  } else keys = own ? keysOf(iam, own) : storeListing<AccessKeyRecord>(iam.store, KIND.accessKey);
  return paged(h.ctx, req, keys, keyOut);
}
