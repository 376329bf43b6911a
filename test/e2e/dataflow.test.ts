/**
 * dataflow (dfworkload) through the real binary against the emulator:
 * workload tokens (one exchange per environment, cached 0600, refreshed when
 * expired or refused, never logged), the deployment lifecycle,
 * versioned configurations, deprecated commands, uploads (headers as given,
 * a missing file refused before anything is sent), and a request skeleton for
 * every operation alias.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadService } from '../../src/lib/model/index.js';
import { environmentCrns, startEmulator, type RunResult, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;

/** The emulator's pre-created environments, by the role they play here. */
const ROLES = {
  main: 'sales-env',
  'tokens-a': 'ops-env',
  'tokens-b': 'ml-env',
  'tokens-expired': 'staging-aws',
  'tokens-refused': 'analytics-azure',
};
let crns: Record<string, string> = {};
const env = (role: keyof typeof ROLES): string => crns[ROLES[role]] ?? '';
let ENV = '';
const FAST = ['--poll-interval', '0.1', '--wait-timeout', '120'];
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
let requestSeq = 0;
const depRequest = (): string => `crn:cdp:df:us-west-1:acct:deploymentRequest:req-${++requestSeq}-${Date.now()}`;

const exchanges = (r: RunResult): number =>
  r.stderr.split('\n').filter((l) => /> POST \S+\/iam\/generateWorkloadAuthToken /.test(l)).length;
const cachePath = (): string => join(em.home, '.cdpctl', 'cache', 'workload-tokens.json');

async function df<T = Record<string, unknown>>(args: readonly string[], environmentCrn = ENV): Promise<T> {
  return em.json<T>(['dataflow', ...args, '--environment-crn', environmentCrn]);
}

interface Deployment {
  crn: string;
  name: string;
  status: { state: string; detailedState: string };
  deployedFlows: Array<{ crn: string; name: string; status: { state: string } }>;
}

/** A deployment request from the control plane, made known to the workload service by reading its details. */
async function registeredRequest(): Promise<string> {
  const req = depRequest();
  await df(['deployments', 'request-details', '--deployment-request-crn', req]);
  return req;
}

/** deployments create as the user types it, without --wait: for the answers that are refusals. */
const createRun = (name: string, request: string, extra: readonly string[] = []): Promise<RunResult> =>
  em.cli([
    'dataflow',
    'deployments',
    'create',
    '--environment-crn',
    ENV,
    '--name',
    name,
    '--deployment-request-crn',
    request,
    '--configuration-version',
    '0',
    ...extra,
  ]);

/**
 * Asks the emulator's workload API again until the state is reached. --wait
 * reads states from the df control plane, which the emulator does not
 * implement yet; its workload lifecycle calls answer with the resource as it
 * is when asked for a state already reached or being reached, which is what
 * this test helper relies on (a real service may refuse the repeat).
 */
async function until<T>(args: readonly string[], state: (out: T) => string | undefined, want: readonly string[]): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const out = await df<T>(args);
    const s = state(out);
    if (s && want.includes(s)) return out;
    await sleep(50);
  }
  throw new Error(`${args.join(' ')} never reached ${want.join('/')}`);
}

const deploymentState = (out: { deployment: Deployment }): string | undefined => out.deployment.status.state;
const HEALTHY = ['GOOD_HEALTH', 'CONCERNING_HEALTH'];

async function createDeployment(name: string, extra: readonly string[] = []): Promise<Deployment> {
  const out = await df<{ deployment: Deployment }>([
    'deployments',
    'create',
    '--name',
    name,
    '--deployment-request-crn',
    await registeredRequest(),
    '--configuration-version',
    '0',
    ...extra,
  ]);
  const ready = await until(['deployments', 'resume', '--deployment-crn', out.deployment.crn], deploymentState, HEALTHY);
  return ready.deployment;
}

beforeAll(async () => {
  em = await startEmulator();
  crns = await environmentCrns(em);
  ENV = env('main');
});

afterAll(async () => {
  await em?.stop();
});

describe('workload tokens', () => {
  test('one exchange per environment, reused from a 0600 cache; the token never reaches the log', async () => {
    const envA = env('tokens-a');
    const envB = env('tokens-b');
    const first = await em.cli(['dataflow', 'nifi-versions', 'list', '--environment-crn', envA, '--debug']);
    expect(first.code).toBe(0);
    expect(exchanges(first)).toBe(1);
    const again = await em.cli(['dataflow', 'parameter-groups', 'list', '--environment-crn', envA, '--debug']);
    expect(again.code).toBe(0);
    expect(exchanges(again)).toBe(0);
    const third = await em.cli(['dataflow', 'inbound-endpoints', 'list', '--environment-crn', envA, '--debug']);
    expect(exchanges(third)).toBe(0);
    const other = await em.cli(['dataflow', 'nifi-versions', 'list', '--environment-crn', envB, '--debug']);
    expect(other.code).toBe(0);
    expect(exchanges(other)).toBe(1);

    const st = statSync(cachePath());
    expect(st.mode & 0o777).toBe(0o600);
    const cache = JSON.parse(readFileSync(cachePath(), 'utf8')) as Record<string, { token: string; origin: string; expireAt: number }>;
    const entries = Object.entries(cache).filter(([k]) => k.endsWith(envA) || k.endsWith(envB));
    expect(entries).toHaveLength(2);
    for (const [, e] of entries) {
      expect(e.origin).toBe(`http://localhost:${em.port}`);
      for (const r of [first, again, third, other]) {
        expect(r.stderr).not.toContain(e.token);
        expect(r.stdout).not.toContain(e.token);
      }
    }
    expect(first.stderr).toMatch(/authorization: <redacted>/i);
  });

  test('an expired token is replaced by a fresh exchange', async () => {
    const envC = env('tokens-expired');
    expect((await em.cli(['dataflow', 'nifi-versions', 'list', '--environment-crn', envC])).code).toBe(0);
    const cache = JSON.parse(readFileSync(cachePath(), 'utf8')) as Record<string, { expireAt: number }>;
    const key = Object.keys(cache).find((k) => k.endsWith(envC));
    expect(key).toBeDefined();
    cache[key as string] = { ...cache[key as string], expireAt: Date.now() - 1000 } as { expireAt: number };
    writeFileSync(cachePath(), JSON.stringify(cache));
    const r = await em.cli(['dataflow', 'nifi-versions', 'list', '--environment-crn', envC, '--debug']);
    expect(r.code).toBe(0);
    expect(exchanges(r)).toBe(1);
  });

  test('a token the service refuses (401) is exchanged again once, transparently', async () => {
    const envD = env('tokens-refused');
    expect((await em.cli(['dataflow', 'nifi-versions', 'list', '--environment-crn', envD])).code).toBe(0);
    const cache = JSON.parse(readFileSync(cachePath(), 'utf8')) as Record<string, { token: string }>;
    const key = Object.keys(cache).find((k) => k.endsWith(envD)) as string;
    cache[key] = { ...cache[key], token: 'not-a-token-this-emulator-issued-0000' } as { token: string };
    writeFileSync(cachePath(), JSON.stringify(cache));
    const r = await em.cli(['dataflow', 'nifi-versions', 'list', '--environment-crn', envD, '--debug']);
    expect(r.stderr).toContain('< 401');
    expect(exchanges(r)).toBe(1);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveProperty('nifiVersions');
  });

  test('the emulator accepts only bearer tokens it issued', async () => {
    const url = `http://localhost:${em.port}/dfx/api/rpc-v1/environments/list-nifi-versions`;
    const body = JSON.stringify({ environmentCrn: ENV });
    const none = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(none.status).toBe(401);
    const foreign = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer abcdefghijklmnopqrstuvwxyz012345' },
      body,
    });
    expect(foreign.status).toBe(401);
    expect(((await foreign.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
  });

  test('--access-token skips the exchange; a bad one is an authentication failure (exit 3)', async () => {
    const tok = await em.json<{ token: string }>(['iam', 'workload-tokens', 'generate', '--workload-name', 'DF', '--environment-crn', ENV]);
    const ok = await em.cli(['dataflow', 'nifi-versions', 'list', '--environment-crn', ENV, '--access-token', tok.token, '--debug']);
    expect(ok.code).toBe(0);
    expect(exchanges(ok)).toBe(0);
    expect(ok.stderr).not.toContain(tok.token);
    const bad = await em.cli(['dataflow', 'nifi-versions', 'list', '--environment-crn', ENV, '--access-token', 'x'.repeat(40)]);
    expect(bad.code).toBe(3);
  });

  test('workload tokens are scoped: a DE token opens no dataflow path, a DF token only its own environment', async () => {
    const de = await em.json<{ token: string }>(['iam', 'workload-tokens', 'generate', '--workload-name', 'DE']);
    const withDe = await em.cli(['dataflow', 'nifi-versions', 'list', '--environment-crn', ENV, '--access-token', de.token]);
    expect(withDe.code).not.toBe(0);
    expect(withDe.stderr).toContain('PERMISSION_DENIED');
    expect(withDe.stderr).toContain('DE workload');
    const other = env('tokens-a');
    const df = await em.json<{ token: string }>([
      'iam',
      'workload-tokens',
      'generate',
      '--workload-name',
      'DF',
      '--environment-crn',
      other,
    ]);
    const elsewhere = await em.cli(['dataflow', 'nifi-versions', 'list', '--environment-crn', ENV, '--access-token', df.token]);
    expect(elsewhere.code).not.toBe(0);
    expect(elsewhere.stderr).toContain('PERMISSION_DENIED');
    expect(elsewhere.stderr).toContain(other);
    expect((await em.cli(['dataflow', 'nifi-versions', 'list', '--environment-crn', other, '--access-token', df.token])).code).toBe(0);
  });

  test('every dataflow command needs --environment-crn (exit 2, nothing sent)', async () => {
    const r = await em.cli(['dataflow', 'parameter-groups', 'list', '--debug']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--environment-crn');
    expect(r.stderr).not.toContain('> POST');
  });
});

describe('deployments', () => {
  test('--cluster-size name=SMALL|MEDIUM|LARGE gets the cores and memory request-details lists; CUSTOM its own', async () => {
    const req = await registeredRequest();
    const details = await df<{
      deploymentConfigurationMetadata: { clusterSizingOptions: Array<{ name: string; coresPerNode: number; memoryLimit: number }> };
    }>(['deployments', 'request-details', '--deployment-request-crn', req]);
    const options = details.deploymentConfigurationMetadata.clusterSizingOptions;
    expect(options.find((o) => o.name === 'MEDIUM')).toMatchObject({ coresPerNode: 6, memoryLimit: 12 });
    for (const [name, extra] of [
      ['MEDIUM', []],
      ['LARGE', ['--auto-scaling-enabled', '--auto-scale-min-nodes', '1', '--auto-scale-max-nodes', '2']],
    ] as const) {
      const d = await df<{ deployment: { crn: string; clusterSizeParams: { name: string; coresPerNode: number; memoryLimit: number } } }>([
        'deployments',
        'create',
        '--name',
        `sized-${name.toLowerCase()}`,
        '--deployment-request-crn',
        name === 'MEDIUM' ? req : await registeredRequest(),
        '--configuration-version',
        '0',
        '--cluster-size',
        `name=${name}`,
        ...extra,
      ]);
      const listed = options.find((o) => o.name === name);
      expect(d.deployment.clusterSizeParams).toMatchObject({ name, coresPerNode: listed?.coresPerNode, memoryLimit: listed?.memoryLimit });
      const cfg = await df<{ deploymentConfiguration: { clusterSize: unknown } }>([
        'deployments',
        'configuration',
        '--deployment-crn',
        d.deployment.crn,
      ]);
      expect(cfg.deploymentConfiguration.clusterSize).toEqual({
        name,
        coresPerNode: listed?.coresPerNode,
        memoryLimit: listed?.memoryLimit,
      });
    }
    const custom = await df<{ deployment: { clusterSizeParams: { coresPerNode: number; memoryLimit: number } } }>([
      'deployments',
      'create',
      '--name',
      'sized-custom',
      '--deployment-request-crn',
      await registeredRequest(),
      '--configuration-version',
      '0',
      '--cluster-size',
      'name=CUSTOM,coresPerNode=4,memoryLimit=10',
    ]);
    expect(custom.deployment.clusterSizeParams).toMatchObject({ coresPerNode: 4, memoryLimit: 10 });
    const clash = await createRun('sized-clash', await registeredRequest(), ['--cluster-size', 'name=SMALL,coresPerNode=5']);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('CUSTOM');
  });

  test('a deployment request whose details were never read is refused', async () => {
    const r = await createRun('unregistered', depRequest());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('NOT_FOUND');
    expect(r.stderr).toContain('get-deployment-request-details');
  });

  test('created, suspended, resumed, restarted and terminated', async () => {
    const d = await createDeployment('lifecycle');
    expect(d.status.state).toBe('GOOD_HEALTH');
    expect(d.deployedFlows[0]?.status.state).toBe('GOOD_HEALTH');
    const common = ['--deployment-crn', d.crn];
    const suspended = await until<{ deployment: Deployment }>(['deployments', 'suspend', ...common], deploymentState, ['SUSPENDED']);
    expect(suspended.deployment.deployedFlows[0]?.status.state).toBe('DEPLOYMENT_SUSPENDED');
    const resumed = await until<{ deployment: Deployment }>(['deployments', 'resume', ...common], deploymentState, HEALTHY);
    expect(resumed.deployment.status.state).toBe('GOOD_HEALTH');
    await df(['deployments', 'restart', ...common]);
    const restarted = await until<{ deployment: Deployment }>(['deployments', 'resume', ...common], deploymentState, HEALTHY);
    expect(restarted.deployment.status.state).toBe('GOOD_HEALTH');
    const term = await em.cli(['dataflow', 'deployments', 'terminate', '--environment-crn', ENV, ...common, '--yes']);
    expect(term.code).toBe(0);
    expect(term.stdout).toContain('TERMINATING');
    let gone = await em.cli(['dataflow', 'deployments', 'configuration', '--environment-crn', ENV, ...common]);
    for (let i = 0; i < 600 && gone.code === 0; i++) {
      await sleep(50);
      gone = await em.cli(['dataflow', 'deployments', 'configuration', '--environment-crn', ENV, ...common]);
    }
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('NOT_FOUND');
    // The name is free again.
    expect((await createDeployment('lifecycle')).status.state).toBe('GOOD_HEALTH');
  });

  test('a deployment that fails to deploy ends in BAD_HEALTH', async () => {
    const r = await createRun('fail-deploy', await registeredRequest());
    expect(r.code).toBe(0);
    const crn = (JSON.parse(r.stdout) as { deployment: Deployment }).deployment.crn;
    const failed = await until(['deployments', 'resume', '--deployment-crn', crn], deploymentState, ['BAD_HEALTH']);
    expect(failed.deployment.status.state).toBe('BAD_HEALTH');
  });

  test('--wait reads the state from df, which the emulator does not implement yet: a clear error, the change sent once', async () => {
    const d = await createDeployment('wait-df');
    const r = await em.cli(['dataflow', 'deployments', 'suspend', '--environment-crn', ENV, '--deployment-crn', d.crn, '--wait', ...FAST]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/NOT_IMPLEMENTED: the emulator does not implement df describeDeployment/);
    // The suspension itself was sent, once.
    const state = await until<{ deployment: Deployment }>(['deployments', 'suspend', '--deployment-crn', d.crn], deploymentState, [
      'SUSPENDED',
    ]);
    expect(state.deployment.status.state).toBe('SUSPENDED');
  });

  test('an update with a stale configuration version fails with FAILED_PRECONDITION (409)', async () => {
    const d = await createDeployment('versions');
    const base = ['--environment-crn', ENV, '--deployment-crn', d.crn];
    const cfg = await em.json<{ deploymentConfiguration: { configurationVersion: number } }>([
      'dataflow',
      'deployments',
      'configuration',
      ...base,
    ]);
    const v = cfg.deploymentConfiguration.configurationVersion;
    const up = await em.json<{ deploymentConfiguration: { configurationVersion: number; staticNodeCount: number } }>([
      'dataflow',
      'deployments',
      'update',
      ...base,
      '--configuration-version',
      String(v),
      '--static-node-count',
      '3',
    ]);
    expect(up.deploymentConfiguration.configurationVersion).toBe(v + 1);
    expect(up.deploymentConfiguration.staticNodeCount).toBe(3);
    const stale = await em.cli([
      'dataflow',
      'deployments',
      'update',
      ...base,
      '--configuration-version',
      String(v),
      '--static-node-count',
      '2',
      '--output',
      'json',
    ]);
    expect(stale.code).toBe(1);
    const err = JSON.parse(stale.stderr.trim().split('\n').pop() ?? '{}') as { error: { code: string; status: number; message: string } };
    expect(err.error.code).toBe('FAILED_PRECONDITION');
    expect(err.error.status).toBe(409);
    expect(err.error.message).toContain('stale');
  });

  test('a deprecated command prints its notice, is hidden from help, and still works', async () => {
    const d = await createDeployment('deprecated');
    const stop = await em.cli(['dataflow', 'deployments', 'stop-flow', '--environment-crn', ENV, '--deployment-crn', d.crn]);
    expect(stop.code).toBe(0);
    expect(stop.stderr).toMatch(/deprecated.*dataflow flows stop/);
    expect((JSON.parse(stop.stdout) as { deployment: Deployment }).deployment.deployedFlows[0]?.status.state).toBe('STOPPING_FLOW');
    // The cdpcli-style alias works the same way.
    const start = await em.cli(['dataflow', 'start-flow', '--environment-crn', ENV, '--deployment-crn', d.crn]);
    expect(start.code).toBe(0);
    expect(start.stderr).toMatch(/deprecated.*dataflow flows start/);
    const help = await em.raw(['dataflow', 'deployments', '--help']);
    expect(help.stdout).toContain('deployments suspend');
    expect(help.stdout).not.toContain('start-flow');
  });
});

describe('flows in a deployment', () => {
  test('add, stop, start and change version', async () => {
    const d = await createDeployment('flows');
    const base = ['--environment-crn', ENV, '--deployment-crn', d.crn];
    const flowRequest = 'crn:cdp:df:us-west-1:acct:deployedFlowRequest:f1';
    await df(['flows', 'request-details', '--deployed-flow-request-crn', flowRequest]);
    const added = await em.json<{ deployedFlow: { crn: string; status: { state: string } } }>([
      'dataflow',
      'flows',
      'add',
      ...base,
      '--name',
      'second',
      '--configuration-version',
      '0',
      '--deployed-flow-request-crn',
      flowRequest,
    ]);
    const flow = ['--deployment-crn', d.crn, '--deployed-flow-crn', added.deployedFlow.crn];
    type Flow = { deployedFlow: { status: { state: string }; flowVersion: number } };
    const flowState = (out: Flow): string | undefined => out.deployedFlow.status.state;
    // A new flow imports first; stopping it is refused until it runs, so wait for that.
    const running = await until<Flow>(['flows', 'start', ...flow], flowState, HEALTHY);
    expect(running.deployedFlow.status.state).toBe('GOOD_HEALTH');
    const stopped = await until<Flow>(['flows', 'stop', ...flow], flowState, ['FLOW_STOPPED']);
    expect(stopped.deployedFlow.status.state).toBe('FLOW_STOPPED');
    const started = await until<Flow>(['flows', 'start', ...flow], flowState, HEALTHY);
    expect(started.deployedFlow.status.state).toBe('GOOD_HEALTH');
    await df(['flows', 'change-version', ...flow]);
    const changed = await until<Flow>(['flows', 'start', ...flow], flowState, HEALTHY);
    expect(changed.deployedFlow.status.state).toBe('GOOD_HEALTH');
    const cfg = await em.json<{ deployedFlowConfiguration: { configurationVersion: number } }>([
      'dataflow',
      'flows',
      'configuration',
      '--environment-crn',
      ENV,
      ...flow,
    ]);
    expect(cfg.deployedFlowConfiguration.configurationVersion).toBe(1);
  });
});

describe('uploads', () => {
  test('an asset is uploaded with its fields as headers, as given, and shows on the request', async () => {
    const req = await registeredRequest();
    const file = join(em.home, 'trust store 100%.jks');
    writeFileSync(file, Buffer.alloc(4096, 7));
    const r = await em.cli([
      'dataflow',
      'assets',
      'upload',
      '--environment-crn',
      ENV,
      '--deployment-request-crn',
      req,
      '--deployment-name',
      'uploads',
      '--parameter-group',
      'kafka',
      '--parameter-name',
      'truststore',
      '--file-path',
      file,
      '--debug',
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('/dfx/api/rpc-v1/deployments/upload-asset-content');
    expect(r.stderr).toContain(`File-Path: ${file}`);
    expect(r.stderr).toContain('content-length: 4096');
    const details = await df<{
      deploymentConfigurationMetadata: {
        parameterGroups: Array<{
          name: string;
          parameters: Array<{ name: string; assetReferences: Array<{ name: string; path: string }> }>;
        }>;
      };
    }>(['deployments', 'request-details', '--deployment-request-crn', req]);
    const group = details.deploymentConfigurationMetadata.parameterGroups.find((g) => g.name === 'kafka');
    expect(group?.parameters[0]?.assetReferences[0]).toMatchObject({ name: 'trust store 100%.jks', path: file });
  });

  test('a missing or unreadable file is refused before anything is sent (exit 2)', async () => {
    const missing = await em.cli([
      'dataflow',
      'assets',
      'upload',
      '--environment-crn',
      ENV,
      '--deployment-request-crn',
      depRequest(),
      '--parameter-group',
      'g',
      '--parameter-name',
      'p',
      '--file-path',
      join(em.home, 'no-such-file.bin'),
      '--debug',
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--file-path');
    expect(missing.stderr).not.toContain('> POST');
    const dir = await em.cli(['dataflow', 'reporting-tasks', 'create', '--environment-crn', ENV, '--file-path', em.home, '--debug']);
    expect(dir.code).toBe(2);
    expect(dir.stderr).not.toContain('> POST');
  });

  test('a reporting task is created from a definition file, listed and deleted', async () => {
    const d = await createDeployment('reporting');
    const file = join(em.home, 'prometheus.json');
    writeFileSync(file, JSON.stringify({ name: 'prometheus', type: 'org.apache.nifi.reporting.prometheus.PrometheusReportingTask' }));
    const base = ['--environment-crn', ENV, '--deployment-crn', d.crn];
    const created = await em.json<{ crn: string }>(['dataflow', 'reporting-tasks', 'create', ...base, '--file-path', file]);
    const listed = await em.json<{ reportingTasks: Array<{ crn: string; name: string }> }>([
      'dataflow',
      'reporting-tasks',
      'list',
      ...base,
    ]);
    expect(listed.reportingTasks).toEqual([expect.objectContaining({ crn: created.crn, name: 'prometheus' })]);
    const del = await em.cli(['dataflow', 'reporting-tasks', 'delete', ...base, '--reporting-task-crn', created.crn, '--yes']);
    expect(del.code).toBe(0);
    expect((await em.json<{ reportingTasks: unknown[] }>(['dataflow', 'reporting-tasks', 'list', ...base])).reportingTasks).toEqual([]);
  });
});

describe('every operation', () => {
  test('each cdpcli-style alias answers --generate-skeleton with the request fields of the model', async () => {
    const svc = await loadService('dataflow');
    const ops = svc.operations();
    expect(ops).toHaveLength(71);
    const failures: string[] = [];
    for (let i = 0; i < ops.length; i += 8) {
      await Promise.all(
        ops.slice(i, i + 8).map(async (op) => {
          const r = await em.raw([...op.aliasId.split(' '), '--generate-skeleton']);
          const want = svc
            .requestFields(op)
            .map((f) => f.name)
            .sort();
          let got: string[] = [];
          try {
            got = Object.keys(JSON.parse(r.stdout) as object).sort();
          } catch {
            // reported below
          }
          if (r.code !== 0 || JSON.stringify(got) !== JSON.stringify(want))
            failures.push(`${op.aliasId}: exit ${r.code}, got [${got.join(',')}]`);
        }),
      );
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
