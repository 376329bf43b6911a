/**
 * dataflow (dfworkload) through the real binary against the emulator:
 * workload tokens (one exchange per environment, cached 0600, refreshed when
 * expired or refused, never logged), the deployment lifecycle with --wait
 * (which reads the state from the emulator's df service and never sends the
 * change again: the request log shows one suspend, then reads),
 * versioned configurations, deprecated commands, uploads (headers as given,
 * a missing file refused before anything is sent), and a request skeleton for
 * every operation alias.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadService } from '../../src/lib/model/index.js';
import { environmentCrns, start, startEmulator, type RunResult, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;

/** The emulator's pre-created environments, by the role they play here. */
const ROLES = {
  main: 'sales-env',
  'tokens-a': 'ops-env',
  'tokens-b': 'lakehouse-aws',
  'tokens-expired': 'staging-aws',
  'tokens-refused': 'analytics-azure',
};
let crns: Record<string, string> = {};
const env = (role: keyof typeof ROLES): string => crns[ROLES[role]] ?? '';
let ENV = '';
const FAST = ['--poll-interval', '0.1', '--wait-timeout', '120'];
let requestSeq = 0;
const depRequest = (): string => `crn:cdp:df:us-west-1:acct:deploymentRequest:req-${++requestSeq}-${Date.now()}`;

const exchanges = (r: RunResult): number =>
  r.stderr.split('\n').filter((l) => /> POST \S+\/iam\/generateWorkloadAuthToken /.test(l)).length;
const cachePath = (): string => join(em.home, '.cdpctl', 'cache', 'workload-tokens.json');

async function df<T = Record<string, unknown>>(args: readonly string[], environmentCrn = ENV): Promise<T> {
  return em.json<T>(['dataflow', ...args, '--environment-crn', environmentCrn]);
}

/** A deployment as --wait prints it: df describeDeployment's answer. */
interface Deployment {
  crn: string;
  name: string;
  status: { state: string; detailedState: string };
}

/** The states of a deployment's flows, read through the control plane (df). */
async function flowStates(deploymentCrn: string): Promise<string[]> {
  const out = await em.json<{ deployedFlows: Array<{ status: { state: string } }> }>([
    'df',
    'deployed-flows',
    'list',
    '--deployment-crn',
    deploymentCrn,
  ]);
  return out.deployedFlows.map((f) => f.status.state);
}

interface LogLine {
  readonly service: string;
  readonly operation: string;
  readonly status: number;
}

/**
 * The calls `run` makes, from the emulator's request log: the log is written
 * in batches, so a marker call (df listServices) before and after brackets
 * them, and the log is read until the closing marker is in it.
 */
async function callsOf(run: () => Promise<void>): Promise<string[]> {
  const mark = async (): Promise<void> => void (await em.json(['df', 'services', 'list']));
  await mark();
  await run();
  await mark();
  for (;;) {
    const r = await em.raw(['emulator', 'log', '--output', 'json', '--data-dir', em.dataDir]);
    const lines = r.stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as LogLine)
      .map((l) => `${l.service} ${l.operation}`);
    const marks = lines.flatMap((l, i) => (l === 'df listServices' ? [i] : []));
    const [open, close] = marks.slice(-2);
    if (marks.length >= 2 && open !== undefined && close !== undefined && lines.length > close)
      return lines.slice(open + 1, close).filter((l) => !l.startsWith('iam '));
    await new Promise((res) => setTimeout(res, 100));
  }
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
    '--wait',
    ...FAST,
    ...extra,
  ]);
  return out.deployment;
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
    expect(key?.slice(-envC.length)).toBe(envC);
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

  test('created, suspended, resumed and terminated with --wait', async () => {
    const d = await createDeployment('lifecycle');
    expect(d.status.state).toBe('GOOD_HEALTH');
    expect(await flowStates(d.crn)).toEqual(['GOOD_HEALTH']);
    const common = ['--deployment-crn', d.crn, '--wait', ...FAST];
    const suspended = await df<{ deployment: Deployment }>(['deployments', 'suspend', ...common]);
    expect(suspended.deployment.status.state).toBe('SUSPENDED');
    expect(await flowStates(d.crn)).toEqual(['DEPLOYMENT_SUSPENDED']);
    const resumed = await df<{ deployment: Deployment }>(['deployments', 'resume', ...common]);
    expect(resumed.deployment.status.state).toBe('GOOD_HEALTH');
    const restarted = await df<{ deployment: Deployment }>(['deployments', 'restart', ...common]);
    expect(restarted.deployment.status.state).toBe('GOOD_HEALTH');
    const term = await em.cli(['dataflow', 'deployments', 'terminate', '--environment-crn', ENV, ...common, '--yes']);
    expect(term.code).toBe(0);
    expect(term.stderr).toContain('TERMINATING');
    // It waits for TERMINATED, and says so (the deployment is gone then).
    expect(term.stderr).toContain('TERMINATED');
    expect(term.stderr).not.toContain('DELETED');
    const gone = await em.cli(['dataflow', 'deployments', 'configuration', '--environment-crn', ENV, '--deployment-crn', d.crn]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('NOT_FOUND');
    // The name is free again.
    expect((await createDeployment('lifecycle')).status.state).toBe('GOOD_HEALTH');
  });

  test('suspend --wait sends one suspend, then only reads (df describeDeployment), until SUSPENDED', async () => {
    const d = await createDeployment('suspend-once');
    const clock = (...flags: string[]): Promise<RunResult> => em.raw(['emulator', 'clock', ...flags, '--data-dir', em.dataDir]);
    let r: RunResult | undefined;
    const calls = await callsOf(async () => {
      // The clock holds still while the suspension is under way, so --wait reads SUSPENDING at least once.
      expect((await clock('--pause')).code).toBe(0);
      const waiting = start(
        [
          'dataflow',
          'deployments',
          'suspend',
          '--environment-crn',
          ENV,
          '--deployment-crn',
          d.crn,
          '--wait',
          ...FAST,
          '--profile',
          'emulator',
        ],
        { home: em.home },
      );
      try {
        await waiting.waitFor(/SUSPENDING/);
      } finally {
        await clock('--advance', '5m');
        await clock('--resume');
      }
      r = await waiting.done;
    });
    expect(r?.code).toBe(0);
    expect((JSON.parse(r?.stdout ?? '') as { deployment: Deployment }).deployment.status.state).toBe('SUSPENDED');
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls[0]).toBe('dfworkload suspendDeployment');
    expect(calls.slice(1)).toEqual(calls.slice(1).map(() => 'df describeDeployment'));
  });

  test('a deployment that fails to deploy ends --wait with exit 5', async () => {
    const r = await createRun('fail-deploy', await registeredRequest(), ['--wait', ...FAST]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('BAD_HEALTH');
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
    const answer = JSON.parse(stop.stdout) as { deployment: { deployedFlows: Array<{ status: { state: string } }> } };
    expect(answer.deployment.deployedFlows[0]?.status.state).toBe('STOPPING_FLOW');
    // The flow stops while the user types the next command.
    await em.advance('5m');
    // The cdpcli-style alias works the same way.
    const start = await em.cli(['dataflow', 'start-flow', '--environment-crn', ENV, '--deployment-crn', d.crn]);
    expect(start.code).toBe(0);
    expect(start.stderr).toMatch(/deprecated.*dataflow flows start/);
    const help = await em.raw(['dataflow', 'deployments', '--help']);
    expect(help.stdout).toContain('deployments suspend');
    expect(help.stdout).not.toContain('start-flow');
  });
});

describe('the df control plane reads the same deployments', () => {
  interface Svc {
    crn: string;
    name: string;
    environmentCrn: string;
    deploymentCount: number;
    status: { state: string };
  }

  test('services list and describe; deployments and their flows listed and described as the workload changes them', async () => {
    const d = await createDeployment('seen-by-df');
    const services = await em.json<{ services: Svc[] }>(['df', 'services', 'list']);
    const sales = services.services.find((x) => x.environmentCrn === ENV);
    expect(sales).toMatchObject({ name: 'sales-env', status: { state: 'GOOD_HEALTH' } });
    expect(sales?.deploymentCount).toBeGreaterThanOrEqual(1);
    const described = await em.json<{ service: Svc & { minK8sNodeCount: number } }>([
      'df',
      'services',
      'describe',
      '--service-crn',
      sales?.crn ?? '',
    ]);
    expect(described.service).toMatchObject({ crn: sales?.crn, minK8sNodeCount: 3 });
    const listed = await em.json<{ deployments: Array<{ crn: string; status: { state: string }; service: { crn: string } }> }>([
      'df',
      'deployments',
      'list',
      '--search-term',
      'seen-by-df',
    ]);
    expect(listed.deployments).toEqual([
      expect.objectContaining({ crn: d.crn, status: expect.objectContaining({ state: 'GOOD_HEALTH' }) }),
    ]);
    expect(listed.deployments[0]?.service.crn).toBe(sales?.crn);
    await df(['deployments', 'suspend', '--deployment-crn', d.crn]);
    const read = await em.json<{ deployment: Deployment }>(['df', 'deployments', 'describe', '--deployment-crn', d.crn]);
    expect(['SUSPENDING', 'SUSPENDED']).toContain(read.deployment.status.state);
    const flows = await em.json<{ deployedFlows: Array<{ crn: string }> }>(['df', 'deployed-flows', 'list', '--deployment-crn', d.crn]);
    const flow = await em.json<{ deployedFlow: { crn: string; deploymentName: string } }>([
      'df',
      'deployed-flows',
      'describe',
      '--deployment-crn',
      d.crn,
      '--deployed-flow-crn',
      flows.deployedFlows[0]?.crn ?? '',
    ]);
    expect(flow.deployedFlow.deploymentName).toBe('seen-by-df');
    const table = await em.cli(['df', 'services', 'list', '--output', 'table']);
    expect(table.stdout).toMatch(/sales-env .*GOOD_HEALTH/);
  });

  test('df deployments create runs the steps cdp runs, against the emulator: a request from df, its details, the workload call, then --wait reads df', async () => {
    const services = await em.json<{ services: Svc[] }>(['df', 'services', 'list']);
    const sales = services.services.find((x) => x.environmentCrn === ENV);
    const account = ENV.split(':')[4] ?? '';
    let created: RunResult | undefined;
    const calls = await callsOf(async () => {
      created = await em.cli([
        'df',
        'deployments',
        'create',
        '--service-crn',
        sales?.crn ?? '',
        '--flow-version-crn',
        `crn:cdp:df:us-west-1:${account}:flow:orders/v.2`,
        '--deployment-name',
        'composed-orders',
        '--wait',
        ...FAST,
      ]);
    });
    expect(created?.code).toBe(0);
    const out = JSON.parse(created?.stdout ?? '') as { deployment: Deployment & { flowName: string; flowVersion: number } };
    expect(out.deployment).toMatchObject({ name: 'composed-orders', flowName: 'orders', flowVersion: 2, status: { state: 'GOOD_HEALTH' } });
    expect(calls.slice(0, 4)).toEqual([
      'df initiateDeployment',
      'df listDeployableServicesForNewDeployments',
      'dfworkload getDeploymentRequestDetails',
      'dfworkload createDeployment',
    ]);
    expect(new Set(calls.slice(4))).toEqual(new Set(['df describeDeployment']));
  });

  test('a service with deployments is not disabled unless they go with it; one is disabled (kept NOT_ENABLED) and enabled again with --wait', async () => {
    const services = await em.json<{ services: Svc[] }>(['df', 'services', 'list']);
    const sales = services.services.find((x) => x.name === 'sales-env');
    const refused = await em.cli(['df', 'services', 'disable', '--service-crn', sales?.crn ?? '', '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('FAILED_PRECONDITION');
    const idle = services.services.find((x) => x.name === 'analytics-azure');
    const off = await em.cli(['df', 'services', 'disable', '--service-crn', idle?.crn ?? '', '--yes', '--wait', ...FAST]);
    expect(off.code).toBe(0);
    expect(off.stderr).toContain('DISABLING');
    // The wait ends on NOT_ENABLED: the service stays, not enabled, until it is reset or enabled again.
    expect(off.stderr).toContain('NOT_ENABLED');
    const kept = await em.json<{ service: Svc }>(['df', 'services', 'describe', '--service-crn', idle?.crn ?? '']);
    expect(kept.service).toMatchObject({ crn: idle?.crn, status: { state: 'NOT_ENABLED' } });
    const enable = [
      'df',
      'services',
      'enable',
      '--environment-crn',
      idle?.environmentCrn ?? '',
      '--min-k8s-node-count',
      '3',
      '--max-k8s-node-count',
      '6',
      '--use-public-load-balancer',
    ];
    const on = await em.json<{ service: Svc }>([...enable, '--wait', ...FAST]);
    expect(on.service).toMatchObject({ crn: idle?.crn, name: 'analytics-azure', status: { state: 'GOOD_HEALTH' } });
    const again = await em.cli(enable);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('ALREADY_EXISTS');
  });

  test('a df refusal is answered once (not retried), naming the operation', async () => {
    // df emulates every operation (no 501 left to show): a project that does not exist is NOT_FOUND, not retried.
    const r = await em.cli(['df', 'projects', 'describe', '--project-crn', 'crn:cdp:df:us-west-1:acct:project:none', '--debug']);
    expect(r.code).toBe(1); // a request the service refused (see docs/scripting.md)
    expect(r.stderr).toMatch(/df describeProject/);
    expect(r.stderr.split('\n').filter((l) => /> POST \S+\/api\/v1\/df\/describeProject/.test(l))).toHaveLength(1);
  });
});

describe('flows in a deployment', () => {
  test('add, stop, start and change version with --wait', async () => {
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
    const flow = ['--deployed-flow-crn', added.deployedFlow.crn];
    // A new flow imports first; stopping it is refused until it runs, so wait for that.
    const running = await em.json<{ deployedFlow: { status: { state: string } } }>([
      'dataflow',
      'flows',
      'start',
      ...base,
      ...flow,
      '--wait',
      ...FAST,
    ]);
    expect(running.deployedFlow.status.state).toBe('GOOD_HEALTH');
    const stopped = await em.json<{ deployedFlow: { status: { state: string } } }>([
      'dataflow',
      'flows',
      'stop',
      ...base,
      ...flow,
      '--wait',
      ...FAST,
    ]);
    expect(stopped.deployedFlow.status.state).toBe('FLOW_STOPPED');
    const started = await em.json<{ deployedFlow: { status: { state: string } } }>([
      'dataflow',
      'flows',
      'start',
      ...base,
      ...flow,
      '--wait',
      ...FAST,
    ]);
    expect(started.deployedFlow.status.state).toBe('GOOD_HEALTH');
    const changed = await em.json<{ deployedFlow: { status: { state: string }; flowVersion: number } }>([
      'dataflow',
      'flows',
      'change-version',
      ...base,
      ...flow,
      '--wait',
      ...FAST,
    ]);
    expect(changed.deployedFlow.status.state).toBe('GOOD_HEALTH');
    const cfg = await em.json<{ deployedFlowConfiguration: { configurationVersion: number } }>([
      'dataflow',
      'flows',
      'configuration',
      ...base,
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
