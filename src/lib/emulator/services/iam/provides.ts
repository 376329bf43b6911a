/**
 * What iam tells the rest of the emulator (world/contracts.ts `identities`):
 * who a CRN names, the keys and tokens the server authenticates with, the
 * workload password policy, and the account's first administrator and the
 * keys its first start and the console's sign-ins make. Read from iam's own
 * records (records.ts), as kept on the hot path of authentication.
 */
import type { Hook } from '../../engine/declare.js';
import type { AccessKeyView, ActorView, Identities, WorkloadTokenView } from '../../world/contracts.js';
import { IamBackend, type R } from './backend.js';
import { DEFAULT_POLICY, policyViolation, type Policy } from './passwords.js';
import { KIND, type MachineUserRecord, type UserRecord } from './records.js';

/** A user's or machine user's record, as other parts of the emulator see it. */
function actorView(kind: string, doc: UserRecord | MachineUserRecord): ActorView | undefined {
  if (kind === KIND.user) {
    const u = doc as UserRecord;
    return {
      crn: u.crn,
      kind: 'user',
      id: u.userId,
      workloadUsername: u.workloadUsername,
      status: u.status,
      email: u.email,
      firstName: u.firstName,
      lastName: u.lastName,
      accountAdmin: u.accountAdmin,
      identityProviderCrn: u.identityProviderCrn,
    };
  }
  if (kind === KIND.machineUser) {
    const m = doc as MachineUserRecord;
    return { crn: m.crn, kind: 'machineUser', id: m.machineUserName, workloadUsername: m.workloadUsername, status: m.status };
  }
  return undefined;
}

export function identities(h: Hook<R>): Identities {
  const { store, info } = h.ctx;
  /** iam's backend acting as `actorCrn` (a sign-in acts on the user's own behalf). */
  const backend = (actorCrn: string): IamBackend => new IamBackend({ ...h.ctx, caller: { ...h.ctx.caller, actorCrn } });
  return {
    actor(crn) {
      // Every signed request reads its key's owner: as kept, without copies (Store.peek).
      const found = store.idByCrn(crn);
      const doc = found ? store.peek<UserRecord | MachineUserRecord>(found.kind, found.id) : undefined;
      return found && doc ? actorView(found.kind, doc) : undefined;
    },
    users: () => store.list<UserRecord>(KIND.user).flatMap((r) => actorView(KIND.user, r.doc) ?? []),
    accessKey: (id) => store.peek<AccessKeyView>(KIND.accessKey, id),
    workloadToken: (hash) => store.get<WorkloadTokenView>(KIND.workloadToken, hash),
    passwordPolicy: () =>
      store.get<{ workloadPasswordPolicy?: Policy }>(KIND.account, info.accountId)?.workloadPasswordPolicy ?? DEFAULT_POLICY,
    passwordViolation: (password, policy) => policyViolation(password, policy),
    identityProvider: (ref) => backend('').identityProviderCrn(ref),
    createAdmin(userId) {
      const admin = backend('').createAdmin(userId);
      return actorView(KIND.user, admin) as ActorView;
    },
    firstStartKinds: () => ({ user: KIND.user, accessKey: KIND.accessKey }),
    issueAccessKey(actorCrn, opts = {}) {
      const b = backend(actorCrn);
      const made = opts.signIn ? b.consoleSignIn(actorCrn) : b.createAccessKey(actorCrn, 'V2');
      return { accessKeyId: String(made.accessKey.accessKeyId), privateKey: made.privateKey };
    },
  };
}
