/**
 * Who may call which iam operation (the service's `guard`, run before every
 * entry of its table). Account administrators and holders of PowerUser,
 * IamUser or OwnerAdmin (directly or through a group) may change anything;
 * IamViewer may read, that is call iam's describe*, get* and list*
 * operations (its rights, catalogue.ts). Everybody may act on themselves:
 * the operations that name an actor (their own user, keys, SSH keys,
 * workload password) are open to that actor, and some are open to every
 * caller (the role catalogues, the account's settings, workload tokens).
 */
import type { OperationName } from '../../../model/services/iam/wire.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { forbidden } from '../../errors.js';
import { str } from '../../values.js';
import { accessLevel, actorOrCaller, crnOf, type R } from './iam.js';
import { keyOrCurrent } from './keys.js';

/** Operations every caller may call; listAccessKeys shows a caller who may not read iam its own keys only. */
const OPEN: ReadonlySet<OperationName> = new Set<OperationName>([
  'listRoles',
  'listResourceRoles',
  'listAccessKeys',
  'getDefaultIdentityProvider',
  'getAccount',
  'getAccountMessages',
  'generateWorkloadAuthToken',
]);

type Target = (h: Hook<R>, req: Doc) => string;
/** The user a request names by `field` (id or CRN), or the caller. */
const userOrCaller =
  (field: string): Target =>
  (h, req) =>
    str(req[field]) ? crnOf(h, 'user', String(req[field])) : h.ctx.caller.actorCrn;
const machineUserNamed: Target = (h, req) => crnOf(h, 'machineUser', String(req.machineUserName));
const keyOwner = (h: Hook<R>, ref: string): string => String(h.records('accessKey').get(ref).doc.actorCrn);

/** The operations an actor may call on itself: the actor each acts on (a NOT_FOUND of it comes before any refusal). */
const SELF: { readonly [op in OperationName]?: Target } = {
  getUser: userOrCaller('userId'),
  listGroupsForUser: (h, req) => crnOf(h, 'user', String(req.userId)),
  listGroupsForMachineUser: machineUserNamed,
  listUserAssignedRoles: userOrCaller('user'),
  listUserAssignedResourceRoles: userOrCaller('user'),
  listMachineUserAssignedRoles: machineUserNamed,
  listMachineUserAssignedResourceRoles: machineUserNamed,
  createUserAccessKey: userOrCaller('user'),
  createMachineUserAccessKey: machineUserNamed,
  getAccessKey: (h, req) => keyOwner(h, keyOrCurrent(h, req.accessKeyId)),
  updateAccessKey: (h, req) => keyOwner(h, String(req.accessKeyId)),
  deleteAccessKey: (h, req) => keyOwner(h, String(req.accessKeyId)),
  addSshPublicKey: actorOrCaller,
  describeSshPublicKey: actorOrCaller,
  deleteSshPublicKey: actorOrCaller,
  listSshPublicKeys: actorOrCaller,
  setWorkloadPassword: actorOrCaller,
};

/** Fails with PERMISSION_DENIED unless the caller may call the operation (on the actor it names). */
export function guard(h: Hook<R>, op: OperationName, req: Doc): void {
  if (OPEN.has(op) || SELF[op]?.(h, req) === h.ctx.caller.actorCrn) return;
  const level = accessLevel(h);
  if (level === 'admin' || (level === 'viewer' && /^(describe|get|list)/.test(op))) return;
  throw forbidden(`${h.ctx.caller.actorCrn} is not allowed to call iam ${op}`);
}
