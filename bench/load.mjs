#!/usr/bin/env node
// Load client for the emulator: C concurrent clients, each on its own
// kept-alive connection, sending signed requests (signed with
// dist/lib/core/signing.js, once per second) for a fixed time. Prints one JSON
// line: requests, seconds, req/s, p50/p99 latency in ms, errors.
//
//   node bench/load.mjs --home DIR --path /iam/getUser --body '{}' --clients 16 --seconds 5
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url);
const { parsePrivateKey, signRequest } = await import(new URL('dist/lib/core/signing.js', root).href);

const { values } = parseArgs({
  options: {
    home: { type: 'string' },
    path: { type: 'string', default: '/iam/getUser' },
    body: { type: 'string', default: '{}' },
    clients: { type: 'string', default: '16' },
    seconds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '1' },
  },
});

/** The `emulator` profile that `cdpctl emulator start` wrote. */
function profile(home) {
  const read = (f) => readFileSync(join(home, '.cdp', f), 'utf8');
  const section = (text, name) => {
    const out = {};
    let inside = false;
    for (const line of text.split('\n')) {
      const h = /^\s*\[(.+)\]\s*$/.exec(line);
      if (h) inside = h[1] === name;
      else if (inside) {
        const kv = /^\s*([^=]+?)\s*=\s*(.*)$/.exec(line);
        if (kv) out[kv[1]] = kv[2];
      }
    }
    return out;
  };
  return { ...section(read('config'), 'profile emulator'), ...section(read('credentials'), 'emulator') };
}

const p = profile(values.home);
const key = parsePrivateKey(p.cdp_access_key_id, p.cdp_private_key);
const base = new URL(p.cdp_endpoint_url);
const body = Buffer.from(values.body);
const clients = Number(values.clients);

// The signature covers the date to the second: within one second the same
// path signs to the same headers, so sign once per second (as many clients
// of one key would) and keep the load client's CPU for sending.
let signedAt = '';
let signed = {};
function headersNow() {
  const now = new Date();
  const second = now.toUTCString();
  if (second !== signedAt) {
    signed = signRequest(key, 'POST', 'application/json', values.path, now);
    signedAt = second;
  }
  return signed;
}

function once(agent) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.request(
      {
        host: '127.0.0.1',
        port: base.port,
        path: values.path,
        method: 'POST',
        agent,
        headers: {
          host: base.host,
          'content-type': 'application/json',
          'content-length': String(body.length),
          ...headersNow(),
        },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve({ ok: res.statusCode === 200, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
      },
    );
    req.on('error', () => resolve({ ok: false, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    req.end(body);
  });
}

async function runFor(seconds, record) {
  const until = Date.now() + seconds * 1000;
  const latencies = [];
  let errors = 0;
  const loops = [];
  for (let c = 0; c < clients; c++) {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    loops.push(
      (async () => {
        while (Date.now() < until) {
          const r = await once(agent);
          if (!record) continue;
          latencies.push(r.ms);
          if (!r.ok) errors++;
        }
        agent.destroy();
      })(),
    );
  }
  const t0 = process.hrtime.bigint();
  await Promise.all(loops);
  return { latencies, errors, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
}

await runFor(Number(values.warmup), false);
const { latencies, errors, seconds } = await runFor(Number(values.seconds), true);
latencies.sort((a, b) => a - b);
const q = (f) => latencies[Math.min(latencies.length - 1, Math.floor(f * latencies.length))] ?? NaN;
process.stdout.write(
  JSON.stringify({ clients, requests: latencies.length, seconds, rps: latencies.length / seconds, p50: q(0.5), p99: q(0.99), errors }) +
    '\n',
);
