/** The account's settings (sign-in switches, messages, workload password policies), workload passwords and workload tokens. */
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { str, text } from '../../values.js';
import { backendOf, type R } from './backend.js';

export const getAccount = (h: Hook<R>): Doc => ({ account: backendOf(h).accountOut() });

export function enableClouderaSSOLogin(h: Hook<R>): Doc {
  backendOf(h).setAccountSwitch('clouderaSSOLoginEnabled', true);
  return {};
}

export function disableClouderaSSOLogin(h: Hook<R>): Doc {
  backendOf(h).setAccountSwitch('clouderaSSOLoginEnabled', false);
  return {};
}

/** Turns the notices of users' workload password changes on or off. */
function passwordNotices(h: Hook<R>, on: boolean): Doc {
  const b = backendOf(h);
  return { account: b.accountOut(b.setAccountSwitch('userWorkloadPasswordChangedNotifications', on)) };
}
export const enablePasswordChangedNotices = (h: Hook<R>): Doc => passwordNotices(h, true);
export const disablePasswordChangedNotices = (h: Hook<R>): Doc => passwordNotices(h, false);

export function getAccountMessages(h: Hook<R>): Doc {
  const m = backendOf(h).account().contactYourAdministratorMessage;
  return m !== undefined ? { contactYourAdministratorMessage: m } : {};
}

export function setAccountMessages(h: Hook<R>, req: Doc): Doc {
  backendOf(h).setAccountMessages(req.contactYourAdministratorMessage);
  return {};
}

export function setWorkloadPasswordPolicy(h: Hook<R>, req: Doc): Doc {
  backendOf(h).setPasswordPolicy(req);
  return {};
}

export function unsetWorkloadPasswordPolicy(h: Hook<R>, req: Doc): Doc {
  backendOf(h).unsetPasswordPolicy(req.unsetGlobalPasswordPolicy, req.unsetMachineUsersPasswordPolicy);
  return {};
}

export function setWorkloadPassword(h: Hook<R>, req: Doc): Doc {
  backendOf(h).setWorkloadPassword(str(req.actorCrn) ?? h.ctx.caller.actorCrn, text(req.password));
  return {};
}

export function unsetWorkloadPasswordMinLifetime(h: Hook<R>, req: Doc): Doc {
  backendOf(h).unsetPasswordMinLifetime(text(req.actorCrn));
  return {};
}

export const generateWorkloadAuthToken = (h: Hook<R>, req: Doc): Doc => backendOf(h).generateWorkloadToken(req);
