/**
 * bin/run.js compiles the fast path with V8's code cache, kept per node
 * version in the user's cache directory (docs/performance.md). Whatever
 * state that cache is in, a run gives the same answer and says nothing
 * about it: made on the first run, added to by the next few (each
 * compiles what it runs), then taken as it is; made again when stale or
 * broken, left alone where it cannot be written or where another user
 * could write.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, tempHome, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;

beforeAll(async () => {
  em = await startEmulator();
}, 60_000);

afterAll(async () => {
  await em?.stop();
});

/** Where a run with XDG_CACHE_HOME=base keeps its compiled code. */
const v8Dir = (base: string): string => join(base, 'cdpctl', 'v8', `${process.version}-${process.arch}`);

/** A signed call run as a process, with its cache under `base`; its output must be the users, and stderr empty. */
async function call(base: string): Promise<void> {
  const r = await em.cli(['iam', 'users', 'list', '--max-items', '1'], { env: { XDG_CACHE_HOME: base } });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ users: [expect.objectContaining({ userId: expect.any(String) })] });
}

const callCache = (dir: string): string => {
  const names = readdirSync(dir).filter((n) => n.includes('-fast-run-call-'));
  expect(names).toHaveLength(1);
  return join(dir, names[0] ?? '');
};

describe('the compile cache', () => {
  test('a first call makes it (only this user can read or write it); four more add to it; then it is taken as it is', async () => {
    const base = join(tempHome('cdpctl-cache-'), 'cache');
    await call(base);
    const dir = v8Dir(base);
    const file = callCache(dir);
    expect(statSync(dir).mode & 0o077).toBe(0);
    expect(statSync(file).mode & 0o077).toBe(0);
    const generations = [readFileSync(file)[0]];
    for (let i = 0; i < 4; i++) {
      await call(base);
      generations.push(readFileSync(file)[0]);
    }
    expect(generations).toEqual([1, 2, 3, 4, 4]);
    const bytes = readFileSync(file);
    await call(base);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  test('a broken cache is refused and made again; those of an earlier build of the file, or of a file now gone, go', async () => {
    const base = join(tempHome('cdpctl-cache-'), 'cache');
    await call(base);
    const dir = v8Dir(base);
    const file = callCache(dir);
    writeFileSync(file, Buffer.alloc(4096, 7));
    const earlier = file.replace(/-call-\d+-\d+$/, '-call-1-2');
    writeFileSync(earlier, 'an earlier build');
    const gone = file.replace(/-fast-run-call-/, '-chunk-GONE1234-call-');
    writeFileSync(gone, 'a chunk of an earlier build');
    await call(base);
    expect(readFileSync(file)[0]).toBe(1);
    expect(readFileSync(file).equals(Buffer.alloc(4096, 7))).toBe(false);
    expect(existsSync(earlier)).toBe(false);
    expect(existsSync(gone)).toBe(false);
  });

  test('no cache where it cannot be written: the call runs as ever', async () => {
    const home = tempHome('cdpctl-cache-');
    const notADir = join(home, 'cache');
    writeFileSync(notADir, 'a file where the cache would go');
    await call(notADir);
    expect(readFileSync(notADir, 'utf8')).toBe('a file where the cache would go');
  });

  test('a cache directory others can write to is neither read nor written', async () => {
    const base = join(tempHome('cdpctl-cache-'), 'cache');
    const dir = v8Dir(base);
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    await call(base);
    expect(readdirSync(dir)).toEqual([]);
  });
});
