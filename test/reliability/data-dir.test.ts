/**
 * The emulator's files on a shared machine (a CI runner whose data
 * directories sit under a shared /tmp, other users' processes beside it),
 * through the real binary:
 *
 * - every path the emulator stores or reads back (a flow version's, an
 *   asset's, a reporting task's `storedAt`) names a file of its own uploads
 *   directory: `emulator import` refuses an export that names any other
 *   (exit 2, as it refuses a duplicate document or an upload named `..`),
 *   and a state that names one anyway reads it as gone and deletes nothing;
 * - links planted in a data directory (emulator.log, requests.log, uploads)
 *   are refused, never appended to, chmodded or deleted through;
 * - a data directory of another user, or one others can write, is refused;
 * - `emulator export --file` does not write through another user's link;
 * - `emulator stop` signals only a process that proves it is the emulator;
 * - FIFOs in the running list or as instance.json, and a port that drips
 *   its health answer, do not hang `status` or `start`.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { environmentCrns, FAST_WAIT, run, startEmulator, startEmulatorProcess, tempHome, type TestEmulator } from '../helpers/cli.js';

const mode = (path: string): number => statSync(path).mode & 0o777;
const asRoot = process.getuid?.() === 0;
/** Tests that must make files of another user (chown) run as root, as CI containers do; elsewhere they are skipped. */
const testAsRoot = asRoot ? test : test.skip;
const NOBODY = 65534;

const emulator = (home: string, verb: string, ...more: string[]) => run(['emulator', verb, ...more], { home, timeoutMs: 30_000 });

/** A loopback server answering every request with `answer`; closed by the test. */
async function server(answer: (res: import('node:http').ServerResponse) => void): Promise<{ port: number; close(): Promise<void> }> {
  const s: Server = createServer((req, res) => {
    req.resume();
    answer(res);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const addr = s.address();
  return {
    port: typeof addr === 'object' && addr ? addr.port : 0,
    close: () =>
      new Promise<void>((r) => {
        s.close(() => r());
        s.closeAllConnections();
      }),
  };
}

/** An export of an empty state with these uploads, written in `home`; its path. */
function stateFile(home: string, uploads: Record<string, string>): string {
  const path = join(home, 'state.json');
  const nowMs = Date.now();
  const now = new Date(nowMs).toISOString();
  const state = { format: 'cdpctl-emulator-state', version: 1, stateFormat: 2, exportedAt: now, meta: {}, documents: [], uploads };
  writeFileSync(path, JSON.stringify({ ...state, clock: { now, nowMs, paused: false } }));
  return path;
}

describe('stored paths', () => {
  let em: TestEmulator;
  let exported: { documents: Array<{ kind: string; id: string; body: unknown }>; uploads: Record<string, string> };
  let exportFile: string;
  let ENV = '';
  let DEPLOYMENT = '';
  const REQUEST = 'crn:cdp:df:us-west-1:acct:deploymentRequest:paths';

  beforeAll(async () => {
    em = await startEmulator();
    ENV = (await environmentCrns(em))['sales-env'] ?? '';
    const file = (name: string, text: string): string => {
      const path = join(em.home, name);
      writeFileSync(path, text);
      return path;
    };
    // A flow version, an asset and a reporting task, each keeping an uploaded file.
    const flow = await em.cli([
      'df',
      'flows',
      'import',
      '--file',
      file('flow.json', '{"flowContents":{"name":"probe"}}'),
      '--name',
      'probe',
    ]);
    expect(flow.code).toBe(0);
    await em.json(['dataflow', 'deployments', 'request-details', '--environment-crn', ENV, '--deployment-request-crn', REQUEST]);
    const asset = ['dataflow', 'assets', 'upload', '--environment-crn', ENV, '--deployment-request-crn', REQUEST];
    expect((await em.cli([...asset, '--parameter-group', 'g', '--parameter-name', 'p', '--file-path', file('a.bin', 'asset')])).code).toBe(
      0,
    );
    const made = 'crn:cdp:df:us-west-1:acct:deploymentRequest:paths-deployment';
    await em.json(['dataflow', 'deployments', 'request-details', '--environment-crn', ENV, '--deployment-request-crn', made]);
    const deployment = await em.json<{ deployment: { crn: string } }>([
      'dataflow',
      'deployments',
      'create',
      '--environment-crn',
      ENV,
      '--name',
      'paths',
      '--deployment-request-crn',
      made,
      '--configuration-version',
      '0',
      ...FAST_WAIT,
    ]);
    DEPLOYMENT = deployment.deployment.crn;
    const task = file('task.json', '{"name":"prometheus","type":"org.apache.nifi.reporting.ReportingTask"}');
    const inDeployment = ['--environment-crn', ENV, '--deployment-crn', DEPLOYMENT];
    expect((await em.cli(['dataflow', 'reporting-tasks', 'create', ...inDeployment, '--file-path', task])).code).toBe(0);
    exportFile = join(em.home, 'state.json');
    const r = await emulator(em.home, 'export', '--file', exportFile, '--data-dir', em.dataDir);
    expect(r.code).toBe(0);
    exported = JSON.parse(readFileSync(exportFile, 'utf8')) as typeof exported;
  });
  afterAll(async () => em?.stop());

  /** The export with every stored file's mark replaced by `path`. */
  const pointedAt = (path: string): string => JSON.stringify(exported).replace(/cdpctl-emulator-uploads:[A-Za-z0-9._-]+/g, path);

  test('emulator import refuses an export whose storedAt names a file of its own, with exit 2', async () => {
    const secret = join(em.home, 'secret.txt');
    writeFileSync(secret, 'TOPSECRET');
    expect(Object.keys(exported.uploads)).toHaveLength(3);
    const bad = join(em.home, 'bad.json');
    for (const path of [secret, `cdpctl-emulator-uploads:../../secret.txt`]) {
      writeFileSync(bad, pointedAt(path));
      // Into a stopped data directory and into the running emulator alike: nothing is imported.
      for (const dataDir of [join(em.home, 'other'), em.dataDir]) {
        const r = await emulator(em.home, 'import', '--file', bad, '--data-dir', dataDir);
        expect({ code: r.code, stderr: r.stderr }).toEqual({
          code: 2,
          stderr: expect.stringMatching(
            /^INVALID_INPUT: .*document \d+ \(.*\) keeps a file at "[^"]*secret\.txt"; an export names a stored file only as/,
          ),
        });
      }
    }
    expect(readFileSync(secret, 'utf8')).toBe('TOPSECRET');
  });

  test('a bad export is refused with exit 2, not INTERNAL_ERROR: a document twice, an upload named .. or .', async () => {
    const bad = join(em.home, 'bad.json');
    const cases: Array<[string, unknown, RegExp]> = [
      ['a document twice', { ...exported, documents: [...exported.documents, exported.documents[0]] }, /comes twice/],
      ['an upload named ..', { ...exported, uploads: { ...exported.uploads, '..': 'eA==' } }, /"uploads" must map plain file names/],
      ['an upload named .', { ...exported, uploads: { ...exported.uploads, '.': 'eA==' } }, /"uploads" must map plain file names/],
    ];
    for (const [what, state, message] of cases) {
      writeFileSync(bad, JSON.stringify(state));
      const r = await emulator(em.home, 'import', '--file', bad, '--data-dir', join(em.home, `other-${what.length}`));
      expect({ what, code: r.code, stderr: r.stderr }).toEqual({ what, code: 2, stderr: expect.stringMatching(message) });
    }
  });

  test('a state whose stored paths lead out of the uploads directory reads them as gone and deletes nothing', async () => {
    // A state the emulator wrote, then changed behind its back (a tampered or older state.db).
    const home = tempHome('cdpctl-paths-');
    const dataDir = join(home, 'emu');
    expect((await emulator(home, 'import', '--file', exportFile, '--data-dir', dataDir)).code).toBe(0);
    // Every storedAt pointed at a file of its own beside the data directory: a flow version's, an asset's, a reporting task's.
    const secret = (kind: string): string => join(home, `${kind}.secret`);
    const SECRET = '{"flowContents":"TOPSECRET"}';
    const db = new Database(join(dataDir, 'state.db'));
    const rows = db.prepare(`SELECT kind, id, body FROM docs WHERE body LIKE '%"storedAt"%'`).all() as Array<{
      kind: string;
      id: string;
      body: string;
    }>;
    expect(rows.map((r) => r.kind).sort()).toEqual(['df.flowVersion', 'dfworkload.asset', 'dfworkload.reportingTask']);
    for (const r of rows) writeFileSync(secret(r.kind), SECRET);
    for (const row of rows)
      db.prepare('UPDATE docs SET body = ? WHERE kind = ? AND id = ?').run(
        row.body.replace(/"storedAt":"[^"]*"/g, `"storedAt":${JSON.stringify(secret(row.kind))}`),
        row.kind,
        row.id,
      );
    db.close();
    const em2 = await startEmulatorProcess({ home });
    try {
      const flows = await em2.json<{ flows: Array<{ crn: string; name: string }> }>(['df', 'flows', 'list']);
      const probe = flows.flows.find((f) => f.name === 'probe')?.crn ?? '';
      const got = await em2.cli(['df', 'flow-versions', 'get', '--flow-version-crn', `${probe}/v.1`]);
      // Deleting what keeps the path deletes nothing out of the uploads directory.
      expect((await em2.cli(['df', 'flows', 'delete', '--flow-crn', probe, '--yes'])).code).toBe(0);
      const inDeployment = ['--environment-crn', ENV, '--deployment-crn', DEPLOYMENT];
      const tasks = await em2.json<{ reportingTasks: Array<{ crn: string }> }>(['dataflow', 'reporting-tasks', 'list', ...inDeployment]);
      expect(tasks.reportingTasks).toHaveLength(1);
      for (const t of tasks.reportingTasks)
        expect(
          (await em2.cli(['dataflow', 'reporting-tasks', 'delete', ...inDeployment, '--reporting-task-crn', t.crn, '--yes'])).code,
        ).toBe(0);
      // A new upload of the same parameter and name replaces the asset: the old one's file would go.
      const again = join(home, 'a.bin');
      writeFileSync(again, 'asset again');
      const upload = [
        'dataflow',
        'assets',
        'upload',
        '--environment-crn',
        ENV,
        '--deployment-request-crn',
        REQUEST,
        '--parameter-group',
        'g',
      ];
      expect((await em2.cli([...upload, '--parameter-name', 'p', '--file-path', again])).code).toBe(0);
      const left = rows.map((r) => [r.kind, existsSync(secret(r.kind)) ? readFileSync(secret(r.kind), 'utf8') : 'deleted']);
      expect(left).toEqual(rows.map((r) => [r.kind, SECRET]));
      expect(got.stdout + got.stderr).not.toContain('TOPSECRET');
      expect(got.stderr).toMatch(/no longer stored/);
    } finally {
      await em2.stop();
    }
  });
});

describe('links planted in a data directory', () => {
  test('emulator.log and requests.log that link elsewhere are refused; the file they point to is left as it was', async () => {
    for (const name of ['emulator.log', 'requests.log']) {
      const home = tempHome('cdpctl-link-');
      const dataDir = join(home, 'emu');
      mkdirSync(dataDir, { mode: 0o700 });
      const victim = join(home, 'victim.txt');
      writeFileSync(victim, 'keep\n', { mode: 0o644 });
      chmodSync(victim, 0o644);
      symlinkSync(victim, join(dataDir, name));
      const r = await emulator(home, 'start', '--detach', '--port', '0', '--data-dir', dataDir);
      if (r.code === 0) await emulator(home, 'stop', '--data-dir', dataDir);
      expect({ name, code: r.code, stderr: r.stderr }).toEqual({
        name,
        code: 2,
        stderr: expect.stringContaining(`UNSAFE_DATA_DIR: ${join(dataDir, name)} is a symbolic link`),
      });
      expect(readFileSync(victim, 'utf8')).toBe('keep\n');
      expect(mode(victim)).toBe(0o644);
    }
  });

  test('an uploads link makes emulator import delete nothing and chmod nothing where it points', async () => {
    const home = tempHome('cdpctl-uploads-');
    const dataDir = join(home, 'emu');
    mkdirSync(dataDir, { mode: 0o700 });
    const elsewhere = join(home, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o755 });
    chmodSync(elsewhere, 0o755);
    writeFileSync(join(elsewhere, 'precious'), 'keep');
    symlinkSync(elsewhere, join(dataDir, 'uploads'));
    const r = await emulator(home, 'import', '--file', stateFile(home, { 'x.bin': 'eA==' }), '--data-dir', dataDir);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: expect.stringContaining('is a symbolic link') });
    expect(readdirSync(elsewhere)).toEqual(['precious']);
    expect(mode(elsewhere)).toBe(0o755);
  });
});

describe('a data directory others can change', () => {
  testAsRoot('one that belongs to another user is refused at start, with what to do', async () => {
    const home = tempHome('cdpctl-foreign-');
    const dataDir = join(home, 'emu');
    mkdirSync(dataDir, { mode: 0o700 });
    chownSync(dataDir, NOBODY, NOBODY);
    const r = await emulator(home, 'start', '--detach', '--port', '0', '--data-dir', dataDir);
    if (r.code === 0) await emulator(home, 'stop', '--data-dir', dataDir);
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr: expect.stringMatching(
        new RegExp(`^UNSAFE_DATA_DIR: the data directory ${dataDir} belongs to another user \\(uid ${NOBODY}\\)`),
      ),
    });
    expect(readdirSync(dataDir)).toEqual([]);
  });

  test('one that others can write is refused (not quietly tightened)', async () => {
    const home = tempHome('cdpctl-open-');
    const dataDir = join(home, 'emu');
    mkdirSync(dataDir);
    chmodSync(dataDir, 0o777);
    const r = await emulator(home, 'start', '--detach', '--port', '0', '--data-dir', dataDir);
    if (r.code === 0) await emulator(home, 'stop', '--data-dir', dataDir);
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr: expect.stringContaining(`the data directory ${dataDir} can be written by other users (mode 0777); run: chmod 700 ${dataDir}`),
    });
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe('emulator export --file', () => {
  testAsRoot("does not write through another user's link in a shared directory", async () => {
    const home = tempHome('cdpctl-export-');
    const dataDir = join(home, 'emu');
    // A stopped emulator with some state: made by an import of an empty export.
    expect((await emulator(home, 'import', '--file', stateFile(home, {}), '--data-dir', dataDir)).code).toBe(0);
    const shared = join(home, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const target = join(home, 'target.txt');
    writeFileSync(target, 'keep');
    const planted = join(shared, 'state.json');
    symlinkSync(target, planted);
    lchownSync(planted, NOBODY, NOBODY);
    const r = await emulator(home, 'export', '--file', planted, '--data-dir', dataDir);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 2, stderr: expect.stringContaining('is a symbolic link of another user') });
    expect(readFileSync(target, 'utf8')).toBe('keep');
  });
});

describe('emulator stop', () => {
  test('signals no process that cannot prove it is the emulator, whatever pid the port claims', async () => {
    const home = tempHome('cdpctl-stop-');
    const dataDir = join(home, 'emu');
    mkdirSync(dataDir, { mode: 0o700 });
    const bystander = spawn('sleep', ['300'], { stdio: 'ignore' });
    const pid = bystander.pid ?? 0;
    const liar = await server((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, pid, port: 0, accountId: 'a', region: 'us-west-1', dataDir, timeScale: 1, stats: {} }));
    });
    try {
      writeFileSync(
        join(dataDir, 'emulator.json'),
        JSON.stringify({ pid, port: liar.port, adminToken: 'planted', accountId: 'a', startedAt: new Date().toISOString() }),
        { mode: 0o600 },
      );
      const r = await emulator(home, 'stop', '--data-dir', dataDir);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('no emulator is running');
      expect(bystander.exitCode).toBeNull();
      expect(bystander.signalCode).toBeNull();
      process.kill(pid, 0);
    } finally {
      bystander.kill('SIGKILL');
      await liar.close();
    }
  });
});

describe('planted files and slow answers', () => {
  test('a FIFO in ~/.cdpctl/running/ hangs neither emulator status nor emulator start', async () => {
    const home = tempHome('cdpctl-fifo-');
    mkdirSync(join(home, '.cdpctl', 'running'), { recursive: true, mode: 0o700 });
    execFileSync('mkfifo', [join(home, '.cdpctl', 'running', '0000000000000000.json')]);
    const status = await emulator(home, 'status');
    expect({ code: status.code, stderr: status.stderr }).toEqual({ code: 1, stderr: expect.stringContaining('no emulator is running') });
    const dataDir = join(home, 'emu');
    const started = await emulator(home, 'start', '--detach', '--port', '0', '--data-dir', dataDir);
    expect(started.code).toBe(0);
    expect((await emulator(home, 'stop', '--data-dir', dataDir)).code).toBe(0);
  });

  test('a FIFO as <data-dir>/instance.json does not hang start', async () => {
    const home = tempHome('cdpctl-fifo-');
    const dataDir = join(home, 'emu');
    mkdirSync(dataDir, { mode: 0o700 });
    execFileSync('mkfifo', [join(dataDir, 'instance.json')]);
    const started = await emulator(home, 'start', '--detach', '--port', '0', '--data-dir', dataDir);
    expect(started.code).toBe(0);
    expect((await emulator(home, 'stop', '--data-dir', dataDir)).code).toBe(0);
    expect(statSync(join(dataDir, 'instance.json')).isFile()).toBe(true);
  });

  test('a running entry whose port drips its answer a byte at a time does not hang status', async () => {
    const home = tempHome('cdpctl-drip-');
    const dataDir = join(home, 'emu');
    mkdirSync(dataDir, { mode: 0o700 });
    const timers = new Set<NodeJS.Timeout>();
    const drip = await server((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 500);
      timers.add(timer);
      res.on('close', () => clearInterval(timer));
    });
    try {
      // An entry naming a live process (this one) and a port that answers, slowly.
      writeFileSync(
        join(dataDir, 'emulator.json'),
        JSON.stringify({ pid: process.pid, port: drip.port, adminToken: 't', accountId: 'a', startedAt: new Date().toISOString() }),
        { mode: 0o600 },
      );
      mkdirSync(join(home, '.cdpctl', 'running'), { recursive: true, mode: 0o700 });
      writeFileSync(
        join(home, '.cdpctl', 'running', 'drip.json'),
        JSON.stringify({ dataDir, port: drip.port, pid: process.pid, profile: 'drip' }),
      );
      const status = await emulator(home, 'status');
      expect({ code: status.code, stderr: status.stderr }).toEqual({ code: 1, stderr: expect.stringContaining('no emulator is running') });
    } finally {
      for (const t of timers) clearInterval(t);
      await drip.close();
    }
  });
});
