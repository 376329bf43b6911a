/**
 * dw is on an engine spec of the older shape, which declares its own
 * lifecycles (with their emulated minutes) and reads the rest of its
 * resource facts (model/services/dw/resources.ts). The two must tell the
 * same story: every action a client can watch (one that passes through a
 * state) passes the facts' states in order, from the facts' states, and
 * ends as they say; a delete that ends gone shows no state after its own.
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

describe("dw's declared lifecycles and its facts", () => {
  test('every resource the engine serves has facts, and each facts resource with a lifecycle is served', () => {
    const factKeys = Object.keys(facts.resources);
    expect(models.map((m) => m.key).filter((k) => !factKeys.includes(k))).toEqual([]);
    const withLifecycle = Object.entries(facts.resources).filter(([, f]) => 'lifecycle' in f && f.lifecycle !== undefined);
    expect(withLifecycle.map(([k]) => k).filter((k) => !models.some((m) => m.key === k))).toEqual([]);
  });

  test.each(models.filter((m) => m.lifecycle).map((m) => [m.key, m] as const))('%s', (key, m) => {
    const declared = m.lifecycle ?? {};
    const own = (facts.resources as Readonly<Record<string, ResourceFacts>>)[key];
    const told: Readonly<Record<string, ActionFacts>> = own?.lifecycle ?? {};
    const watched = Object.entries(declared).filter(([, a]) => a.phases.length > 0);
    const asDeclared = Object.fromEntries(
      watched.map(([name, a]) => [
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
    expect({ key, lifecycle: asDeclared }).toEqual({ key, lifecycle: told });
    // A delete the spec declares removes the record exactly when the facts say it ends gone.
    if (declared.delete)
      expect({ key, removes: declared.delete.removes === true }).toEqual({ key, removes: own?.deleted?.ends === 'gone' });
  });
});
