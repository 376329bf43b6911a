#!/usr/bin/env node
// Developer tool, never run by the product or by CI: runs every example of the
// given services' operations through the official `cdp` CLI against a local
// recorder and pins what it sent (paths and JSON bodies) in
// test/fixtures/wire/<service>.json. test/wire/pinned.test.ts then sends the
// same command lines through cdpctl and expects the same requests, so "the same
// body as cdp for the same input" is checked in CI without cdp.
//
//   npm run build && node scripts/pin-wire.mjs environments datahub
//
// Needs the reference client (see /work/shared/refcli/NOTES.md): CDP_REFCLI
// names its wrapper script (default /work/shared/refcli/cdp). Replies are `{}`
// unless REPLIES below has canned answers for a path (e.g. steps that need an
// earlier answer).
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const refcli = process.env.CDP_REFCLI ?? '/work/shared/refcli/cdp';
const { loadService } = await import(join(root, 'dist/lib/model/index.js'));
const { kebab } = await import(join(root, 'dist/lib/model/names.js'));

/** Splits an example's flags as a POSIX shell would: quotes group, a backslash escapes. */
export function splitArgs(text) {
  const out = [];
  let cur = '';
  let quote = '';
  let any = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = '';
      else if (ch === '\\' && quote === '"' && i + 1 < text.length) cur += text[++i];
      else cur += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      any = true;
    } else if (ch === '\\' && i + 1 < text.length) {
      cur += text[++i];
      any = true;
    } else if (/\s/.test(ch)) {
      if (cur || any) out.push(cur);
      cur = '';
      any = false;
    } else cur += ch;
  }
  if (quote) throw new Error(`unbalanced quote in: ${text}`);
  if (cur || any) out.push(cur);
  return out;
}

/**
 * Canned answers by service and request path, for operations whose client-side
 * steps read an earlier answer (the workload token exchange names the workload
 * endpoint). `$BASE` stands for the recorder's URL; the fixture keeps them so
 * the test answers cdpctl the same way. An answer may be
 * `{"__status": 307, "__headers": {...}, "__body": {...}}` for another status.
 */
const ACCT = '9d74eee4-1cad-45d7-b645-7ccf9edbb73d';
const DF_ENV = `crn:cdp:environments:us-west-1:${ACCT}:environment:4b2f8a1c-6d3e-4f5a-9b7c-0e1d2c3b4a59`;
const DF_SVC = `crn:cdp:df:us-west-1:${ACCT}:service:7c1e5a92-3b4d-4e6f-8a0b-1c2d3e4f5a6b`;
const DF_DEP = `crn:cdp:df:us-west-1:${ACCT}:deployment:7c1e5a92-3b4d-4e6f-8a0b-1c2d3e4f5a6b/2e9d4c1b-8a7f-4b6e-9d5c-3f2a1b0c9d8e`;
const DF_FLOW = `crn:cdp:df:us-west-1:${ACCT}:deployedFlow:7c1e5a92-3b4d-4e6f-8a0b-1c2d3e4f5a6b/5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d`;
const DFX = '/dfx/api/rpc-v1';
const REPLIES = {
  df: {
    '/api/v1/df/initiateDeployment': {
      deploymentRequestCrn: `crn:cdp:df:us-west-1:${ACCT}:deploymentRequest:0d1e2f3a`,
      dfxLocalUrl: '$BASE',
    },
    '/api/v1/df/initiateFlowInDeployment': {
      deployedFlowRequestCrn: `crn:cdp:df:us-west-1:${ACCT}:deployedFlowRequest:4b5c6d7e`,
      dfxLocalUrl: '$BASE',
    },
    '/api/v1/df/listDeployableServicesForNewDeployments': {
      services: [
        { crn: `crn:cdp:df:us-west-1:${ACCT}:service:other`, environmentCrn: 'crn:other' },
        { crn: DF_SVC, environmentCrn: DF_ENV },
      ],
    },
    '/api/v1/df/describeDeployment': {
      deployment: { crn: DF_DEP, name: 'sales-ingest', service: { crn: DF_SVC, name: 'sales', environmentCrn: DF_ENV } },
    },
    '/api/v1/df/describeFlowInDeployment': { deployedFlow: { crn: DF_FLOW, name: 'orders', deploymentCrn: DF_DEP } },
    '/iam/generateWorkloadAuthToken': { token: 'pinned-df-workload-token', endpointUrl: '$BASEdfx/' },
    [`${DFX}/deployments/import-deployment`]: {
      rpcImportedDeploymentConfiguration: {
        clusterSize: { name: 'SMALL' },
        staticNodeCount: 2,
        cfmNifiVersion: '1.27.0.2.3.15.0-12',
        nodeStorageProfile: 'STANDARD_AWS',
        autoScalingEnabled: true,
        autoScaleMinNodes: 1,
        autoScaleMaxNodes: 4,
        inboundHostName: 'ingest',
        listenComponents: [{ protocol: 'TCP', port: '9000' }],
        inboundConnectionAuthorizedIpRanges: ['10.0.0.0/8'],
        kpis: [{ id: 'kpi-1', metricId: 'cpuUtilization' }],
      },
    },
    [`${DFX}/deployed-flows/import-flow-into-deployment`]: {
      rpcImportedDeploymentConfiguration: { kpis: [{ id: 'kpi-2', metricId: 'flowFilesQueued', componentId: 'c1' }] },
    },
    [`${DFX}/custom-nar-configurations/create-custom-nar-configuration`]: { crn: 'crn:nar', configurationVersion: 0 },
    [`${DFX}/custom-python-configurations/create-custom-python-configuration`]: { crn: 'crn:python', configurationVersion: 0 },
    [`${DFX}/deployments/create-deployment`]: { deployment: { crn: DF_DEP } },
    [`${DFX}/deployed-flows/add-flow-to-deployment`]: { deployedFlow: { crn: DF_FLOW } },
    [`${DFX}/deployments/create-asset-update-request`]: { assetUpdateRequestCrn: `crn:cdp:df:us-west-1:${ACCT}:assetUpdateRequest:9a8b` },
    [`${DFX}/deployments/change-flow-version`]: { deploymentConfiguration: { deploymentCrn: DF_DEP } },
    [`${DFX}/deployed-flows/change-flow-version-in-deployment`]: { deployedFlowConfiguration: { deployedFlowCrn: DF_FLOW } },
    '/api/v1/df/importFlowDefinition': { __status: 307, __headers: { Location: '$BASEcatalog/flows/upload?session=1' } },
    '/api/v1/df/importFlowDefinitionVersion': { __status: 307, __headers: { Location: '$BASEcatalog/versions/upload?session=2' } },
    '/catalog/flows/upload': { crn: `crn:cdp:df:us-west-1:${ACCT}:flow:sales-ingest`, name: 'sales-ingest', versionCount: 1 },
    '/catalog/versions/upload': { crn: `crn:cdp:df:us-west-1:${ACCT}:flow:sales-ingest/v.2`, version: 2 },
    '/api/v1/df/getFlowVersion': {
      flowDefinition: Buffer.from('{"flowContents": {"name": "sales-ingest", "processors": []}}').toString('base64'),
    },
  },
};

/** Local files examples name by path (not file://), by service: path -> content. */
const FILES = {
  df: {
    'assets/truststore.jks': 'pinned truststore bytes\n',
    'sales-ingest.json': '{"flowContents": {"name": "sales-ingest"}}\n',
    'sales-ingest-v2.json': '{"flowContents": {"name": "sales-ingest", "version": 2}}\n',
  },
};

/**
 * Services pinned with cdp patched (scripts/pin-wire-cdp): cdp 0.9.158's df
 * extension reads (http, answer) tuples as answers and stops after the
 * workload token exchange; the patch hands it the answer, so the rest of each
 * client-side composition shows on the wire. The fixture says so.
 */
const PATCHED = {
  df: 'generated client methods return the parsed answer (cdp 0.9.158 returns (http, answer), which its df extension reads as the answer)',
};

const wanted = process.argv.slice(2);
if (wanted.length === 0) {
  console.error('usage: pin-wire.mjs SERVICE...');
  process.exit(2);
}

// One recorder for the whole run; each cdp run is sequential, so the requests
// that arrive while it runs are its own.
let arrived = [];
let replies = {};
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const type = String(req.headers['content-type'] ?? '');
    let json;
    if (type.startsWith('application/json')) {
      try {
        json = body.length ? JSON.parse(body.toString('utf8')) : undefined;
      } catch {
        json = undefined;
      }
    }
    arrived.push({
      method: req.method,
      path: req.url,
      contentType: type || undefined,
      ...(json !== undefined ? { body: json } : { bytes: body.length }),
    });
    const reply = replies[req.url?.split('?')[0] ?? ''] ?? {};
    const special = reply && typeof reply === 'object' && '__status' in reply;
    const text = JSON.stringify(special ? (reply.__body ?? {}) : reply);
    res.writeHead(special ? reply.__status : 200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...(special ? reply.__headers : {}),
    });
    res.end(text);
  });
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const port = server.address().port;
// cdp resolves localhost and may try ::1 first.
const server6 = createServer(server.listeners('request')[0]);
await new Promise((r) => {
  server6.once('error', () => r());
  server6.listen(port, '::1', r);
});
// `localhost` keeps cdp's public form factor (a numeric address counts as private cloud).
const url = `http://localhost:${port}/`;

const home = mkdtempSync(join(tmpdir(), 'pin-wire-'));
mkdirSync(join(home, '.cdp'));
// An Ed25519 key (base64 of a 32-byte seed), the form both CLIs read.
writeFileSync(
  join(home, '.cdp', 'credentials'),
  `[default]\ncdp_access_key_id = pin-wire-key\ncdp_private_key = ${Buffer.alloc(32, 7).toString('base64')}\n`,
  { mode: 0o600 },
);

/** Flags of cdpctl's own that `cdp` does not have (confirmation and waiting), and whether each takes a value. */
const CDPCTL_ONLY = { '--yes': 0, '-y': 0, '--wait': 0, '--wait-timeout': 1, '--poll-interval': 1 };

/** The example's flags without cdpctl-only ones: what a `cdp` user would type. */
function forCdp(args) {
  const out = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const arity = CDPCTL_ONLY[a.split('=')[0]];
    if (arity === undefined) out.push(a);
    else if (arity === 1 && !a.includes('=')) i++;
  }
  return out;
}

/** Contents for files an example names with file://, by extension, so both CLIs read something plausible. */
function fileContent(path) {
  if (path.endsWith('.pub')) {
    const { publicKey } = generateKeyPairSync('ed25519');
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
    const part = (b) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
    return `ssh-ed25519 ${Buffer.concat([part(Buffer.from('ssh-ed25519')), part(raw)]).toString('base64')} pinned@example\n`;
  }
  if (path.endsWith('.pem')) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    return privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  }
  if (path.endsWith('.xml')) return '<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example.com"/>\n';
  if (path.endsWith('.json')) return '{}\n';
  return 'Pinned-Passw0rd!';
}

/** Writes the files an example names (relative to HOME, where both CLIs run) and returns them for the fixture. */
function makeFiles(args, service) {
  const files = {};
  for (const [rel, content] of Object.entries(FILES[service] ?? {})) {
    if (!args.some((a) => a === rel || a.includes(`"${rel}"`))) continue;
    const full = join(home, rel);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    files[rel] = content;
  }
  for (const a of args) {
    for (const m of a.matchAll(/file:\/\/([^\s,]+)/g)) {
      const rel = m[1].replace(/^~\//, '');
      if (rel.startsWith('/')) continue;
      const full = join(home, rel);
      mkdirSync(dirname(full), { recursive: true });
      const content = fileContent(rel);
      writeFileSync(full, content);
      files[m[1]] = content;
    }
  }
  return files;
}

const patchedPython = join(root, 'scripts/pin-wire-cdp/python');

function runCdp(args, patched = false) {
  return new Promise((resolve) => {
    const env = { ...process.env, HOME: home, ...(patched ? { REFCLI_PYTHON: patchedPython } : {}) };
    const child = spawn(refcli, args, { cwd: home, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

for (const name of wanted) {
  const svc = await loadService(name);
  const publicToo = svc.def.facts.formFactors.includes('public');
  const canned = REPLIES[svc.name] ?? {};
  replies = JSON.parse(JSON.stringify(canned).replaceAll('$BASE', url));
  const entries = [];
  let failed = 0;
  for (const op of svc.operations()) {
    for (const example of op.cli.examples ?? []) {
      const args = forCdp(splitArgs(example));
      // cdp 0.9.158's own token exchange fails (it reads the iam answer as a
      // tuple), so workload operations are pinned with a token given by hand.
      const token = svc.def.endpoint === 'workload' ? ['--access-token', 'pinned-workload-token'] : [];
      let argv = [svc.name, kebab(op.name), ...args, ...token, ...(publicToo ? [] : ['--form-factor', 'private'])];
      const files = makeFiles(args, svc.name);
      arrived = [];
      const patched = Object.hasOwn(PATCHED, svc.name);
      let r = await runCdp([...argv, '--endpoint-url', url], patched);
      // Some operations (and arguments) exist only in private cloud: ask again as a private cloud user would.
      if (r.code !== 0 && /not available under the public CDP form factor/.test(r.stderr)) {
        argv = [...argv, '--form-factor', 'private'];
        arrived = [];
        r = await runCdp([...argv, '--endpoint-url', url], patched);
      }
      const entry = { operation: op.name, argv, ...(Object.keys(files).length ? { files } : {}), requests: arrived };
      if (r.code !== 0) {
        failed++;
        entry.cdpExit = r.code;
        entry.cdpError = r.stderr.trim().split('\n').slice(-3).join('\n');
        console.error(`${svc.name} ${op.name}: cdp exited ${r.code}: ${entry.cdpError}`);
      }
      entries.push(entry);
    }
  }
  const out = join(root, 'test/fixtures/wire', `${svc.name}.json`);
  writeFileSync(
    out,
    JSON.stringify(
      {
        service: svc.name,
        cdp: (await runCdp(['--version'])).stdout.trim(),
        ...(PATCHED[svc.name] ? { cdpPatch: PATCHED[svc.name] } : {}),
        ...(Object.keys(canned).length ? { replies: canned } : {}),
        entries,
      },
      null,
      2,
    ) + '\n',
  );
  console.log(`${svc.name}: ${entries.length} examples pinned, ${failed} refused by cdp -> ${out}`);
}
server.close();
server6.close();
rmSync(home, { recursive: true, force: true });
