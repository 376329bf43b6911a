/**
 * A compromised or broken control plane: a redirect to another origin is
 * never followed with a signature (the df upload included), plain http://
 * to another machine is refused unless wanted (then warned about), and an
 * answer that is not a JSON object (`[]`, `null`, `42`) is a BAD_RESPONSE
 * naming the operation, never a silent success.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { run, type RunResult } from '../helpers/cli.js';
import { SIGNED, startScriptedServer, type ScriptedServer } from '../helpers/recording-server.js';
import { opsHome } from './helpers.js';

let controlPlane: ScriptedServer;
let elsewhere: ScriptedServer;
const home = opsHome('cdpctl-hostile-');

beforeAll(async () => {
  controlPlane = await startScriptedServer();
  elsewhere = await startScriptedServer();
  writeFileSync(join(home, 'flow.json'), '{"flowContents": {"name": "f"}}');
});
afterAll(async () => {
  await controlPlane.close();
  await elsewhere.close();
});

const cdpctl = (args: readonly string[], env: Record<string, string> = {}): Promise<RunResult> =>
  run([...args, '--profile', 'ops'], { home, cwd: home, env, timeoutMs: 30_000 });

describe('redirects', () => {
  test('the df upload is not sent, signed, to another origin; within the origin it is', async () => {
    controlPlane.play({
      importFlowDefinition: [{ status: 307, headers: { location: `${elsewhere.url}iam/createAccessKey` } }],
    });
    elsewhere.play();
    const r = await cdpctl(['df', 'flows', 'import', '--file', 'flow.json', '--name', 'f', '--endpoint-url', controlPlane.localUrl]);
    expect(r.stderr).toMatch(
      /^REDIRECT_REFUSED: df importFlowDefinition: the control plane redirected the request to http:\/\/127\.0\.0\.1:\d+, another origin/,
    );
    expect(r.code).toBe(1);
    expect(elsewhere.requests).toHaveLength(0);
    expect(controlPlane.requests).toHaveLength(1);

    controlPlane.play({
      importFlowDefinition: [{ status: 307, headers: { location: `${controlPlane.localUrl}upload/flows?session=1` } }],
      flows: [{ body: { crn: 'crn:flow' } }],
    });
    const same = await cdpctl(['df', 'flows', 'import', '--file', 'flow.json', '--name', 'f', '--endpoint-url', controlPlane.localUrl]);
    expect(same.code).toBe(0);
    expect(controlPlane.requests.map((q) => q.path)).toEqual(['/api/v1/df/importFlowDefinition', '/upload/flows?session=1']);
    expect(controlPlane.requests[1]?.headers['x-altus-auth']).toMatch(SIGNED);
  });

  test('a redirect answering a plain call is not followed', async () => {
    controlPlane.play({ getUser: [{ status: 307, headers: { location: `${elsewhere.url}iam/getUser` } }] });
    elsewhere.play();
    const r = await cdpctl(['iam', 'get-user', '--endpoint-url', controlPlane.localUrl]);
    expect(r.code).toBe(1);
    expect(elsewhere.requests).toHaveLength(0);
  });
});

describe('clear text', () => {
  // A plain-HTTP proxy stands in for the network: what would cross it arrives at the control plane stand-in.
  const viaProxy = (): Record<string, string> => ({ HTTP_PROXY: controlPlane.url });

  test('http:// to another machine is refused and nothing is sent', async () => {
    controlPlane.play({ getUser: [{ body: { user: { userId: 'u' } } }] });
    const r = await cdpctl(['iam', 'get-user', '--endpoint-url', 'http://api.example.test/'], viaProxy());
    expect(r.stderr).toMatch(/^INSECURE_TRANSPORT: http:\/\/api\.example\.test is plain HTTP to another machine/);
    expect(r.stderr).toMatch(/--no-verify-tls or: cdpctl configure set allow_http true/);
    expect(r.code).toBe(2);
    expect(controlPlane.requests).toHaveLength(0);
  });

  test('--no-verify-tls or allow_http = true let it through, with a warning on stderr', async () => {
    controlPlane.play({ getUser: [{ body: { user: { userId: 'u' } } }] });
    const flagged = await cdpctl(['iam', 'get-user', '--endpoint-url', 'http://api.example.test/', '--no-verify-tls'], viaProxy());
    expect(flagged.code).toBe(0);
    expect(flagged.stderr).toMatch(
      /^warning: http:\/\/api\.example\.test is plain HTTP: requests and keys cross the network in clear text/,
    );
    expect(controlPlane.requests.map((q) => q.path)).toEqual(['http://api.example.test/iam/getUser']);

    expect((await cdpctl(['configure', 'set', 'allow_http', 'true'])).code).toBe(0);
    const configured = await cdpctl(['iam', 'get-user', '--endpoint-url', 'http://api.example.test/'], viaProxy());
    expect(configured.code).toBe(0);
    expect(configured.stderr).toMatch(/plain HTTP: requests and keys cross the network in clear text/);
    expect((await cdpctl(['configure', 'set', 'allow_http', 'false'])).code).toBe(0);
  });

  test('loopback needs nothing: no warning', async () => {
    controlPlane.play({ getUser: [{ body: { user: { userId: 'u' } } }] });
    const r = await cdpctl(['iam', 'get-user', '--endpoint-url', controlPlane.url]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  test('login refuses a console on another machine over plain HTTP', async () => {
    const r = await cdpctl(['login', '--account-id', 'a', '--login-url', 'http://console.example.test/login'], viaProxy());
    expect(r.stderr).toMatch(/^INSECURE_TRANSPORT: http:\/\/console\.example\.test is plain HTTP/);
    expect(r.code).toBe(2);
  });
});

describe('answers that are not a JSON object', () => {
  let raw: Server;
  let port = 0;
  const answers: string[] = [];
  beforeAll(async () => {
    raw = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(answers.shift() ?? '{}');
      });
    });
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', () => r()));
    port = (raw.address() as { port: number }).port;
  });
  afterAll(async () => {
    raw.closeAllConnections();
    await new Promise<void>((r) => raw.close(() => r()));
  });

  test.each(['[]', 'null', '42', '"text"', 'true'])('%s to iam get-user: exit 1, BAD_RESPONSE naming the operation', async (body) => {
    answers.push(body);
    const r = await cdpctl(['iam', 'get-user', '--endpoint-url', `http://127.0.0.1:${port}/`]);
    expect(r.stderr).toMatch(/^BAD_RESPONSE: iam getUser: the answer is not a JSON object/);
    expect(r.stdout).toBe('');
    expect(r.code).toBe(1);
  });
});
