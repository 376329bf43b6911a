/** Running an emulator in the foreground, and parsing fault settings. */
import { consoleAddress, startInProcess, type StartOptions } from './control.js';
import type { FaultSettings } from './http/faults.js';

export function parseFaults(rate?: string, kinds?: string, latency?: string): FaultSettings | undefined {
  const r = rate === undefined ? 0 : Number(rate);
  const l = latency === undefined ? 0 : Number(latency);
  if (!(r >= 0 && r <= 1)) throw new Error('--fault-rate must be between 0 and 1');
  if (!(l >= 0)) throw new Error('--fault-latency must be 0 or more milliseconds');
  const k = (kinds ?? '503,429').split(',').map((s) => s.trim());
  for (const kind of k) if (!['503', '429', 'reset'].includes(kind)) throw new Error(`unknown fault kind "${kind}"; use 503, 429 or reset`);
  if (r === 0 && l === 0) return undefined;
  return { rate: r, latencyMs: l, kinds: k as FaultSettings['kinds'] };
}

/** Runs an emulator until SIGINT/SIGTERM; `ready` is called once it answers (its pid file written). */
export async function serve(opts: StartOptions, log: (line: string) => void, ready?: () => void): Promise<void> {
  const { emu, boot, stop } = await startInProcess({ ...opts, log });
  ready?.();
  log(
    `cdpctl emulator listening on http://localhost:${emu.port}/ (account ${boot.accountId}, data ${opts.dataDir}, time scale ${opts.timeScale})`,
  );
  log(
    `profile "${boot.profile}" ${boot.keyCreated ? 'written with a new access key' : 'updated'}${boot.empty ? ' (an empty account)' : ''}; try: cdpctl --profile ${boot.profile} iam users get`,
  );
  // The console's link carries its secret (console/secret.ts): shown to whoever started it (the log is 0600 in the data directory).
  log(`console: ${consoleAddress({ port: emu.port, consoleToken: emu.consoleToken })}`);
  await new Promise<void>((resolve) => {
    const done = (): void => void stop().then(resolve);
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}
