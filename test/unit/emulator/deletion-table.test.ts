/**
 * docs/emulator-services.md carries a table of how each resource's delete
 * ends, generated from the services' resource facts by scripts/gen-docs.mjs
 * (`npm run docs`, from the build). This fails when the committed table is
 * stale, and checks it row by row against the facts: one row per resource
 * with a delete, and per other operation its facts say ends it or what it
 * holds (`deletedBy`), naming the operation the tests drive
 * (test/e2e/deletion-ends.test.ts) and the end the facts state.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../helpers/cli.js';
import { loadFacts, resourceOperations, resourcesOf } from '../../helpers/resource-facts.js';

const START = '<!-- deletion-ends:start';
const END = '<!-- deletion-ends:end -->';
const doc = readFileSync(join(ROOT, 'docs', 'emulator-services.md'), 'utf8');
const committed = doc.slice(doc.indexOf(START), doc.indexOf(END) + END.length);
let generated = '';

beforeAll(() => {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'gen-docs.mjs'), '--deletion-ends'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`gen-docs failed (run npm run build first): ${r.stderr}`);
  generated = r.stdout.trimEnd();
});

/** The table's rows: service, resource, delete, ends, lists. */
const rows = committed
  .split('\n')
  .filter((l) => l.startsWith('|') && !/^\|\s*(service|-)/.test(l))
  .map((l) =>
    l
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim().replace(/`/g, '')),
  );

describe('the deletion table', () => {
  test('docs/emulator-services.md holds the table the facts give (run `npm run docs` when this fails)', () => {
    expect(doc.indexOf(START)).toBeGreaterThan(0);
    expect(committed).toBe(generated);
  });

  test('one row per resource with facts and a delete, with the delete and the end the facts state', async () => {
    const { have, lack } = await loadFacts();
    const want = resourcesOf(have).flatMap((r) => {
      const ops = resourceOperations(r);
      if (!ops.delete) return [];
      const end = r.facts.deleted ?? { ends: 'gone' as const };
      const ends = end.ends === 'gone' ? 'gone (NOT_FOUND)' : `kept ${end.status} ${end.retention ? `for ${end.retention}` : 'for good'}`;
      const listed =
        end.ends === 'gone' || !end.listed
          ? end.ends === 'gone'
            ? ''
            : 'listed'
          : 'hiddenWhen' in end.listed
            ? `listed, unless ${end.listed.hiddenWhen}`
            : `listed only with ${end.listed.shownWhen}`;
      // A row for each operation that ends it, or what it holds (its facts' deletedBy).
      return [ops.delete, ...(ops.alsoDeletes ?? [])].map((del) =>
        r.facts.deletedBy?.[del] === 'held'
          ? [r.of.svc.name, r.key, del, 'what it holds gone; it stays', '']
          : [r.of.svc.name, r.key, del, ends, listed],
      );
    });
    expect(rows).toEqual(expect.arrayContaining(want));
    expect(rows.length).toBe(want.length);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['compute', 'cluster', 'deleteCluster', 'kept DELETED for good', 'listed only with includeDeleted'],
        ['datahub', 'recipe', 'deleteRecipes', 'gone (NOT_FOUND)', ''],
        ['iam', 'group', 'removeUserFromGroup', 'what it holds gone; it stays', ''],
      ]),
    );
    for (const svc of lack) expect(committed).toContain(`\`${svc.name}\``);
  });
});
