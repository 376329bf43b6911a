/**
 * The CLI's waiters and the engine's lifecycles tell the same story: for
 * every operation the engine serves as a lifecycle action and the CLI can
 * `--wait` on, the action ends in a state the waiter takes for success (or
 * removes the resource, where the waiter takes NOT_FOUND for success), and
 * fails in a state the waiter takes for failure. A waiter that polls the
 * action's operation record (datalake's getOperation) reads that record's
 * ends instead. Otherwise a `--wait` against the emulator would never end,
 * or end wrongly.
 */
import { describe, expect, test } from '@jest/globals';
import { Engine } from '../../../src/lib/emulator/engine/index.js';
import { FAILED, FINISHED } from '../../../src/lib/emulator/engine/operations.js';
import { loadServiceModule } from '../../../src/lib/emulator/services/index.js';
import { loadAllServices } from '../../../src/lib/model/index.js';

const services = await loadAllServices();
const engines: Engine[] = [];
for (const svc of services) {
  const engine = Engine.of(svc, await loadServiceModule(svc.topic));
  if (engine) engines.push(engine);
}

const cases = engines.flatMap((e) =>
  [...e.model.bindings].flatMap(([op, b]) => {
    const wait = e.service.operation(op).cli.wait;
    const r = e.model.resources.get(b.resource);
    const verb = b.verb;
    const action =
      typeof verb === 'object'
        ? 'action' in verb
          ? verb.action
          : undefined
        : verb === 'create' || verb === 'delete'
          ? (b.action ?? verb)
          : verb === 'update'
            ? (b.action ?? 'update')
            : undefined;
    const spec = action ? r?.lifecycle?.[action] : undefined;
    const pollsOperation = wait ? e.model.bindings.get(wait.poll)?.verb === 'operation' : false;
    return wait && spec && !wait.service ? [{ id: `${e.service.name} ${op}`, wait, spec, pollsOperation }] : [];
  }),
);

describe('every waited-on action of the engine ends where its waiter looks', () => {
  test('there are such actions', () => {
    expect(cases.length).toBeGreaterThan(3);
  });

  test.each(cases)('$id', ({ wait, spec, pollsOperation }) => {
    if (pollsOperation) {
      // The action records an operation, which ends where the waiter looks.
      expect(spec.operation).toBeDefined();
      expect(wait.success).toContain(FINISHED);
      if (wait.failure) expect(wait.failure).toContain(FAILED);
      return;
    }
    if (spec.removes && wait.goneIsSuccess) expect(spec.removes).toBe(true);
    else expect(wait.success).toContain(spec.success);
    if (spec.failure && wait.failure) expect(wait.failure).toContain(spec.failure);
  });
});
