/**
 * The emulator as a process: `node dist/lib/emulator/main.js --data-dir D
 * --port P [--time-scale X] [--seed FILE] [--profile NAME] [--empty]
 * [--fault-rate R --fault-kinds 503,429,reset] [--fault-latency MS]`. `cdpctl emulator start --detach`
 * runs this. A start refused over bad input (a seed file, a data directory
 * it cannot read) prints `emulator refused: <why>` and exits 2.
 */
import { CdpError } from '../core/errors.js';
import { EXIT_REFUSED } from './control.js';
import { parseFaults, serve } from './serve.js';

const args = process.argv.slice(2);
const get = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const log = (line: string): void => void process.stdout.write(`${new Date().toISOString()} ${line}\n`);
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
  );
} catch (err) {
  if (err instanceof CdpError && err.kind === 'usage') {
    process.stderr.write(`emulator refused: ${err.message}\n`);
    process.exit(EXIT_REFUSED);
  }
  process.stderr.write(`emulator failed: ${(err as Error).message}\n`);
  process.exit(1);
}
