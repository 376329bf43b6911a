/**
 * What `import('cdpctl')` loads, by the package's own name as a user's
 * script resolves it (the `exports` map): no oclif and nothing of the
 * command line; and only the two public entries can be imported.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../../helpers/cli.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cdpctl-loading-'));
  // A resolve hook that writes down every module the import loads (hooks run on a thread of their own).
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(join(dir, 'loaded.txt'))}, r.url + '\\n'); return r; }\n`,
  );
  writeFileSync(
    join(dir, 'register.mjs'),
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
  );
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs an ES module script from the package root, where `cdpctl` names this package. */
function script(code: string): { status: number | null; stdout: string; stderr: string; loaded: string[] } {
  rmSync(join(dir, 'loaded.txt'), { force: true });
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', code], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  let loaded: string[] = [];
  try {
    loaded = readFileSync(join(dir, 'loaded.txt'), 'utf8').split('\n').filter(Boolean);
  } catch {
    loaded = [];
  }
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, loaded };
}

describe('import("cdpctl")', () => {
  test('loads the built client and no oclif module, and nothing of the command line', () => {
    const r = script(
      `const m = await import('cdpctl'); const c = new m.CdpClient({ env: {} }); console.log(typeof c.iam.getUser, typeof c.iam.paginate.listUsers, typeof m.ServiceError);`,
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('function function function');
    expect(r.loaded.some((u) => u.includes('/dist/lib/sdk/index.js'))).toBe(true);
    expect(r.loaded.filter((u) => u.includes('@oclif') || u.includes('/dist/lib/cli/') || u.includes('/dist/commands/'))).toEqual([]);
  });

  test('cdpctl/emulator is the other entry; internal modules are not importable', () => {
    const ok = script(`const m = await import('cdpctl/emulator'); console.log(typeof m.startEmulator);`);
    expect(ok.stdout.trim()).toBe('function');
    expect(ok.loaded.filter((u) => u.includes('@oclif'))).toEqual([]);
    const internal = script(`await import('cdpctl/dist/lib/core/client.js');`);
    expect(internal.status).not.toBe(0);
    expect(internal.stderr).toMatch(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });
});
