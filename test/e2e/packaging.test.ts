/**
 * The npm package as a user gets it: `npm pack` makes a tarball holding the
 * build (dist/, oclif.manifest.json, the .d.ts files) and nothing of the
 * sources or tests; `npm install -g --prefix` from it needs no TypeScript
 * build and pulls in no dev dependency; the installed `cdpctl` answers
 * --version and runs the emulator quick start; and a fresh TypeScript
 * project that installs it imports the library (`cdpctl`, `cdpctl/emulator`),
 * type-checks against its declarations and runs a script against an
 * emulator it starts. The installs work offline from the local npm cache.
 *
 * better-sqlite3's own install step (download a prebuilt binary, else
 * compile for minutes) is better-sqlite3's to test, and `npm ci` has just
 * run it on this machine: the installs here skip install scripts and take
 * its binary from this checkout, for the same node, when the versions match
 * (they compile it otherwise). cdpctl itself has no install script (checked
 * above).
 *
 * Packs with --ignore-scripts: `npm test` has just built, and rebuilding here
 * would rewrite dist/ under the other tests' feet.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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
  exports: Record<string, unknown>;
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

/** The environment npm runs in: the developer's (its cache, its npmrc), with the CA certificates scripts/test.mjs kept aside for it. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  if (env.CDPCTL_TEST_NPM_CA_CERTS) env.NODE_EXTRA_CA_CERTS = env.CDPCTL_TEST_NPM_CA_CERTS;
  return env;
}

const versionOf = (dir: string): string | undefined => {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
};

/**
 * Installs the tarball where `args` say, without install scripts, then gives
 * the installed better-sqlite3 this checkout's binary (see the top of this
 * file), or builds it when the versions differ.
 */
function installTarball(args: readonly string[], cwd: string, modules: string): void {
  // npm keeps the developer's HOME: its cache (so the install works offline) and npmrc (e.g. nodedir).
  const env = npmEnv();
  npm(['install', ...args, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd, env, timeout: 10 * 60_000 });
  const installed = join(modules, 'better-sqlite3');
  const ours = join(ROOT, 'node_modules', 'better-sqlite3');
  if (versionOf(installed) !== undefined && versionOf(installed) === versionOf(ours)) {
    cpSync(join(ours, 'build', 'Release', 'better_sqlite3.node'), join(installed, 'build', 'Release', 'better_sqlite3.node'));
  } else {
    npm(['rebuild', 'better-sqlite3'], { cwd: join(modules, '..'), env, timeout: 14 * 60_000 });
  }
}

describe('package.json', () => {
  test('has the fields the npm ecosystem expects', () => {
    expect(pkg.name).toBe('cdpctl');
    expect(pkg.bin).toEqual({ cdpctl: 'bin/run.js' });
    expect(pkg.license).toBe('Apache-2.0');
    expect(pkg.description.length).toBeGreaterThan(20);
    expect(pkg.keywords).toEqual(expect.arrayContaining(['cdp', 'cli']));
    expect(pkg.engines.node).toMatch(/^>=20/);
    // The library: two public entries, each with its types; nothing else importable.
    expect(pkg.exports).toEqual({
      '.': { types: './dist/lib/sdk/index.d.ts', import: './dist/lib/sdk/index.js' },
      './emulator': { types: './dist/lib/sdk/emulator.d.ts', import: './dist/lib/sdk/emulator.js' },
      './package.json': './package.json',
    });
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
        // The library's entries and their declarations.
        'dist/lib/sdk/index.js',
        'dist/lib/sdk/index.d.ts',
        'dist/lib/sdk/emulator.js',
        'dist/lib/sdk/emulator.d.ts',
        'dist/lib/sdk/services/iam.d.ts',
      ]),
    );
    expect(files.filter((f) => /^(src|test|scripts|bench|node_modules)\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts')))).toEqual(
      [],
    );
  });

  test(
    'installs with only node and npm, and runs --version and the emulator quick start',
    () => {
      const prefix = join(work, 'prefix');
      const home = join(work, 'home');
      mkdirSync(home, { recursive: true });
      const installed = join(prefix, 'lib', 'node_modules', 'cdpctl');
      installTarball(['-g', '--prefix', prefix], work, join(installed, 'node_modules'));
      const env: NodeJS.ProcessEnv = baseEnv(home);
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

  test(
    'a fresh TypeScript project imports the library from the tarball: types check, a script runs against its emulator',
    () => {
      const project = join(work, 'project');
      mkdirSync(project, { recursive: true });
      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name: 'uses-cdpctl', version: '1.0.0', private: true, type: 'module' }),
      );
      installTarball([], project, join(project, 'node_modules'));
      // A TypeScript project on node has node's types; the library's declarations need no other package's.
      const nodeTypes = versionOf(join(ROOT, 'node_modules', '@types', 'node'));
      npm(['install', '--prefer-offline', '--no-audit', '--no-fund', `@types/node@${nodeTypes}`], { cwd: project, env: npmEnv() });
      writeFileSync(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            outDir: 'out',
            types: ['node'],
          },
          include: ['main.ts'],
        }),
      );
      writeFileSync(
        join(project, 'main.ts'),
        [
          "import { CdpClient, ServiceError, type iam } from 'cdpctl';",
          "import { startEmulator } from 'cdpctl/emulator';",
          'const emu = await startEmulator();',
          'try {',
          '  const client: CdpClient = emu.client;',
          '  const me: iam.GetUserResponse = await client.iam.getUser({});',
          '  const groups: string[] = [];',
          "  await client.iam.createGroup({ groupName: 'from-the-tarball' });",
          '  for await (const g of client.iam.paginate.listGroups({}, { pageSize: 1 })) groups.push(g.groupName);',
          "  const missing = await client.iam.getUser({ userId: 'nobody' }).catch((e: unknown) => e);",
          '  const code = missing instanceof ServiceError ? missing.code : String(missing);',
          "  const lake = await client.opdb.wait.createDatabase({ environmentName: 'sales-env', databaseName: 'typed' });",
          '  console.log(JSON.stringify({ email: me.user.email, groups, code, state: lake.state }));',
          '} finally {',
          '  await emu.stop();',
          '}',
          '',
        ].join('\n'),
      );
      const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
      const compiled = spawnSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8' });
      expect(compiled.stdout + compiled.stderr).toBe('');
      expect(compiled.status).toBe(0);
      const ran = spawnSync(process.execPath, [join(project, 'out', 'main.js')], { cwd: project, encoding: 'utf8', timeout: 60_000 });
      expect(ran.stderr).toBe('');
      expect(JSON.parse(ran.stdout)).toEqual({
        email: expect.any(String),
        groups: ['from-the-tarball'],
        code: 'NOT_FOUND',
        state: 'AVAILABLE',
      });
      // The declarations type the requests: a wrong field type does not compile.
      writeFileSync(join(project, 'main.ts'), "import { CdpClient } from 'cdpctl';\nawait new CdpClient().iam.getUser({ userId: 42 });\n");
      const wrong = spawnSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8' });
      expect(wrong.status).not.toBe(0);
      expect(wrong.stdout).toMatch(/main\.ts.*TS2322/);
    },
    15 * 60_000,
  );
});
