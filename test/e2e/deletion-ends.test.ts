/**
 * Issue 28 item 2: a delete ends where the resource's facts say, for every
 * resource whose service has facts (src/lib/model/services/<topic>/resources.ts)
 * and a delete for it. Through the library's client (signed HTTP) against an
 * emulator in this process on a paused clock: the resource is made with the
 * every-operation harness's plausible requests, waited on until ready,
 * deleted, and polled on the clock. `gone`: describe answers NOT_FOUND once
 * the delete's states are over, and lists no longer show it. `kept`: describe
 * shows the deleted status, lists show it or not as their flag says, and
 * after the retention it is gone. Resources with a delete and no facts yet
 * are listed (todo): once every service has its facts, that list is empty.
 */
import { describe, expect, test } from '@jest/globals';
import { parseDuration } from '../../src/lib/emulator/clock.js';
import type { DeletionEnd } from '../../src/lib/model/resources.js';
import { startEmulator } from '../../src/lib/sdk/emulator.js';
import { CANNOT, casesOf, DELETE_FIELDS, identify, makeResource, pollUntil, type MadeResource } from '../helpers/resource-facts.js';

/** A resource no describe or list shows (a grant that only its delete names) cannot be seen to end: listed as todo. */
const { cases, unseen, lack, all } = await casesOf((c) => c.ops.delete !== undefined);

/** What a list shows of a deleted record, by the list's flag. */
async function listings(made: MadeResource, end: DeletionEnd): Promise<Record<string, string>> {
  // A resource no list shows (an image of a catalog, seen by describing it) is seen by its describe alone.
  if (!made.ops.list) return {};
  if (end.ends === 'gone' || !end.listed) return { plain: (await made.listed()).state };
  const flag = 'hiddenWhen' in end.listed ? end.listed.hiddenWhen : end.listed.shownWhen;
  return { plain: (await made.listed()).state, [`${flag}=true`]: (await made.listed({ [flag]: true })).state };
}

/** What those lists should show while the deleted record is kept. */
function keptListings(made: MadeResource, end: Extract<DeletionEnd, { ends: 'kept' }>): Record<string, string> {
  if (!made.ops.list) return {};
  if (!end.listed) return { plain: end.status };
  if ('hiddenWhen' in end.listed) return { plain: end.status, [`${end.listed.hiddenWhen}=true`]: 'ABSENT' };
  return { plain: 'ABSENT', [`${end.listed.shownWhen}=true`]: end.status };
}

const absentEverywhere = (shown: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.keys(shown).map((k) => [k, 'ABSENT']));

describe('a delete ends where the resource facts say', () => {
  test('there are resources with facts and a delete (opdb and compute at least)', () => {
    expect(cases.map((c) => c.id)).toEqual(expect.arrayContaining(['opdb database', 'compute cluster']));
  });

  for (const c of unseen) test.todo(`${c.id}: ${c.ops.delete ?? ''}: ${CANNOT[c.id] ?? `no describe or list shows ${c.facts.shape}`}`);

  test.each(cases)('$id: $ops.delete', async (r) => {
    const end: DeletionEnd = r.facts.deleted ?? { ends: 'gone' };
    const made = await makeResource(r, all, startEmulator);
    try {
      // What else the harness made may hold it (a database's snapshots): a delete with force, where it has one, removes those too.
      const force = r.of.svc.requestFields(r.of.svc.operation(r.ops.delete ?? '')).find((f) => /^force/i.test(f.name));
      const named = {
        ...identify(r, r.ops.delete ?? '', (await made.look()).record ?? made.record),
        ...DELETE_FIELDS[`${r.of.svc.name} ${r.ops.delete ?? ''}`],
      };
      let deleted = await made.driver.call(r.ops.delete ?? '', named);
      if (!deleted.ok && deleted.code === 'FAILED_PRECONDITION' && force)
        deleted = await made.driver.call(r.ops.delete ?? '', { ...named, [force.name]: true });
      // The record it deleted is shown when the delete is refused.
      expect({
        [r.ops.delete ?? '']: deleted.ok
          ? 'accepted'
          : `${deleted.code} ${deleted.message} (asked ${JSON.stringify(deleted.request)} of ${JSON.stringify(made.record)}, made by ${JSON.stringify(made.created?.request)})`,
      }).toEqual({
        [r.ops.delete ?? '']: 'accepted',
      });
      const through = r.facts.lifecycle?.delete?.through ?? [];
      // Kept: polled until it shows the deleted status, is gone, or shows a state its delete does not pass through.
      const seen = await pollUntil(made, (s) =>
        end.ends === 'gone' ? s === 'NOT_FOUND' : s === end.status || s === 'NOT_FOUND' || (through.length > 0 && !through.includes(s)),
      );
      if (end.ends === 'gone') {
        const last = seen[seen.length - 1];
        expect({ seen, last, lists: await listings(made, end) }).toEqual({
          seen,
          last: 'NOT_FOUND',
          lists: made.ops.list ? { plain: 'ABSENT' } : {},
        });
        return;
      }
      const lists = await listings(made, end);
      expect({ seen, last: seen[seen.length - 1], lists }).toEqual({ seen, last: end.status, lists: keptListings(made, end) });
      if (end.retention) {
        made.emu.clock.advance((parseDuration(end.retention) ?? 0) + 60_000);
        expect({ after: (await made.look()).state, lists: await listings(made, end) }).toEqual({
          after: 'NOT_FOUND',
          lists: absentEverywhere(lists),
        });
      } else {
        made.emu.clock.advance('1d');
        expect({ aDayOn: (await made.look()).state }).toEqual({ aDayOn: end.status });
      }
    } finally {
      await made.stop();
    }
  });
});

/**
 * The deletes of the model that no resource's facts account for yet: every
 * service without facts, and deletes of services with facts that none of
 * their resources claims. Report-only until every service has its facts
 * (issue 28's fan-out); then set HARD and the list must be empty.
 */
const HARD = false;
const DELETES = /^(delete|drop|remove|terminate|deregister|revoke|purge)/;
const claimed = new Set([...cases, ...unseen].map((c) => `${c.of.svc.name} ${c.ops.delete}`));
const unclaimed = all.flatMap((svc) =>
  svc
    .operations()
    .filter((op) => !op.composed && DELETES.test(op.name) && !claimed.has(`${svc.name} ${op.name}`))
    .map((op) => `${svc.name} ${op.name}${lack.includes(svc) ? ' (service has no facts yet)' : ''}`),
);

describe('every delete of the model has a resource with facts', () => {
  if (HARD)
    test('none is unaccounted for', () => {
      expect(unclaimed).toEqual([]);
    });
  else for (const d of unclaimed) test.todo(`${d}: no resource facts claim it yet`);
});
