/** iam operations: wire in, plain result out; the rules live in backend.ts. */
import type { Handler } from '../../types.js';
import { notFound } from '../../errors.js';
import { KIND, type UserRecord } from './records.js';

export const handlers: Record<string, Handler> = {
  getUser: (req, ctx) => {
    const id = typeof req.userId === 'string' ? req.userId : undefined;
    const user = id ? ctx.store.get<UserRecord>(KIND.user, id) : ctx.store.getByCrn<UserRecord>(ctx.caller.actorCrn)?.doc;
    if (!user) throw notFound(`user ${id ?? ctx.caller.actorCrn} not found`);
    return { user };
  },
};
