/**
 * datahub's clusters are records of the engine: their lifecycle is made of
 * the resource facts (model/services/datahub/resources.ts) and the minutes
 * the table declares, and so is their maintenance's (work beside a
 * cluster). Both must tell the facts' story: each
 * action of a cluster, and each kind of maintenance beside it, passes the
 * facts' states in order, from the facts' states, ends as they say, and
 * makes the operation record they name.
 */
import { describe, expect, test } from '@jest/globals';
import type { Lifecycle } from '../../../../../src/lib/emulator/engine/timeline.js';
import { lifecycleOf } from '../../../../../src/lib/emulator/engine/derive.js';
import datahub from '../../../../../src/lib/emulator/services/datahub/index.js';
import type { ActionFacts } from '../../../../../src/lib/model/resources.js';
import { resources as facts } from '../../../../../src/lib/model/services/datahub/resources.js';

/** A lifecycle as facts write it (a delete that removes the record still names the state it would end in). */
function asFacts(lc: Lifecycle): Record<string, ActionFacts> {
  return Object.fromEntries(
    Object.entries(lc).map(([name, a]) => [
      name,
      {
        through: a.phases.map(([state]) => state),
        ...(a.success !== undefined ? { success: a.success } : {}),
        ...(a.failure !== undefined ? { failure: a.failure } : {}),
        ...(a.from ? { from: a.from } : {}),
        ...(a.operation ? { operation: a.operation } : {}),
      },
    ]),
  );
}

describe("datahub's lifecycles and its facts", () => {
  test('a cluster', () => {
    const cluster = lifecycleOf(facts.resources.cluster, datahub.resources.cluster.minutes);
    expect(asFacts(cluster)).toEqual(facts.resources.cluster.lifecycle);
    expect(cluster.delete?.removes).toBe(facts.resources.cluster.deleted.ends === 'gone');
    // Every action takes the minutes the table gives it (a create ten, a delete two), spread over its states.
    const minutes = Object.fromEntries(Object.entries(cluster).map(([a, s]) => [a, s.phases.reduce((n, [, m]) => n + m, 0)]));
    expect(minutes).toEqual({
      create: 10,
      stop: 3,
      start: 4,
      upscale: 2,
      downscale: 1,
      repair: 3,
      upgrade: 12,
      verticalScale: 5,
      databaseUpgrade: 8,
      delete: 2,
    });
  });

  test('maintenance beside a cluster', () => {
    const work = lifecycleOf(facts.resources.work, datahub.resources.work.minutes);
    expect(asFacts(work)).toEqual(facts.resources.work.lifecycle);
    const minutes = Object.fromEntries(Object.entries(work).map(([a, s]) => [a, s.phases.reduce((n, [, m]) => n + m, 0)]));
    expect(minutes).toEqual({
      prepare: 5,
      renew: 3,
      rotate: 4,
      dbcert: 3,
      secrets: 3,
      dns: 1,
      orchestrator: 2,
      imds: 2,
      java: 5,
      sync: 1,
      diagnostics: 5,
      cmdiagnostics: 6,
      restart: 3,
      stopinstances: 2,
      startinstances: 3,
      kraft: 10,
      finalize: 3,
      rollback: 5,
      skus: 4,
    });
  });
});
