/**
 * Help through the real binary. The fast path (no oclif) and oclif's help
 * class print the same bytes, because both call the one renderer
 * (src/lib/cli/help.ts); the fast path loads no oclif for any form of help
 * (checked by what node loaded, not by timing); the build's help index is
 * current; cdpctl's own commands keep oclif's help, without the summary
 * repeated; words that name nothing are a usage error. The help pages the
 * build writes (dist/help, at a pipe's 80 columns) are what the renderer
 * prints, and bin/run.js prints them without loading the fast path.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { helpBook, HELP_PAGE_WIDTH, type HelpIndex } from '../../src/lib/cli/help.js';
import { loadAllServices } from '../../src/lib/model/index.js';
import { ROOT, run, runCli, tempHome } from '../helpers/cli.js';

let home: string;
let probe: string;

beforeAll(() => {
  home = tempHome('cdpctl-help-');
  // Preloaded into the CLI: says on exit whether @oclif/core was loaded (it is CommonJS, so require.cache has it).
  probe = join(home, 'probe.cjs');
  writeFileSync(
    probe,
    "process.on('exit', () => process.stderr.write(Object.keys(require.cache).some((k) => k.includes('@oclif/core')) ? 'PROBE: oclif loaded\\n' : 'PROBE: no oclif\\n'));\n",
  );
});

afterAll(() => rmSync(home, { recursive: true, force: true }));

const FORMS: readonly string[][] = [
  [],
  ['--help'],
  ['-h'],
  ['help'],
  ['iam'],
  ['iam', '--help'],
  ['iam', 'help'],
  ['iam', 'users', '--help'],
  ['help', 'iam', 'users'],
  ['iam', 'users', 'create', '--help'],
  ['iam', 'users', 'create', '-h', '--profile', 'nobody'],
  ['iam', 'list-users', 'help'],
  ['cloudprivatelinks', '--help'],
  ['dataflow', 'deployments', 'terminate', '--help'],
  ['datalake', 'create', 'aws', '--help'],
  ['environments', 'credentials', '--help'],
  ['emulator', '--help'],
  ['auth', '--help'],
];

describe('one renderer, two paths', () => {
  test.each(FORMS.map((f) => [f.join(' ') || '(nothing)', f]))(
    'cdpctl %s: the fast path and oclif print the same bytes',
    async (_, form) => {
      const fast = await runCli(form as string[], { home });
      const oclif = await run(form as string[], { home, env: { CDPCTL_NO_FAST_PATH: '1' } });
      expect(fast.code).toBe(0);
      expect(oclif.code).toBe(0);
      expect(fast.stderr).toBe('');
      expect(fast.stdout.length).toBeGreaterThan(100);
      expect(fast.stdout).toBe(oclif.stdout);
    },
  );

  test('at another width too ($COLUMNS)', async () => {
    for (const form of [['--help'], ['iam', 'users', 'create', '--help']]) {
      const fast = await runCli(form, { home, env: { COLUMNS: '100' } });
      const oclif = await run(form, { home, env: { COLUMNS: '100', CDPCTL_NO_FAST_PATH: '1' } });
      expect(fast.stdout).toBe(oclif.stdout);
      expect(Math.max(...fast.stdout.split('\n').map((l) => l.length))).toBeGreaterThan(80);
    }
  });

  test('help the build wrote down (dist/help) is printed without even the fast path; at another width it is rendered', async () => {
    const probeFiles = join(home, 'probe-files.cjs');
    writeFileSync(
      probeFiles,
      "process.on('exit', () => require('node:fs').writeSync(2, 'FILES ' + JSON.stringify(Object.keys(require.cache)) + '\\n'));\n",
    );
    const files = (stderr: string): string[] => JSON.parse(stderr.slice(stderr.indexOf('FILES ') + 6)) as string[];
    const fastFiles = (stderr: string): string[] => files(stderr).filter((f) => f.includes(join('dist', 'fast')));
    for (const form of [
      ['iam', 'users', 'create', '--help'],
      ['iam', 'list-users', 'help'],
      ['help', 'iam', 'users'],
      ['dw', '-h'],
    ]) {
      const written = await run(form, { home, env: { NODE_OPTIONS: `--require ${probeFiles}` } });
      expect({ form, fast: fastFiles(written.stderr) }).toEqual({ form, fast: [] });
    }
    const rendered = await run(['iam', 'users', 'create', '--help'], {
      home,
      env: { NODE_OPTIONS: `--require ${probeFiles}`, COLUMNS: '100' },
    });
    expect(fastFiles(rendered.stderr).length).toBeGreaterThan(0);
  });

  test('help loads no oclif on the fast path; the oclif path does (the probe sees it)', async () => {
    for (const form of FORMS) {
      const r = await run(form as string[], { home, env: { NODE_OPTIONS: `--require ${probe}` } });
      expect({ form, probe: r.stderr.trim() }).toEqual({ form, probe: 'PROBE: no oclif' });
    }
    const slow = await run(['--help'], { home, env: { NODE_OPTIONS: `--require ${probe}`, CDPCTL_NO_FAST_PATH: '1' } });
    expect(slow.stderr.trim()).toBe('PROBE: oclif loaded');
  });
});

describe('what the help says', () => {
  test("the root lists the services and cdpctl's own commands", async () => {
    const r = await runCli(['--help'], { home });
    for (const id of ['iam', 'datalake', 'api', 'configure', 'configure set', 'emulator start', 'login', 'logout', 'auth status'])
      expect(r.stdout).toMatch(new RegExp(`^ {2}${id} {2,}\\S`, 'm'));
    expect(r.stdout).toContain('GLOBAL FLAGS');
  });

  test('an own command keeps oclif help: summary once, USAGE never breaks a flag from its value', async () => {
    const r = await run(['configure', '--help'], { home, env: { COLUMNS: '60' } });
    expect(r.code).toBe(0);
    expect(r.stdout.split('Set up a credential profile interactively.').length).toBe(2);
    expect(r.stdout).toContain('DESCRIPTION\n  Asks for the access key ID');
    const login = await run(['login', '--help'], { home, env: { COLUMNS: '60' } });
    const usage = login.stdout.slice(login.stdout.indexOf('USAGE'), login.stdout.indexOf('\n\n', login.stdout.indexOf('USAGE')));
    for (const line of usage.split('\n').slice(1)) {
      const open = (line.match(/\[/g) ?? []).length;
      const close = (line.match(/\]/g) ?? []).length;
      expect({ line, balanced: open === close }).toEqual({ line, balanced: true });
    }
  });

  test('words that name nothing are a usage error (exit 2), on both paths', async () => {
    for (const env of [{}, { CDPCTL_NO_FAST_PATH: '1' }]) {
      const r = await run(['iam', 'usrs', '--help'], { home, env });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('"iam usrs" is not a cdpctl command');
      expect(r.stdout).toBe('');
      // A global option's value before the words is not one of them.
      const after = await run(['--profile', 'ops', 'iam', 'usrs', 'list', '--help'], { home, env });
      expect(after.code).toBe(2);
      expect(after.stderr).toContain('"iam usrs list" is not a cdpctl command (did you mean "iam users list"?)');
    }
  });
});

describe('the help index and pages', () => {
  test('dist/help/<topic>.json hold the pages the renderer prints now, at 80 columns (rebuild when this fails)', async () => {
    const index = JSON.parse(readFileSync(join(ROOT, 'dist', 'help-index.json'), 'utf8')) as HelpIndex;
    for (const service of await loadAllServices()) {
      const book = await helpBook(service, { bin: 'cdpctl', width: HELP_PAGE_WIDTH, index: () => index });
      expect(Object.keys(book.index).length).toBeGreaterThan(0);
      const written = JSON.parse(readFileSync(join(ROOT, 'dist', 'help', `${service.topic}.json`), 'utf8')) as unknown;
      expect({ topic: service.topic, book: written }).toEqual({ topic: service.topic, book });
    }
  });

  test('dist/help-index.json is what the model and the commands say now (rebuild when this fails)', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'manifest.mjs'), '--help-index'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(readFileSync(join(ROOT, 'dist', 'help-index.json'), 'utf8')));
  });
});
