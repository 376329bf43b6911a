/**
 * The emulator as a process: `node dist/lib/emulator/main.js --data-dir D
 * --port P [--time-scale X] [--seed FILE] [--profile NAME] [--empty]
 * [--fault-rate R --fault-kinds 503,429,reset] [--fault-latency MS]
 * [--ready-fd N]`. `cdpctl emulator start --detach` runs this. A start
 * refused over bad input (a seed file, a data directory it cannot read)
 * prints `emulator refused: <why>` and exits 2. With `--ready-fd`, a line
 * is written to that descriptor (a pipe from the starting process) once the
 * emulator answers, and the descriptor closed: the starter need not poll.
 */
import { closeSync, writeSync } from 'node:fs';
import { CdpError } from '../core/errors.js';
import { EXIT_REFUSED } from './control.js';
import { parseFaults, serve } from './serve.js';

const args = process.argv.slice(2);
const get = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const log = (line: string): void => void process.stdout.write(`${new Date().toISOString()} ${line}\n`);
const readyFd = Number(get('ready-fd'));
const ready = (): void => {
  if (!Number.isInteger(readyFd)) return;
  try {
    writeSync(readyFd, 'ready\n');
    closeSync(readyFd);
  } catch {
    // The starter stopped waiting (it gave up, or was killed): it polls the pid file and health anyway.
  }
};
try {
  await serve(
    {
      dataDir: get('data-dir') ?? '',
      port: Number(get('port') ?? 0),
      timeScale: Number(get('time-scale') ?? 1),
      seed: get('seed'),
      profile: get('profile'),
      empty: args.includes('--empty'),
      faults: parseFaults(get('fault-rate'), get('fault-kinds'), get('fault-latency')),
    },
    log,
    ready,
  );
} catch (err) {
  if (err instanceof CdpError && err.kind === 'usage') {
    process.stderr.write(`emulator refused: ${err.message}\n`);
    process.exit(EXIT_REFUSED);
  }
  process.stderr.write(`emulator failed: ${(err as Error).message}\n`);
  process.exit(1);
}
