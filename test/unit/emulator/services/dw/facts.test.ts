/**
 * dw serves its records' lifecycles from its resource facts
 * (model/services/dw/resources.ts), adding only emulated minutes. What the
 * engine serves must tell the facts' story: every action passes the facts'
 * states in order, from the facts' states, and ends as they say (actions
 * that take effect at once included); a delete removes the record exactly
 * when the facts say it ends gone; and each action takes the emulated
 * minutes the service documents (docs/emulator-services.md), which tests
 * and users advance the clock by.
 */
import { describe, expect, test } from '@jest/globals';
import { Engine } from '../../../../../src/lib/emulator/engine/index.js';
import { loadServiceModule } from '../../../../../src/lib/emulator/services/index.js';
import { loadService } from '../../../../../src/lib/model/index.js';
import type { ActionFacts, ResourceFacts } from '../../../../../src/lib/model/resources.js';
import { resources as facts } from '../../../../../src/lib/model/services/dw/resources.js';

const svc = await loadService('dw');
const engine = Engine.of(svc, await loadServiceModule('dw'));
const models = [...(engine?.model.resources.values() ?? [])];

describe("dw's served lifecycles and its facts", () => {
  test('every resource the engine serves has facts, and each facts resource with a lifecycle is served', () => {
    const factKeys = Object.keys(facts.resources);
    expect(models.map((m) => m.key).filter((k) => !factKeys.includes(k))).toEqual([]);
    const withLifecycle = Object.entries(facts.resources).filter(([, f]) => 'lifecycle' in f && f.lifecycle !== undefined);
    expect(withLifecycle.map(([k]) => k).filter((k) => !models.some((m) => m.key === k))).toEqual([]);
  });

  test.each(models.filter((m) => m.lifecycle).map((m) => [m.key, m] as const))('%s', (key, m) => {
    const served = m.lifecycle ?? {};
    const own = (facts.resources as Readonly<Record<string, ResourceFacts>>)[key];
    const told: Readonly<Record<string, ActionFacts>> = own?.lifecycle ?? {};
    const asServed = Object.fromEntries(
      Object.entries(served).map(([name, a]) => [
        name,
        {
          through: a.phases.map(([state]) => state),
          // A delete that removes the record shows no state after its own.
          ...(a.success !== undefined && !(name === 'delete' && a.removes) ? { success: a.success } : {}),
          ...(a.failure !== undefined ? { failure: a.failure } : {}),
          ...(a.from ? { from: a.from } : {}),
        },
      ]),
    );
    // An action that takes effect at once (`atOnce`) is served as one of no emulated minutes (MINUTES below).
    const asTold = Object.fromEntries(Object.entries(told).map(([name, { atOnce: _atOnce, ...a }]) => [name, a]));
    expect({ key, lifecycle: asServed }).toEqual({ key, lifecycle: asTold });
    if (served.delete) expect({ key, removes: served.delete.removes === true }).toEqual({ key, removes: own?.deleted?.ends === 'gone' });
    const minutes = Object.fromEntries(Object.entries(served).map(([name, a]) => [name, a.phases.map(([, m]) => m)]));
    expect({ key, minutes }).toEqual({ key, minutes: MINUTES[key] });
  });
});

/** The emulated minutes of each state of each action, as the service documents them. */
const WORKLOAD = { create: [0.5, 4.5], update: [0.5, 2.5], suspend: [2], start: [3], upgrade: [6], rebuild: [1, 4], delete: [2] };
const JOB = [0.5, 2.5];
const MINUTES: Readonly<Record<string, Readonly<Record<string, readonly number[]>>>> = {
  cluster: { create: [0.5, 14.5], update: [0.5, 2.5], renew: [3], stop: [3], start: [4], sshKey: [0], delete: [5] },
  dbc: WORKLOAD,
  vw: WORKLOAD,
  dataVisualization: { create: [0.5, 4.5], update: [0.5, 2.5], upgrade: [0.5, 5.5], delete: [2] },
  clusterDiagnostics: { create: JOB },
  dbcDiagnostics: { create: JOB },
  vwDiagnostics: { create: JOB },
  connectorTest: { create: [1] },
  backup: { create: [0.5, 4], restore: [0], delete: [1] },
  restore: { create: [0.5, 5] },
};
