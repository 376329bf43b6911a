/**
 * The npm package as a user gets it: `npm pack` makes a tarball holding the
 * build (dist/, oclif.manifest.json) and nothing of the sources or tests;
 * `npm install -g --prefix` from it needs no TypeScript build and pulls in no
 * dev dependency; the installed `cdpctl` answers --version and runs the
 * emulator quick start. One install (better-sqlite3 may compile from source,
 * a few minutes); it works offline from the local npm cache.
 *
 * Packs with --ignore-scripts: `npm test` has just built, and rebuilding here
 * would rewrite dist/ under the other tests' feet.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, baseEnv } from '../helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  files: string[];
  engines: Record<string, string>;
  license: string;
  description: string;
  keywords: string[];
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};

const skip = process.env.CDPCTL_SKIP_PACKAGING === '1';
const maybe = skip ? describe.skip : describe;

let work: string;
let tarball: string;
let files: string[] = [];

const npm = (args: readonly string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number }): string =>
  execFileSync('npm', [...args], {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    encoding: 'utf8',
    timeout: opts.timeout ?? 120_000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });

describe('package.json', () => {
  test('has the fields the npm ecosystem expects', () => {
    expect(pkg.name).toBe('cdpctl');
    expect(pkg.bin).toEqual({ cdpctl: 'bin/run.js' });
    expect(pkg.license).toBe('Apache-2.0');
    expect(pkg.description.length).toBeGreaterThan(20);
    expect(pkg.keywords).toEqual(expect.arrayContaining(['cdp', 'cli']));
    expect(pkg.engines.node).toMatch(/^>=20/);
    expect(pkg.files).toEqual(expect.arrayContaining(['dist', 'oclif.manifest.json', '.oclifrc.json', 'bin/run.js']));
    // The build runs when packing and on a clone's `npm ci`, never on a user's install.
    expect(pkg.scripts.prepare).toContain('build');
    for (const script of ['install', 'preinstall', 'postinstall']) expect(pkg.scripts[script]).toBeUndefined();
  });

  test('runtime code imports no dev dependency', () => {
    const dist = join(ROOT, 'dist');
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.c?js$/.test(p)) {
          const text = readFileSync(p, 'utf8');
          for (const dev of Object.keys(pkg.devDependencies)) {
            if (dev.startsWith('@types/')) continue;
            if (new RegExp(`(from\\s+|import\\(|require\\()\\s*['"]${dev.replace(/[/.]/g, '\\$&')}(/[^'"]*)?['"]`).test(text))
              offenders.push(`${p}: ${dev}`);
          }
        }
      }
    };
    walk(dist);
    expect(offenders).toEqual([]);
  });
});

maybe('npm pack and a global install from the tarball', () => {
  beforeAll(() => {
    if (!existsSync(join(ROOT, 'dist', 'command-map.js')) || !existsSync(join(ROOT, 'oclif.manifest.json'))) {
      throw new Error('run `npm run build` first (npm test does)');
    }
    work = mkdtempSync(join(tmpdir(), 'cdpctl-pack-'));
    const out = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT });
    const info = JSON.parse(out.slice(out.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
    tarball = join(work, info[0]?.filename ?? '');
    files = (info[0]?.files ?? []).map((f) => f.path);
  });

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('the tarball holds the build and no sources or tests', () => {
    expect(existsSync(tarball)).toBe(true);
    expect(files).toEqual(
      expect.arrayContaining([
        'bin/run.js',
        // bin/run.js is CommonJS by this file; without it node would read it as an ES module and fail.
        'bin/package.json',
        'dist/fast/fast-run.cjs',
        'package.json',
        'oclif.manifest.json',
        '.oclifrc.json',
        'README.md',
        'dist/command-map.js',
        'dist/lib/cli/operation-command.js',
        'dist/lib/model/index.js',
        'dist/lib/emulator/server.js',
      ]),
    );
    expect(files.filter((f) => /^(src|test|scripts|bench|node_modules)\//.test(f) || f.endsWith('.ts'))).toEqual([]);
  });

  test(
    'installs with only node and npm, and runs --version and the emulator quick start',
    () => {
      const prefix = join(work, 'prefix');
      const home = join(work, 'home');
      mkdirSync(home, { recursive: true });
      // npm keeps the developer's HOME: its cache (so the install works offline) and npmrc (e.g. nodedir).
      const npmEnv: NodeJS.ProcessEnv = { ...process.env };
      delete npmEnv.NODE_OPTIONS;
      npm(['install', '-g', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', tarball], {
        cwd: work,
        env: npmEnv,
        timeout: 14 * 60_000,
      });
      const env: NodeJS.ProcessEnv = baseEnv(home);
      const installed = join(prefix, 'lib', 'node_modules', 'cdpctl');
      // No dev dependency anywhere in the installed tree.
      const present = new Set<string>();
      const collect = (dir: string): void => {
        if (!existsSync(dir)) return;
        for (const name of readdirSync(dir)) {
          if (name.startsWith('@')) for (const sub of readdirSync(join(dir, name))) present.add(`${name}/${sub}`);
          else present.add(name);
        }
      };
      collect(join(installed, 'node_modules'));
      const devOnly = Object.keys(pkg.devDependencies).filter((d) => !(d in pkg.dependencies));
      expect(devOnly.filter((d) => present.has(d))).toEqual([]);
      expect(present.has('typescript')).toBe(false);
      expect(present.has('jest')).toBe(false);

      const bin = join(prefix, 'bin', 'cdpctl');
      const cdpctl = (args: readonly string[]): { code: number; stdout: string; stderr: string } => {
        const r = spawnSync(bin, args, { cwd: work, env, encoding: 'utf8', timeout: 60_000 });
        return { code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr };
      };
      const version = cdpctl(['--version']);
      expect(version.code).toBe(0);
      expect(version.stdout).toContain(`cdpctl/${pkg.version}`);

      const help = cdpctl(['iam', 'users', 'create', '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('API: iam createUser');

      const dataDir = join(work, 'emu');
      const started = cdpctl(['emulator', 'start', '--detach', '--port', '0', '--data-dir', dataDir]);
      expect(started).toMatchObject({ code: 0 });
      try {
        const me = cdpctl(['--profile', 'emulator', 'iam', 'users', 'get']);
        expect(me.stderr).toBe('');
        expect(me.code).toBe(0);
        expect(JSON.parse(me.stdout)).toMatchObject({ user: { email: expect.any(String) } });
      } finally {
        cdpctl(['emulator', 'stop', '--data-dir', dataDir]);
      }
    },
    15 * 60_000,
  );
});
