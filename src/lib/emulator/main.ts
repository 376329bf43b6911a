/**
 * The emulator as a process: `node dist/lib/emulator/main.js --data-dir D
 * --port P [--time-scale X] [--fault-rate R --fault-kinds 503,429,reset]
 * [--fault-latency MS]`. `cdpctl emulator start --detach` runs this.
 */
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
      faults: parseFaults(get('fault-rate'), get('fault-kinds'), get('fault-latency')),
    },
    log,
  );
} catch (err) {
  process.stderr.write(`emulator failed: ${(err as Error).message}\n`);
  process.exit(1);
}
