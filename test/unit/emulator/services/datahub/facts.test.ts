/**
 * datahub's clusters are code entries of its operation table: they keep
 * their own lifecycles (services/datahub/records.ts), which the engine does
 * not read from the resource facts (model/services/datahub/resources.ts).
 * The two must still tell the
 * same story: each action of a cluster, and each kind of maintenance beside
 * it, passes the facts' states in order, from the facts' states, ends as
 * they say, and makes the operation record they name.
 */
import { describe, expect, test } from '@jest/globals';
import type { Lifecycle } from '../../../../../src/lib/emulator/engine/timeline.js';
import { CLUSTER, WORK } from '../../../../../src/lib/emulator/services/datahub/records.js';
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
    expect(asFacts(CLUSTER)).toEqual(facts.resources.cluster.lifecycle);
    expect(CLUSTER.delete?.removes).toBe(facts.resources.cluster.deleted.ends === 'gone');
  });

  test('maintenance beside a cluster', () => {
    expect(asFacts(WORK)).toEqual(facts.resources.work.lifecycle);
  });
});
