/**
 * Flow drafts and their test sessions, records of the engine (index.ts's
 * `flowDraft` and `testSession`, a part of its draft). Drafts come from the
 * flow designer, which is not part of this API: each environment starts
 * with two, one with a running test session, made the first time it is
 * asked for them. A draft has at most one session; a restart starts a new
 * one when it has none (a terminated session is gone).
 */
import type { Doc } from '../../engine/context.js';
import type { Hook, Resource } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { verbs } from '../../engine/table.js';
import { failedPrecondition } from '../../errors.js';
import { uuid } from '../../ids.js';
import { str, text } from '../../values.js';
import { DEFAULT_NIFI } from './catalogue.js';
import { STEADY_DEPLOYMENT, Workload, inEnvironment, type R } from './workload.js';

/** A session's detailed state, where it is not its state. */
const DETAILED: Readonly<Record<string, string>> = { SUSPENDED: 'TEST_SESSION_SUSPENDED', TERMINATED: 'TEST_SESSION_TERMINATED' };

/** The test session of a draft, when it has one. */
const sessionOfDraft = (h: Hook<R>, draft: Readonly<EngineRecord>): EngineRecord | undefined => h.records('testSession').all(draft.id)[0];

/** Makes the environment's two drafts the first time it is asked for them: the request as sent. */
export function seeded(h: Hook<R>, sent: Doc): Doc {
  const w = new Workload(h);
  const env = w.environment(str(sent.environmentCrn));
  const key = `dfworkload.draftsSeeded ${h.ctx.info.accountId} ${env}`;
  if (!env || h.ctx.store.meta(key)) return sent;
  h.ctx.store.setMeta(key, '1');
  const [at, by] = [w.now, w.actorName()];
  for (const name of ['orders-draft', 'metrics-draft']) {
    const id = uuid();
    const doc = { flowName: name, crn: h.crn('flowDraft', id), created: at, lastModified: at, createdBy: by, runtimeVersion: DEFAULT_NIFI };
    const draft = h.records('flowDraft').create({ id, name, crn: doc.crn, scope: env, env, doc });
    if (name !== 'orders-draft') continue;
    // The first one's session is running already: its restart ended as the environment was made.
    const sid = uuid();
    const session = { name: `${name}-session`, crn: h.crn('testSession', sid), createdTimestamp: at, runtimeVersion: DEFAULT_NIFI };
    const made = { id: sid, name: session.name, crn: session.crn, scope: draft.id, env, doc: session };
    h.records('testSession').create(made, 'restart', { at: at - 60_000 });
  }
  return sent;
}

/** A session operation names its draft: the request names the draft's session, or is refused when it has none. */
export function sessionOf(h: Hook<R>, sent: Doc): Doc {
  const draft = h.locate('flowDraft', sent);
  const session = sessionOfDraft(h, draft);
  if (!session) throw failedPrecondition(`flow draft ${String(draft.name)} has no test session`);
  return { ...sent, testSessionCrn: session.crn };
}

/** The drafts of an environment whose session is running. */
export function withSession(h: Hook<R>, req: Doc): EngineRecord[] {
  const env = new Workload(h).environment(str(req.environmentCrn));
  const drafts = h.records('flowDraft').all(env || undefined);
  return drafts.filter((d) => sessionOfDraft(h, d) !== undefined);
}

/** Restarts a draft's test session, or starts a new one when it has none. */
export function restartTestSession(h: Hook<R>, req: Doc): Doc {
  const draft = h.locate('flowDraft', req);
  if (sessionOfDraft(h, draft)) return h.serve(verbs<R>('testSession').act('restart', { rewrite: sessionOf }), req);
  const named = (_h: Hook<R>, sent: Doc): Doc => ({ ...sent, name: `${String(draft.name)}-session` });
  return h.serve(verbs<R>('testSession').create({ action: 'restart', rewrite: named }), req);
}

export const flowDraft: Resource<R> = {
  ...inEnvironment('flow draft', ['flowDraftCrn']),
  hooks: {
    check: {
      // A draft whose test session runs stays.
      delete: (h, rec) => {
        const session = sessionOfDraft(h, rec);
        if (session)
          throw failedPrecondition(
            `flow draft ${String(rec.name)} has a test session (${h.records('testSession').state(session)}); terminate it first`,
          );
      },
    },
    // What the designer made it with, its session as it is now, changed when its session last was.
    show: (h, rec) => {
      const session = sessionOfDraft(h, rec);
      const modified = session ? Math.max(session.activity.tl.startedAt, Number(rec.doc.lastModified)) : rec.doc.lastModified;
      return {
        resourceType: 'FLOW_DRAFT',
        lastModifiedBy: rec.doc.createdBy,
        nifiMajorVersion: Number(text(rec.doc.runtimeVersion).split('.')[0]),
        lastModified: modified,
        updated: modified,
        runtimeSession: session ? h.records('testSession').view(session) : undefined,
      };
    },
  },
};

export const testSession: Resource<R> = {
  noun: 'test session',
  keys: ['testSessionCrn'],
  lives: { in: 'parent', parent: 'flowDraft', part: true },
  minutes: { restart: 1, suspend: 0.5, delete: 0.5 },
  idempotent: ['suspend'],
  hooks: {
    check: {
      restart: (h, rec) => {
        if (h.records('testSession').state(rec) === 'TERMINATING')
          throw failedPrecondition(`the test session of ${String(h.records('flowDraft').byId(rec.scope)?.name)} is terminating`);
      },
      suspend: (h, rec) => {
        const state = h.records('testSession').state(rec);
        if (state !== 'SUSPENDING' && !STEADY_DEPLOYMENT.has(state))
          throw failedPrecondition(`the test session cannot be suspended while ${state}`);
      },
    },
    // The runtime of its draft, made now; its status a deployment's.
    fill: (h, rec) => ({
      createdTimestamp: h.ctx.clock.now(),
      runtimeVersion: h.records('flowDraft').byId(rec.scope)?.doc.runtimeVersion ?? DEFAULT_NIFI,
    }),
    show: (_h, _rec, view) => {
      const state = text(view.status);
      const status = { state, detailedState: DETAILED[state] ?? state };
      return { status, runtimeStatus: status };
    },
  },
};
