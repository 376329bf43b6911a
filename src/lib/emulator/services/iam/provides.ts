/**
 * What iam tells the rest of the emulator (world/contracts.ts `identities`):
 * who a CRN names, the keys and tokens the server authenticates with, the
 * workload password policy, and the account's first administrator and the
 * keys its first start and the console's sign-ins make. Read from iam's own
 * records (records.ts), as kept on the hot path of authentication.
 */
import { createHash } from 'node:crypto';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { forbidden } from '../../errors.js';
import type { ActorView, Identities, WorkloadTokenView } from '../../world/contracts.js';
import type { R } from './iam.js';
import { passwordOf } from './account.js';
import { accessKeyView } from './keys.js';
import { DEFAULT_POLICY, policyViolation, type Policy } from './passwords.js';
import { identityProviderCrn } from './providers.js';
import { KIND, type MachineUserRecord, type UserRecord } from './records.js';
import { createAdmin } from './users.js';

/** A user's or machine user's record (an engine record of either), as other parts of the emulator see it. */
function actorView(kind: string, rec: Readonly<EngineRecord>): ActorView | undefined {
  const { crn, workloadUsername, status, machineUserName } = rec.doc as MachineUserRecord;
  if (kind === KIND.machineUser) return { crn, kind: 'machineUser', id: machineUserName, workloadUsername, status };
  if (kind !== KIND.user) return undefined;
  const { userId: id, email, firstName, lastName, accountAdmin, identityProviderCrn } = rec.doc as UserRecord;
  return { crn, kind: 'user', id, workloadUsername, status, email, firstName, lastName, accountAdmin, identityProviderCrn };
}

/**
 * A sign-in through the console (console/ serves the pages): the user must
 * be active; the sign-in time is recorded and, as the real console does for
 * `cdp login`, a new access key is made for the user.
 */
function consoleSignIn(h: Hook<R>, userRef: string): void {
  const users = h.records('user');
  const rec = users.get(userRef);
  const u = rec.doc as UserRecord;
  if (u.status !== 'ACTIVE') throw forbidden(`${u.email || u.userId} cannot sign in: the user is ${u.status}`);
  users.save({ ...rec, doc: { ...u, lastInteractiveLogin: h.ctx.clock.iso() } });
}

/** What user sync carries into FreeIPA (a group's record holds its members, an actor's its workload password). */
const SYNCED_KINDS = [KIND.user, KIND.machineUser, KIND.group];

export function identities(h: Hook<R>): Identities {
  const { store, info } = h.ctx;
  return {
    actor(crn) {
      // Every signed request reads its key's owner: as kept, without copies (Store.peek).
      const found = store.idByCrn(crn);
      const doc = found ? store.peek<EngineRecord>(found.kind, found.id) : undefined;
      return found && doc ? actorView(found.kind, doc) : undefined;
    },
    users: () => store.list<EngineRecord>(KIND.user).flatMap((r) => actorView(KIND.user, r.doc) ?? []),
    accessKey(id) {
      const rec = store.peek<EngineRecord>(KIND.accessKey, id);
      return rec ? accessKeyView(rec) : undefined;
    },
    workloadToken: (hash) => store.get<WorkloadTokenView>(KIND.workloadToken, hash),
    passwordPolicy: () =>
      (store.get<EngineRecord>(KIND.account, info.accountId)?.doc.workloadPasswordPolicy as Policy | undefined) ?? DEFAULT_POLICY,
    passwordViolation: (password, policy) => policyViolation(password, policy),
    syncDigest() {
      const digest = createHash('sha256');
      for (const kind of SYNCED_KINDS) {
        const docs = store.list<unknown>(kind).map((d) => `${d.id}=${JSON.stringify(d.doc)}`);
        digest.update(`${kind}\n${docs.sort().join('\n')}\n`);
      }
      return digest.digest('hex');
    },
    workloadPasswordsSet(actorCrn) {
      const found = store.idByCrn(actorCrn);
      const rec = found ? store.peek<EngineRecord>(found.kind, found.id) : undefined;
      return rec ? (passwordOf(rec)?.history.length ?? 0) : 0;
    },
    identityProvider: (ref) => identityProviderCrn(h, ref),
    createAdmin: (userId) => actorView(KIND.user, createAdmin(h, userId)) as ActorView,
    firstStartKinds: () => ({ user: KIND.user, accessKey: KIND.accessKey }),
    issueAccessKey(actorCrn, opts = {}) {
      // A sign-in's key is of the region's default type, the administrator's first a V2.
      if (opts.signIn) consoleSignIn(h, actorCrn);
      const made = h.perform('createUserAccessKey', { user: actorCrn, ...(opts.signIn ? {} : { type: 'V2' }) });
      return { accessKeyId: String((made.accessKey as Doc).accessKeyId), privateKey: String(made.privateKey) };
    },
  };
}
