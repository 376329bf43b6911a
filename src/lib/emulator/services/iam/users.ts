/** Users and machine users: made, changed, unlocked, deleted with all they hold, listed, moved between identity providers. */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { paged } from '../../paging.js';
import { strings, text } from '../../values.js';
import { backendOf, type R } from './backend.js';

export function createUser(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { user: b.userOut(b.createUser(req)) };
}

export function getUser(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { user: b.userOut(b.userOrCaller(req.userId)) };
}

export function updateUser(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { user: b.userOut(b.updateUser(text(req.user), req.active)) };
}

export function deleteUser(h: Hook<R>, req: Doc): Doc {
  return { ...backendOf(h).deleteUser(text(req.userId)) };
}

export function unlockUser(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { user: b.userOut(b.unlockUser(text(req.user))) };
}

export function listUsers(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return paged(h.ctx, req, b.listUsers(strings(req.userIds)), (u) => b.userOut(u));
}

export function migrateUsers(h: Hook<R>, req: Doc): Doc {
  return { numberOfUpdatedUsers: backendOf(h).migrateUsers(text(req.originalProviderName), text(req.newProviderName)) };
}

export function createMachineUser(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { machineUser: b.machineUserOut(b.createMachineUser(text(req.machineUserName))) };
}

export function deleteMachineUser(h: Hook<R>, req: Doc): Doc {
  return { ...backendOf(h).deleteMachineUser(text(req.machineUserName)) };
}

export function unlockMachineUser(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { machineUser: b.machineUserOut(b.unlockMachineUser(text(req.machineUser))) };
}

export function listMachineUsers(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return paged(h.ctx, req, b.listMachineUsers(strings(req.machineUserNames)), (m) => b.machineUserOut(m));
}
