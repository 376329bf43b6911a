/**
 * docs/commands.md is generated from the model by scripts/gen-docs.mjs. This
 * regenerates it in memory (from the build, as `npm run docs` does) and fails
 * when the committed file is stale; it also checks the reference holds every
 * command with its summary, alias, API name and flags, and that the guides
 * link to files that exist.
 */
import { GLOBAL_FLAG_SPECS } from '../../src/lib/cli/flag-spec.js';
import { CDP_GLOBAL_OPTIONS } from '../helpers/cdp-reference.js';
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

  test('scripting.md documents every exit code', () => {
    const text = readFileSync(join(ROOT, 'docs', 'scripting.md'), 'utf8');
    for (const code of [0, 1, 2, 3, 4, 5, 6, 130]) expect(text).toMatch(new RegExp(`\\|\\s*\`?${code}\`?\\s*\\|`));
  });
});
