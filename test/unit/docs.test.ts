/**
 * docs/commands.md is generated from the model by scripts/gen-docs.mjs. This
 * regenerates it in memory (from the build, as `npm run docs` does) and fails
 * when the committed file is stale; it also checks the reference holds every
 * command with its summary, alias, API name and flags, and that the guides
 * link to files that exist.
 */
import { GLOBAL_FLAG_SPECS } from '../../src/lib/cli/flag-spec.js';
import { CDP_GLOBAL_OPTIONS, CDP_MODEL_LACKS } from '../helpers/cdp-reference.js';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { flagFields } from '../../src/lib/cli/flags.js';
import { loadAllServices, type Operation } from '../../src/lib/model/index.js';
import { kebab } from '../../src/lib/model/names.js';
import { ROOT } from '../helpers/cli.js';

const DOC = join(ROOT, 'docs', 'commands.md');
let generated = '';
let ops: Operation[] = [];

beforeAll(async () => {
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'gen-docs.mjs'), '--stdout'], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`gen-docs failed (run npm run build first): ${r.stderr}`);
  generated = r.stdout;
  ops = (await loadAllServices()).flatMap((s) => s.operations());
});

describe('docs/commands.md', () => {
  test('is up to date with the model (run `npm run docs` when this fails)', () => {
    const committed = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '';
    // Compare line by line first for a readable failure.
    const a = committed.split('\n');
    const b = generated.split('\n');
    const first = b.findIndex((line, i) => line !== a[i]);
    expect({ firstDifferentLine: first < 0 && a.length === b.length ? -1 : first + 1, committed: a[first], generated: b[first] }).toEqual({
      firstDifferentLine: -1,
      committed: undefined,
      generated: undefined,
    });
    expect(committed).toBe(generated);
  });

  test('holds every operation: id, summary, alias, API name and flags', () => {
    const missing: string[] = [];
    for (const op of ops) {
      const at = generated.indexOf(`#### \`cdpctl ${op.commandId}\`\n`);
      if (at < 0) {
        missing.push(`${op.commandId}: no section`);
        continue;
      }
      const next = generated.indexOf('\n#### ', at + 1);
      const section = generated.slice(at, next < 0 ? undefined : next);
      if (!section.includes(op.cli.summary)) missing.push(`${op.commandId}: summary`);
      if (!section.includes(`Alias: \`cdpctl ${op.aliasId}\``)) missing.push(`${op.commandId}: alias`);
      if (!section.includes(`API: \`${op.service.name} ${op.name}\``)) missing.push(`${op.commandId}: API name`);
      for (const f of flagFields(op)) if (!section.includes(`\`--${kebab(f.name)}\``)) missing.push(`${op.commandId}: --${kebab(f.name)}`);
      if (!section.includes('```sh\ncdpctl ')) missing.push(`${op.commandId}: example`);
    }
    expect(missing).toEqual([]);
  });

  test("holds cdpctl's own commands and the global flags", () => {
    for (const id of ['api', 'configure', 'configure set', 'emulator start', 'emulator stop', 'login', 'logout', 'auth status'])
      expect(generated).toContain(`### \`cdpctl ${id}\``);
    for (const flag of ['--profile', '--output', '--query', '--no-input', '--color', '--max-items', '--wait'])
      expect(generated).toContain(`\`${flag}\``);
  });
});

describe('the guides', () => {
  const guides = ['README.md', 'docs/getting-started.md', 'docs/scripting.md', 'docs/migrating.md'];

  test.each(guides)('%s exists and its relative links resolve', (file) => {
    const path = join(ROOT, file);
    expect(existsSync(path)).toBe(true);
    const text = readFileSync(path, 'utf8');
    const broken = [...text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)]
      .map((m) => m[1] ?? '')
      .filter((href) => !/^[a-z]+:/.test(href))
      .filter((href) => !existsSync(join(dirname(path), href)));
    expect(broken).toEqual([]);
  });

  describe("migrating.md's claims about cdp 0.9.158", () => {
    const text = readFileSync(join(ROOT, 'docs', 'migrating.md'), 'utf8');
    const same = text.slice(text.indexOf('## What stays the same'), text.indexOf('## A side-by-side'));
    const differs = text.slice(text.indexOf('## Where cdpctl still differs'));

    test('every global option of cdp (its cli.json) is one of ours and named in the page', () => {
      for (const o of CDP_GLOBAL_OPTIONS) {
        expect(Object.keys(GLOBAL_FLAG_SPECS)).toContain(o);
        expect(same).toContain(`\`--${o}\``);
      }
    });

    test("the default output: cdp reads only --output, so the profile's output and CDP_DEFAULT_OUTPUT are a difference", () => {
      // cdpcli/clidriver.py: `output = parsed_globals.output`, `"json"` when None; nothing else is read.
      expect(same).not.toMatch(/form_factor`, `output`/);
      expect(differs).toMatch(/ignores a profile's `output` setting and\s+`CDP_DEFAULT_OUTPUT`/);
    });

    test('an empty answer prints nothing in both (never `{}`)', () => {
      expect(text).not.toMatch(/empty answer as `\{\}`/);
      expect(differs).toMatch(/empty\s+answer \(`\{\}`\) prints nothing in both/);
    });
  });

  describe("migrating.md's list of what the model has that cdp 0.9.158 lacks", () => {
    const START = '<!-- newer-than-cdp:';
    const END = '<!-- newer-than-cdp: end -->';
    const text = readFileSync(join(ROOT, 'docs', 'migrating.md'), 'utf8');
    const committed = text.slice(text.indexOf(START), text.indexOf(END) + END.length);
    let section = '';
    beforeAll(() => {
      const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'gen-docs.mjs'), '--newer-than-cdp'], { cwd: ROOT, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`gen-docs failed (run npm run build first): ${r.stderr}`);
      section = r.stdout.trimEnd();
    });
    /** The rows of the table under a bold heading that starts with `title`. */
    const rows = (title: string): string[] => {
      const from = section.indexOf(`**${title}`);
      const table = section.slice(from).split('\n\n')[1] ?? '';
      return table.split('\n').slice(2);
    };
    /** `cdp <service> <operation>` and a path, as a row of the generated tables shows them. */
    const row = (entry: string): [string, string] => {
      const [service = '', operation = '', path = ''] = entry.split(' ');
      return [`\`cdp ${service} ${kebab(operation)}\``, `\`${path}\``];
    };

    test('is what the model says (run `npm run docs` when this fails)', () => {
      expect(committed).toBe(section);
    });

    test("lists exactly what cdp 0.9.158's own models lack: the model's marks of where each field comes from are right", () => {
      for (const [title, pinned] of [
        ['Fields in answers', CDP_MODEL_LACKS.answers],
        ['Request fields', CDP_MODEL_LACKS.requests],
      ] as const) {
        const listed = rows(title);
        expect(listed).toHaveLength(pinned.length);
        for (const entry of pinned) {
          const [cdp, path] = row(entry);
          expect([entry, listed.some((r) => r.includes(cdp) && r.includes(path))]).toEqual([entry, true]);
        }
      }
      const operations = rows('Operations').join('\n');
      const commands = new Map(ops.map((op) => [`${op.service.name} ${op.name}`, op.commandId]));
      for (const entry of CDP_MODEL_LACKS.operations)
        expect([entry, operations.includes(`\`${commands.get(entry)}\``)]).toEqual([entry, true]);
      expect(operations.match(/`[a-z]+ [a-z -]+`/g)?.length).toBe(CDP_MODEL_LACKS.operations.length);
      for (const service of CDP_MODEL_LACKS.services) expect(operations).toContain(`the whole service (\`${service}\``);
    });
  });

  test('scripting.md documents every exit code', () => {
    const text = readFileSync(join(ROOT, 'docs', 'scripting.md'), 'utf8');
    for (const code of [0, 1, 2, 3, 4, 5, 6, 130]) expect(text).toMatch(new RegExp(`\\|\\s*\`?${code}\`?\\s*\\|`));
  });
});
