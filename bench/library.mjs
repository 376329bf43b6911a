// The library's signed call (issue 30): with `cdpctl` already loaded, one
// signed call to an emulator started by `cdpctl/emulator` in the same
// process, against the same round trip made with node's own http (an
// unsigned GET of the emulator's health, no JSON checks) in the same run,
// and a node process start (`node -e ""`) for scale. Run on its own
// (`node bench/library.mjs`) or as the `library` group of bench/run.mjs.
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Milliseconds per call of `fn`, as the median of `rounds` batches of `batch` calls one after another. */
async function perCall(fn, { rounds = 15, batch = 200 } = {}) {
  for (let i = 0; i < batch; i++) await fn(); // warm: JIT, keep-alive connection, kept documents
  const each = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) await fn();
    each.push(Number(process.hrtime.bigint() - t0) / 1e6 / batch);
  }
  return median(each);
}

function nodeStart(runs = 15) {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.NODE_OPTIONS;
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', ''], { env, stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(times);
}

/** Rows for the benchmark table (bench/run.mjs's format). */
export async function libraryRows() {
  const { startEmulator } = await import(new URL('dist/lib/sdk/emulator.js', `file://${ROOT}`).href);
  const emu = await startEmulator();
  try {
    const { Agent } = await import('node:http');
    const agent = new Agent({ keepAlive: true });
    const health = () =>
      new Promise((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port: emu.port, path: '/_emulator/health', agent, headers: { host: 'localhost' } },
          (res) => {
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        req.end();
      });
    const signed = await perCall(() => emu.client.iam.getUser({}));
    const raw = await perCall(health);
    agent.destroy();
    const start = nodeStart();
    return [
      {
        measure: 'library: a signed call (iam getUser) to an in-process emulator, client loaded',
        value: `${signed.toFixed(2)} ms a call`,
        baseline: `node http GET of its health ${raw.toFixed(2)} ms; node -e "" ${start.toFixed(1)} ms`,
        ratio: `${(signed / raw).toFixed(1)}x the bare round trip; ${((signed / start) * 100).toFixed(1)}% of a node start`,
        target: '≤ 2 ms',
        met: signed <= 2 ? 'yes' : 'no',
      },
    ];
  } finally {
    await emu.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const r of await libraryRows())
    console.log(`${r.measure}: ${r.value} (baseline ${r.baseline}; ${r.ratio}; target ${r.target}: ${r.met})`);
}
