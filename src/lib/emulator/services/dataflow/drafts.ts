/**
 * Flow drafts and their test sessions. Drafts come from the flow designer,
 * which is not part of this API: each environment starts with two, one with
 * a running test session. A session follows SESSION on the emulator clock.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import { crnId, uuid } from '../../ids.js';
import { progress, settledIn, start, type Lifecycle } from '../../engine/timeline.js';
import type { Workload } from './workload.js';
import { DEFAULT_NIFI } from './catalogue.js';
import { KIND, STEADY_DEPLOYMENT, split, type FlowDraft, type Status } from './records.js';

/** What test sessions do (states are STATE/DETAILED_STATE). */
const SESSION: Lifecycle = {
  restart: { phases: [['RESTARTING/RESTARTING', 1]], success: 'GOOD_HEALTH/GOOD_HEALTH' },
  suspend: { phases: [['SUSPENDING/SUSPENDING', 0.5]], success: 'SUSPENDED/TEST_SESSION_SUSPENDED' },
  terminate: { phases: [['TERMINATING/TERMINATING', 0.5]], success: 'TERMINATED/TEST_SESSION_TERMINATED' },
};

/** The drafts of an environment (made the first time it is asked). */
export function list(w: Workload, env: string): FlowDraft[] {
  const key = `dfworkload.draftsSeeded ${w.ctx.info.accountId} ${env}`;
  if (!w.store.meta(key)) {
    w.store.setMeta(key, '1');
    const at = w.now;
    for (const [name, session] of [
      ['orders-draft', true],
      ['metrics-draft', false],
    ] as const) {
      const id = uuid();
      const draft: FlowDraft = {
        crn: w.crnOf('flowDraft', id),
        environmentCrn: env,
        flowName: name,
        created: at,
        lastModified: at,
        createdBy: w.actorName(),
        runtimeVersion: DEFAULT_NIFI,
        ...(session
          ? {
              session: {
                crn: w.crnOf('testSession', uuid()),
                name: `${name}-session`,
                created: at,
                activity: settledIn('start', 'GOOD_HEALTH/GOOD_HEALTH', at),
              },
            }
          : {}),
      };
      w.store.put(KIND.draft, id, draft, { crn: draft.crn, parent: env });
    }
  }
  return w.store.children<FlowDraft>(KIND.draft, env).map((x) => x.doc);
}

export function get(w: Workload, env: string, crn: string | undefined): FlowDraft {
  if (!crn) throw invalid('flowDraftCrn is required');
  const found = list(w, env).find((d) => d.crn === crn);
  if (!found) throw notFound(`flow draft ${crn} not found`);
  return found;
}

function save(w: Workload, d: FlowDraft): void {
  d.lastModified = w.now;
  w.store.put(KIND.draft, crnId(d.crn), d, { crn: d.crn, parent: d.environmentCrn });
}

/** The draft's test session state, when it has one. */
export function sessionState(w: Workload, d: FlowDraft): Status | undefined {
  return d.session ? split(progress(d.session.activity, w.now).state) : undefined;
}

/** Restarts a test session (a new one when it has none or it was terminated). */
export function restartSession(w: Workload, env: string, crn: string | undefined): FlowDraft {
  const d = get(w, env, crn);
  const s = sessionState(w, d);
  if (s?.state === 'TERMINATING') throw failedPrecondition(`the test session of ${d.flowName} is terminating`);
  const activity = start(SESSION, 'restart', w.now);
  if (!d.session || s?.state === 'TERMINATED')
    d.session = { crn: w.crnOf('testSession', uuid()), name: `${d.flowName}-session`, created: w.now, activity };
  else d.session.activity = activity;
  save(w, d);
  return d;
}

function withSession(
  w: Workload,
  env: string,
  crn: string | undefined,
): { d: FlowDraft & { session: NonNullable<FlowDraft['session']> }; s: Status } {
  const d = get(w, env, crn);
  const s = sessionState(w, d);
  if (!d.session || !s || s.state === 'TERMINATED') throw failedPrecondition(`flow draft ${d.flowName} has no test session`);
  return { d: d as FlowDraft & { session: NonNullable<FlowDraft['session']> }, s };
}

export function suspendSession(w: Workload, env: string, crn: string | undefined): FlowDraft {
  const { d, s } = withSession(w, env, crn);
  if (s.state !== 'SUSPENDING' && s.state !== 'SUSPENDED') {
    if (!STEADY_DEPLOYMENT.has(s.state)) throw failedPrecondition(`the test session cannot be suspended while ${s.state}`);
    d.session.activity = start(SESSION, 'suspend', w.now);
    save(w, d);
  }
  return d;
}

export function terminateSession(w: Workload, env: string, crn: string | undefined): FlowDraft {
  const { d, s } = withSession(w, env, crn);
  if (s.state !== 'TERMINATING') {
    d.session.activity = start(SESSION, 'terminate', w.now);
    save(w, d);
  }
  return d;
}

/** Deletes a draft without a live test session. */
export function remove(w: Workload, env: string, crn: string | undefined): FlowDraft {
  const d = get(w, env, crn);
  const s = sessionState(w, d);
  if (s && s.state !== 'TERMINATED')
    throw failedPrecondition(`flow draft ${d.flowName} has a test session (${s.state}); terminate it first`);
  w.store.delete(KIND.draft, crnId(d.crn));
  return d;
}
