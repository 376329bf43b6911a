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
import { str } from '../../values.js';
import { Iam, type R } from './iam.js';
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

/** The actor a request names by `field` (a CRN), or the caller. */
const actorOrCaller =
  (field: string) =>
  (iam: Iam, req: Doc): string =>
    str(req[field]) ?? iam.caller.actorCrn;
/** The user a request names by `field` (id or CRN), or the caller. */
const userOrCaller =
  (field: string) =>
  (iam: Iam, req: Doc): string =>
    str(req[field]) ? iam.user(String(req[field])).crn : iam.caller.actorCrn;
const machineUserNamed = (iam: Iam, req: Doc): string => iam.machineUser(String(req.machineUserName)).crn;
const keyOwner = (iam: Iam, req: Doc): string => iam.accessKey(String(req.accessKeyId)).actorCrn;

/** The operations an actor may call on itself: the actor each acts on (a NOT_FOUND of it comes before any refusal). */
const SELF: { readonly [op in OperationName]?: (iam: Iam, req: Doc) => string } = {
  getUser: userOrCaller('userId'),
  listGroupsForUser: (iam, req) => iam.user(String(req.userId)).crn,
  listGroupsForMachineUser: machineUserNamed,
  listUserAssignedRoles: userOrCaller('user'),
  listUserAssignedResourceRoles: userOrCaller('user'),
  listMachineUserAssignedRoles: machineUserNamed,
  listMachineUserAssignedResourceRoles: machineUserNamed,
  createUserAccessKey: userOrCaller('user'),
  createMachineUserAccessKey: machineUserNamed,
  getAccessKey: (iam, req) => iam.accessKey(keyOrCurrent(iam, req.accessKeyId)).actorCrn,
  updateAccessKey: keyOwner,
  deleteAccessKey: keyOwner,
  addSshPublicKey: actorOrCaller('actorCrn'),
  describeSshPublicKey: actorOrCaller('actorCrn'),
  deleteSshPublicKey: actorOrCaller('actorCrn'),
  listSshPublicKeys: actorOrCaller('actorCrn'),
  setWorkloadPassword: actorOrCaller('actorCrn'),
};

/** Fails with PERMISSION_DENIED unless the caller may call the operation (on the actor it names). */
export function guard(h: Hook<R>, op: OperationName, req: Doc): void {
  if (OPEN.has(op)) return;
  const iam = new Iam(h);
  iam.authorize(/^(describe|get|list)/.test(op) ? 'read' : 'write', op, SELF[op]?.(iam, req));
}
