// The floor for a signed call on this machine (issue 32): the least any
// program can do for what `cdpctl iam users list --profile emulator
// --max-items 10` does. It reads the two settings files, signs with node's
// own crypto, POSTs over node:net and prints the answer's JSON, with no
// checks, no retries, no model and no output formats. The startup group
// times it beside the real call, each paired with `node -e ""`, so the
// distance between cdpctl and the floor is measured rather than assumed.
//
// CommonJS, no imports of ours: an ES module would load node's ES loader,
// which the floor must not pay for. It is a measuring stick, not product
// code; src/lib/core/signing.ts is the real signer.
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const home = process.env.HOME;
const profile = process.argv[2] || 'emulator';

/** The keys of one [section] of an INI file: enough for the files the bench writes. */
function section(text, name) {
  const out = {};
  let inside = false;
  for (const line of text.split('\n')) {
    const head = /^\s*\[([^\]]+)\]\s*$/.exec(line);
    if (head) inside = head[1].trim() === name || head[1].trim() === `profile ${name}`;
    else if (inside) {
      const kv = /^\s*([^=\s]+)\s*=\s*(.*)$/.exec(line);
      if (kv) out[kv[1]] = kv[2].trim();
    }
  }
  return out;
}

const creds = section(readFileSync(join(home, '.cdp', 'credentials'), 'latin1'), profile);
const config = section(readFileSync(join(home, '.cdp', 'config'), 'latin1'), profile);
const endpoint = new URL(config.cdp_endpoint_url || creds.cdp_endpoint_url);

const crypto = require('node:crypto');
const seed = Buffer.from(creds.cdp_private_key, 'base64');
const key = crypto.createPrivateKey({
  key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
  format: 'der',
  type: 'pkcs8',
});
const path = '/iam/listUsers';
const date = new Date().toUTCString();
const b64url = (b) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
const signature = crypto.sign(null, Buffer.from(`POST\napplication/json\n${date}\n${path}\ned25519v1`), key);
const head = `{"access_key_id": ${JSON.stringify(creds.cdp_access_key_id)}, "auth_method": "ed25519v1"}`;
const body = JSON.stringify({ pageSize: 10 });
const request =
  `POST ${path} HTTP/1.1\r\nHost: ${endpoint.host}\r\nContent-Type: application/json\r\n` +
  `x-altus-date: ${date}\r\nx-altus-auth: ${b64url(Buffer.from(head))}.${b64url(signature)}\r\n` +
  `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;

const socket = require('node:net').connect(Number(endpoint.port), endpoint.hostname, () => socket.end(request));
const chunks = [];
socket.on('data', (c) => chunks.push(c));
socket.on('end', () => {
  const text = Buffer.concat(chunks).toString('utf8');
  const status = Number(text.slice(9, 12));
  const start = text.indexOf('\r\n\r\n') + 4;
  const answer = /transfer-encoding: chunked/i.test(text.slice(0, start)) ? dechunk(text.slice(start)) : text.slice(start);
  if (status !== 200) {
    process.stderr.write(`floor: HTTP ${status}: ${answer}\n`);
    process.exitCode = 1;
    return;
  }
  process.stdout.write(`${JSON.stringify(JSON.parse(answer), null, 2)}\n`);
});

function dechunk(text) {
  let out = '';
  for (let at = 0; ;) {
    const eol = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, eol), 16);
    if (!size) return out;
    out += text.slice(eol + 2, eol + 2 + size);
    at = eol + 4 + size;
  }
}
