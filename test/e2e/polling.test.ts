/**
 * Issue 28 item 4: polling as automation does it. Terraform providers and
 * Ansible modules poll describe themselves rather than use a waiter; for
 * each long-running action in a resource's facts (its `lifecycle`), such a
 * loop, over signed HTTP (the library's client) on the emulator's clock,
 * sees the action's `through` states in order from the moment it is asked
 * for, and then its `success` state; a delete ends in NOT_FOUND (`gone`,
 * its success state perhaps seen on the way) or its kept status. Driven by
 * every service's facts, so it grows as facts land.
 */
import { describe, expect, test } from '@jest/globals';
import type { ActionFacts } from '../../src/lib/model/resources.js';
import { startEmulator } from '../../src/lib/sdk/emulator.js';
import { CANNOT, casesOf, identify, makeResource, pollUntil, type FactsOfResource, type MadeResource } from '../helpers/resource-facts.js';

const { cases, unseen, all } = await casesOf((c) => c.facts.lifecycle !== undefined);

/** Lifecycles known to disagree with the emulator, and why (reported to the service's owner): pinned as failing. */
const KNOWN: Readonly<Record<string, string>> = {};

/** What a describe loop should see of an action, from the moment it is asked for. */
const expected = (a: ActionFacts, from: string): string[] => [...(a.atOnce ? [] : a.through), a.success ?? from];

/** Asks for an action and polls until it leaves its states: what the loop saw. */
async function watch(r: FactsOfResource, made: MadeResource, operation: string, a: ActionFacts): Promise<string[] | string> {
  // Named as describe shows it now (a compute cluster's state version moves with each change).
  const asked = await made.driver.call(operation, identify(r, operation, (await made.look()).record ?? made.record));
  if (!asked.ok) return `${operation} refused: ${asked.code} ${asked.message}`;
  return pollUntil(made, (s) => !a.through.includes(s));
}

describe('a describe loop sees each long-running action of the facts in order', () => {
  test('there are resources with lifecycles (opdb and compute at least)', () => {
    expect(cases.map((c) => c.id)).toEqual(expect.arrayContaining(['opdb database', 'compute cluster']));
  });

  for (const c of unseen) test.todo(`${c.id}: ${CANNOT[c.id] ?? `no describe or list shows ${c.facts.shape}`}`);

  for (const c of cases.filter((x) => KNOWN[x.id])) test.failing(`${c.id} (known: ${KNOWN[c.id] ?? ''})`, () => poll(c));
  const open = cases.filter((x) => KNOWN[x.id] === undefined);
  if (open.length > 0) test.each(open)('$id', (c) => poll(c));
});

/** Drives each action of a resource's lifecycle and compares what a describe loop saw with its facts. */
async function poll(r: (typeof cases)[number]): Promise<void> {
  const lifecycle = r.facts.lifecycle ?? {};
  const made = await makeResource(r, all, startEmulator);
  const saw: Record<string, unknown> = {};
  const want: Record<string, unknown> = {};
  try {
    const createdBy = made.createdBy ?? 'create';
    const creation = lifecycle[createdBy];
    if (creation && made.createSeen) {
      saw[createdBy] = made.createSeen;
      want[createdBy] = expected(creation, '');
    }
    // The other actions, each from a state it may begin in (stop before start, suspend before resume); the delete last.
    const pending = Object.entries(lifecycle).filter(([name]) => name !== createdBy && name !== 'delete');
    const ready = creation?.success;
    for (let guard = 0; pending.length > 0 && guard < 20; guard++) {
      const now = (await made.look()).state;
      const next = pending.findIndex(([, a]) => (a.from ? a.from.includes(now) : now === (ready ?? now)));
      if (next < 0) break;
      const [name, a] = pending.splice(next, 1)[0] ?? ['', lifecycle.create as ActionFacts];
      const op = r.ops.actions[name];
      if (!op) {
        saw[name] = 'no operation found for it';
        want[name] = saw[name];
        continue;
      }
      saw[name] = await watch(r, made, op, a);
      want[name] = typeof saw[name] === 'string' ? saw[name] : expected(a, now);
    }
    for (const [name] of pending) saw[name] = want[name] = 'not reached from the states the other actions leave';
    const del = lifecycle.delete;
    const delOp = r.ops.actions.delete;
    if (del && delOp) {
      const end = r.facts.deleted ?? { ends: 'gone' as const };
      let seen = await watch(r, made, delOp, del);
      // Gone: the success state may show for a moment before NOT_FOUND.
      if (end.ends === 'gone' && Array.isArray(seen) && seen[seen.length - 1] !== 'NOT_FOUND')
        seen = [...seen, ...(await pollUntil(made, (s) => s === 'NOT_FOUND')).slice(1)];
      saw.delete = seen;
      if (typeof seen === 'string') want.delete = seen;
      else if (end.ends === 'kept') want.delete = [...del.through, end.status];
      else want.delete = seen.includes(del.success ?? '-') ? [...del.through, del.success, 'NOT_FOUND'] : [...del.through, 'NOT_FOUND'];
    }
    // Refused actions are shown with the rest; they are the harness's (a request it could not make), listed, not failed.
    const refused = Object.entries(saw).filter(([, v]) => typeof v === 'string');
    if (refused.length > 0) process.stderr.write(`${r.id}: not exercised: ${refused.map(([k, v]) => `${k}: ${String(v)}`).join('; ')}\n`);
    expect(saw).toEqual(want);
  } finally {
    await made.stop();
  }
}
