/** Access keys (API keys of users and machine users) and SSH public keys of an actor. */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { paged } from '../../paging.js';
import { str, strings, text } from '../../values.js';
import { backendOf, type R } from './backend.js';

export function createUserAccessKey(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return b.createAccessKey(str(req.user) ? b.user(text(req.user)).crn : b.caller.actorCrn, req.type);
}

export function createMachineUserAccessKey(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return b.createAccessKey(b.machineUser(text(req.machineUserName)).crn, req.type);
}

export function getAccessKey(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { accessKey: b.keyOut(b.accessKeyOrCurrent(req.accessKeyId)) };
}

export function updateAccessKey(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { accessKey: b.keyOut(b.updateAccessKey(text(req.accessKeyId), req.status)) };
}

export function deleteAccessKey(h: Hook<R>, req: Doc): Doc {
  backendOf(h).deleteAccessKey(text(req.accessKeyId));
  return {};
}

/** Every key, or the caller's own for a caller who may not read iam. */
export function listAccessKeys(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  const own = b.accessLevel() === 'none' ? b.caller.actorCrn : undefined;
  return paged(h.ctx, req, b.listAccessKeys(strings(req.accessKeyIds), own), (k) => b.keyOut(k));
}

/** The actor an SSH key request names, or the caller. */
const sshActor = (h: Hook<R>, req: Doc): string => str(req.actorCrn) ?? h.ctx.caller.actorCrn;

export function addSshPublicKey(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { sshPublicKey: b.sshKeyOut(b.addSshKey(sshActor(h, req), text(req.publicKey), req.description)) };
}

export function describeSshPublicKey(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { sshPublicKey: b.sshKeyOut(b.sshKey(sshActor(h, req), text(req.crnOrFingerprint))) };
}

export function deleteSshPublicKey(h: Hook<R>, req: Doc): Doc {
  backendOf(h).deleteSshKey(sshActor(h, req), text(req.crnOrFingerprint));
  return {};
}

export function listSshPublicKeys(h: Hook<R>, req: Doc): Doc {
  const b = backendOf(h);
  return { sshPublicKeys: b.sshKeys(sshActor(h, req)).map((k) => b.sshKeyOut(k)) };
}
