/**
 * A 200 MB asset upload streams: the CLI's peak resident memory stays far
 * below the file size, and the emulator stores every byte. Peak RSS comes
 * from /usr/bin/time -v when it is there, else from sampling VmHWM in
 * /proc/<pid>/status while the CLI runs.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readdirSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, baseEnv, environmentCrns, startEmulator, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;
const SIZE = 200 * 1024 * 1024;
let ENV = '';
const REQUEST = 'crn:cdp:df:us-west-1:acct:deploymentRequest:big';
const TIME = '/usr/bin/time';

beforeAll(async () => {
  em = await startEmulator();
  ENV = (await environmentCrns(em))['sales-env'] ?? '';
  // The request becomes known to the workload service once its details are read.
  await em.json(['dataflow', 'deployments', 'request-details', '--environment-crn', ENV, '--deployment-request-crn', REQUEST]);
});

afterAll(async () => {
  await em?.stop();
});

/** Writes `size` bytes of a repeating non-zero pattern without holding them in memory. */
function bigFile(path: string, size: number): void {
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31 + 7) & 0xff;
  const fd = openSync(path, 'w');
  try {
    for (let done = 0; done < size; done += chunk.length) writeSync(fd, chunk, 0, Math.min(chunk.length, size - done));
  } finally {
    closeSync(fd);
  }
}

interface Measured {
  code: number;
  stderr: string;
  peakKb: number;
}

function runMeasured(args: readonly string[]): Promise<Measured> {
  const env = baseEnv(em.home) as NodeJS.ProcessEnv;
  const useTime = existsSync(TIME);
  const cmd = useTime ? TIME : process.execPath;
  const argv = useTime ? ['-v', process.execPath, BIN, ...args] : [BIN, ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let sampled = 0;
    child.stdout.resume();
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = useTime
      ? undefined
      : setInterval(() => {
          try {
            const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
            if (m) sampled = Math.max(sampled, Number(m[1]));
          } catch {
            // the process has gone
          }
        }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      if (timer) clearInterval(timer);
      const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      resolve({ code: code ?? 1, stderr, peakKb: m ? Number(m[1]) : sampled });
    });
  });
}

describe('large uploads', () => {
  test('a 200 MB asset streams with flat memory', async () => {
    const file = join(em.home, 'big-asset.bin');
    bigFile(file, SIZE);
    const args = [
      'dataflow',
      'assets',
      'upload',
      '--environment-crn',
      ENV,
      '--deployment-request-crn',
      REQUEST,
      '--parameter-group',
      'files',
      '--parameter-name',
      'blob',
      '--file-path',
      file,
      '--profile',
      'emulator',
    ];
    const r = await runMeasured(args);
    expect(r.code).toBe(0);
    expect(r.peakKb).toBeGreaterThan(0);
    // Report the figure for the record, then hold it far below the file size.
    process.stdout.write(`upload of ${SIZE / 1024 / 1024} MB: CLI peak RSS ${(r.peakKb / 1024).toFixed(1)} MB\n`);
    expect(r.peakKb * 1024).toBeLessThan(SIZE / 2);
    // The emulator kept all of it.
    const dir = join(em.dataDir, 'uploads');
    const sizes = readdirSync(dir).map((f) => statSync(join(dir, f)).size);
    expect(sizes).toContain(SIZE);
  }, 120_000);
});
