/**
 * What a new user found, side by side with `cdp` (issue 28, item 5), each
 * through the real binary against the emulator: the runtime a data lake
 * gets and what its help and a Data Hub say of it; `--wait` lines naming
 * things as users know them; an unknown field of `--cli-input-json` answered
 * with the fields there are (cdpcli's validate.py); `configure get` and
 * `configure list` showing secrets as `cdp` does (cdpcli's configure
 * get.py and list.py); `emulator status --profile`; `emulator export FILE`;
 * the text columns of a model newer than `cdp` 0.9.158, in migrating.md;
 * `login` at an emulator's console for a new profile; `emulator start
 * --empty` on a data directory that is no longer empty.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readIni } from '../../src/lib/core/config.js';
import { plainBrowser, urlCatcher, type UrlCatcher } from '../helpers/browser.js';
import {
  BIN,
  baseEnv,
  consoleSecret,
  FAST_WAIT,
  ROOT,
  run,
  SALES_LAKE,
  start,
  startEmulator,
  tempHome,
  type TestEmulator,
} from '../helpers/cli.js';
import { plain, ptyAvailable, spawnPty } from '../helpers/pty.js';

let em: TestEmulator;

beforeAll(async () => {
  em = await startEmulator();
  // A data lake as a new user makes it, without --runtime: what the Data Hub and DE tests build on.
  const lake = await em.cli([...SALES_LAKE, ...FAST_WAIT]);
  if (lake.code !== 0) throw new Error(`datalake create failed: ${lake.stderr}`);
});

afterAll(async () => {
  await em?.stop();
});

/** The profile the emulator wrote, as the files hold it. */
const emulatorProfile = (): { config: Record<string, string>; credentials: Record<string, string> } => ({
  config: (readIni(join(em.home, '.cdp', 'config'))['profile emulator'] ?? {}) as Record<string, string>,
  credentials: (readIni(join(em.home, '.cdp', 'credentials')).emulator ?? {}) as Record<string, string>,
});

describe('the runtime a data lake gets: help, default and the Data Hub check agree', () => {
  test('the default is the runtime `datalake runtimes list` marks; a newer hub is refused saying how to get there', async () => {
    // The official model says only "Cloudera Runtime version." of --runtime, and listRuntimes marks one defaultRuntimeVersion.
    const help = await em.raw(['datalake', 'create', 'aws', '--help']);
    expect(help.code).toBe(0);
    const runtimeHelp = /--runtime <string>\s+([\s\S]*?)\n {2}--/.exec(help.stdout)?.[1]?.replace(/\s+/g, ' ') ?? '';
    expect(runtimeHelp).not.toMatch(/default: the newest/);
    expect(runtimeHelp).toMatch(/default: the one `datalake runtimes list` marks as the default/);

    const runtimes = await em.json<{ versions: Array<{ runtimeVersion: string; defaultRuntimeVersion: boolean }> }>([
      'datalake',
      'runtimes',
      'list',
    ]);
    const marked = runtimes.versions.find((v) => v.defaultRuntimeVersion)?.runtimeVersion ?? '';
    const newest = runtimes.versions.map((v) => v.runtimeVersion).at(-1) ?? '';
    expect(marked).not.toBe(newest);

    const lake = await em.json<{ datalake: { imageDetails: { componentVersions: { cdp: string } } } }>([
      'datalake',
      'describe',
      '--datalake-name',
      'sales-lake',
    ]);
    expect(lake.datalake.imageDetails.componentVersions.cdp).toBe(marked);

    const hub = await em.cli([
      'datahub',
      'clusters',
      'create',
      'aws',
      '--cluster-name',
      'etl-newer',
      '--environment',
      'sales-env',
      '--cluster-definition',
      `${newest} - Data Engineering for AWS`,
    ]);
    expect(hub.code).toBe(1);
    expect(hub.stderr).toContain(`data lake sales-lake runs runtime ${marked}; a cluster of runtime ${newest} needs the data lake on`);
    expect(hub.stderr).toContain(`datalake upgrade start --datalake-name sales-lake --runtime ${newest}`);
    expect(hub.stderr).toContain(`or create the cluster from a ${marked} cluster definition`);
    const defHelp = await em.raw(['datahub', 'clusters', 'create', 'aws', '--help']);
    expect(defHelp.stdout.replace(/\s+/g, ' ')).toContain("its runtime may be no newer than the data lake's");
  });
});

describe('--wait lines name what is waited on as users know it', () => {
  /**
   * Runs a command with --wait and checks every line the wait wrote on
   * stderr (no terminal: one line a change) calls the work `<command> <name>`.
   */
  async function waitedAs(args: readonly string[], command: string, name: string | RegExp): Promise<string[]> {
    const r = await em.cli([...args, ...FAST_WAIT]);
    expect([r.code, r.stderr]).toEqual([0, expect.any(String)]);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith(command));
    expect(lines.length).toBeGreaterThan(0);
    const label = typeof name === 'string' ? name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : name.source;
    for (const line of lines) expect(line).toMatch(new RegExp(`^${command} (${label}): [A-Za-z_]+ after `));
    return lines;
  }

  test('a Data Hub by its name, not the UUID of its CRN', async () => {
    const definition = '7.2.18 - Data Engineering for AWS';
    const create = ['datahub', 'clusters', 'create', 'aws', '--cluster-name', 'etl-named', '--environment', 'sales-env'];
    await waitedAs([...create, '--cluster-definition', definition], 'datahub clusters create aws', 'etl-named');
  });

  test('a DataFlow service by its environment, a deployment by its name', async () => {
    const services = await em.json<{ services: Array<{ crn: string; name: string }> }>(['df', 'services', 'list']);
    const service = services.services.find((s) => s.name === 'sales-env')?.crn ?? '';
    const sizes = ['--min-k8s-node-count', '3', '--max-k8s-node-count', '12'];
    await waitedAs(['df', 'services', 'update', '--service-crn', service, ...sizes], 'df services update', 'sales-env');

    const flowFile = join(em.home, 'feed.json');
    writeFileSync(flowFile, JSON.stringify({ flowContents: { name: 'sales-feed', version: 1, processors: [] } }));
    const flow = await em.json<{ crn: string }>(['df', 'flows', 'import', '--file', flowFile, '--name', 'sales-feed']);
    const deploy = ['df', 'deployments', 'create', '--service-crn', service, '--flow-version-crn', `${flow.crn}/v.1`];
    await waitedAs([...deploy, '--deployment-name', 'sales-feed-prod'], 'df deployments create', 'sales-feed-prod');
  });

  test('a DE virtual cluster by its name, not the id of the service it is in', async () => {
    const sizes = ['--instance-type', 'm5.2xlarge', '--minimum-instances', '1', '--maximum-instances', '20'];
    await waitedAs(['de', 'services', 'enable', '--name', 'sales-de', '--env', 'sales-env', ...sizes], 'de services enable', 'sales-de');
    const services = await em.json<{ services: Array<{ clusterId: string; name: string }> }>(['de', 'services', 'list']);
    const clusterId = services.services.find((s) => s.name === 'sales-de')?.clusterId ?? '';
    const quota = ['--cpu-requests', '8', '--memory-requests', '32Gi'];
    await waitedAs(['de', 'vcs', 'create', '--cluster-id', clusterId, '--name', 'etl-vc', ...quota], 'de vcs create', 'etl-vc');
    const vcs = await em.json<{ vcs: Array<{ vcId: string; vcName: string }> }>(['de', 'vcs', 'list', '--cluster-id', clusterId]);
    const vcId = vcs.vcs.find((v) => v.vcName === 'etl-vc')?.vcId ?? '';
    // By its name while it is there to say it, else by its own id; never by the service's cluster id.
    const deleted = await waitedAs(
      ['de', 'vcs', 'delete', '--cluster-id', clusterId, '--vc-id', vcId, '--yes'],
      'de vcs delete',
      new RegExp(`etl-vc|${vcId}`),
    );
    for (const line of deleted) expect(line).not.toContain(clusterId);
  });
});

describe('an unknown field in --cli-input-json', () => {
  test("is answered with the fields there are, as cdp's validator lists them, and nothing is sent", async () => {
    // cdpcli/validate.py: 'Unknown parameter in input: "pageSizee", must be one of: userIds, pageSize, startingToken'
    const before = await em.json<{ users: unknown[] }>(['iam', 'users', 'list']);
    const r = await em.cli(['iam', 'list-users', '--cli-input-json', '{"pageSizee": 1}']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'unknown field "pageSizee" in the input (did you mean "pageSize"?); must be one of: userIds, pageSize, startingToken',
    );
    const group = await em.cli(['iam', 'groups', 'create', '--cli-input-json', '{"groupName": "ops", "members": ["a"]}']);
    expect(group.code).toBe(2);
    expect(group.stderr).toContain('unknown field "members" in the input; must be one of: groupName, syncMembershipOnUserLogin');
    // Inside an object of the request: the fields of that object.
    const nested = await em.cli([
      'datalake',
      'create',
      'aws',
      '--cli-input-json',
      JSON.stringify({
        datalakeName: 'input-lake',
        environmentName: 'sales-env',
        cloudProviderConfiguration: {
          instanceProfile: 'arn:aws:iam::1:instance-profile/x',
          storageBucketLocation: 's3a://b/l',
          bucket: 'x',
        },
      }),
    ]);
    expect(nested.code).toBe(2);
    expect(nested.stderr).toContain(
      '--cloud-provider-configuration: unknown field "bucket"; must be one of: instanceProfile, storageBucketLocation',
    );
    expect((await em.json<{ groups: Array<{ groupName: string }> }>(['iam', 'groups', 'list'])).groups).not.toContainEqual(
      expect.objectContaining({ groupName: 'ops' }),
    );
    expect((await em.json<{ users: unknown[] }>(['iam', 'users', 'list'])).users).toHaveLength(before.users.length);
  });
});

describe('configure get and list show secrets as cdp does', () => {
  test('into a pipe, `configure get cdp_private_key` prints the key as the file holds it', async () => {
    const { credentials } = emulatorProfile();
    const r = await em.raw(['configure', 'get', 'cdp_private_key', '--profile', 'emulator']);
    expect([r.code, r.stdout]).toEqual([0, `${credentials.cdp_private_key}\n`]);
    expect(r.stdout).not.toContain('****');
  });

  test('`configure list` masks the access key id too: sixteen stars and the last four characters', async () => {
    const { credentials } = emulatorProfile();
    const id = credentials.cdp_access_key_id ?? '';
    const key = credentials.cdp_private_key ?? '';
    const r = await em.raw(['configure', 'list', '--profile', 'emulator']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^cdp_access_key_id +\\*{16}${id.slice(-4)} `, 'm'));
    expect(r.stdout).toMatch(new RegExp(`^cdp_private_key +\\*{16}${key.slice(-4).replace(/[+/=]/g, '\\$&')} `, 'm'));
    expect(r.stdout).not.toContain(id);
  });

  (ptyAvailable() ? test : test.skip)('on a terminal the key is masked, and stderr says how to see it', async () => {
    const { credentials } = emulatorProfile();
    const key = credentials.cdp_private_key ?? '';
    const s = spawnPty([process.execPath, BIN, 'configure', 'get', 'cdp_private_key', '--profile', 'emulator'], {
      env: { ...baseEnv(em.home), CI: undefined },
    });
    expect(await s.exit()).toBe(0);
    const shown = plain(s.output());
    expect(shown).toContain(`****************${key.slice(-4)}`);
    expect(shown).not.toContain(key);
    expect(shown).toContain('--show-secrets');
  });
});

describe('emulator status --profile', () => {
  test('shows the emulator that writes that profile, and refuses one no emulator writes', async () => {
    const r = await em.raw(['emulator', 'status', '--profile', 'emulator', '--output', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ profile: 'emulator', port: em.port });
    const none = await em.raw(['emulator', 'status', '--profile', 'nobody']);
    expect([none.code, none.stderr]).toEqual([1, expect.stringContaining('no running emulator writes profile "nobody"')]);
  });
});

describe('emulator export FILE', () => {
  test('points at --file, and writes nothing', async () => {
    const target = join(em.home, 'state.json');
    const r = await em.raw(['emulator', 'export', target]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"emulator export" takes no arguments: give "${target}" as --file ${target}`);
    expect(r.stderr).not.toContain('not a cdpctl command');
    expect(() => readFileSync(target)).toThrow();
    const json = await em.raw(['emulator', 'import', 'state.json', '--output', 'json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stderr).error.message).toContain('give "state.json" as --file state.json');
  });
});

describe('--output text of a model newer than cdp 0.9.158', () => {
  test("a DE service's version is a text column cdp 0.9.158 does not print, and migrating.md says so", async () => {
    const text = await em.cli(['de', 'services', 'describe', '--cluster-id', await deCluster(), '--output', 'text']);
    expect(text.code).toBe(0);
    const version = (await em.json<{ service: { version: string } }>(['de', 'services', 'describe', '--cluster-id', await deCluster()]))
      .service.version;
    expect(version).toBeTruthy();
    expect(text.stdout.split('\n')[0]?.split('\t')).toContain(version);
    const doc = readFileSync(join(ROOT, 'docs', 'migrating.md'), 'utf8');
    expect(doc).toMatch(/\| `de services describe` +\| `cdp de describe-service` +\| `service\.version` +\|/);
    expect(doc).toMatch(/\| `dw vws list` +\| `cdp dw list-vws` +\| `vws\[\]\.imageVersion` +\|/);
  });

  /** The cluster id of a DE service (enabled by the --wait test above, or here). */
  async function deCluster(): Promise<string> {
    const list = await em.json<{ services?: Array<{ clusterId: string }> }>(['de', 'services', 'list']);
    return list.services?.[0]?.clusterId ?? '';
  }
});

describe("login at an emulator's console for a new profile", () => {
  let catcher: UrlCatcher;
  beforeAll(async () => {
    catcher = await urlCatcher();
  });
  afterAll(async () => {
    await catcher.close();
  });

  const hidden = (html: string, name: string): string => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
  const adminChoice = (html: string): string =>
    /value="([^"]+)"[^>]*>\s*<label[^>]*>(?:(?!<\/label>).)*admin@example\.com/s.exec(html)?.[1] ?? '';
  /** Signs in as the admin on the console page the login opened (a browser keeps the cookie it sets); the page the browser ends on. */
  async function signIn(): Promise<string> {
    const browser = plainBrowser();
    const page = (await browser.visit(await catcher.next())).html;
    const done = await browser.submit(`http://localhost:${em.port}/consoleauth/login`, {
      request: hidden(page, 'request'),
      user: adminChoice(page),
      action: 'signin',
    });
    return done.html;
  }
  const login = (profile: string, ...more: string[]): ReturnType<typeof start> =>
    start(
      [
        'login',
        '--profile',
        profile,
        '--login-url',
        // The console's link, with its secret (as `emulator start` shows it, and emulator.json keeps it).
        `http://localhost:${em.port}/consoleauth/login?token=${consoleSecret(em.dataDir)}`,
        '--account-id',
        emulatorProfile().config.account_id ?? '',
        ...more,
      ],
      { home: em.home, env: { BROWSER: catcher.browser, CDPCTL_MAX_ATTEMPTS: '1' } },
    );

  test('the key is checked at that emulator, not at the production host, and saved', async () => {
    const running = login('fresh');
    const page = await signIn();
    expect(page).toContain('Signed in');
    const r = await running.done;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Signed in as admin@example\.com \(user, account admin\)/);
    expect(r.stderr).toContain(`profile "fresh" names no endpoint`);
    expect(r.stderr).toContain(`cdpctl configure set endpoint_url http://localhost:${em.port}/ --profile fresh`);
    const saved = readIni(join(em.home, '.cdp', 'credentials')).fresh;
    expect(saved?.cdp_access_key_id).toBeTruthy();
    // And the key works there.
    const me = await em.raw(['iam', 'users', 'get', '--profile', 'fresh', '--endpoint-url', `http://localhost:${em.port}/`]);
    expect(me.code).toBe(0);
  });

  test('where the check fails, the page and the terminal say why; nothing is saved', async () => {
    const before = readFileSync(join(em.home, '.cdp', 'credentials'), 'utf8');
    // An endpoint named on the line is where the key is checked: here one that answers nothing.
    const running = login('elsewhere', '--endpoint-url', 'http://localhost:9/');
    const page = await signIn();
    const r = await running.done;
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /LOGIN_FAILED: the access key \S+ the console sent could not be checked at http:\/\/localhost:9\/, so it was not saved: /,
    );
    expect(page).toContain('Sign-in failed');
    expect(page).toMatch(/could not be checked at http:\/\/localhost:9\/, so it was not saved: \S/);
    expect(readFileSync(join(em.home, '.cdp', 'credentials'), 'utf8')).toBe(before);
  });
});

describe('emulator start --empty on a data directory that is no longer empty', () => {
  test('is refused with exit 2, naming what the account holds; without --empty it starts', async () => {
    const home = tempHome('cdpctl-empty-');
    const dir = join(home, 'emu');
    const startLine = ['emulator', 'start', '--detach', '--port', '0', '--data-dir', dir, '--time-scale', '1000'];
    try {
      expect((await run([...startLine, '--empty'], { home })).code).toBe(0);
      expect((await run(['iam', 'groups', 'create', '--group-name', 'ops', '--profile', 'emulator'], { home })).code).toBe(0);
      expect((await run(['emulator', 'stop', '--data-dir', dir], { home })).code).toBe(0);
      const refused = await run([...startLine, '--empty'], { home });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('the account of this data directory is no longer empty: it holds');
      expect(refused.stderr).toContain('1 iam.group');
      expect(refused.stderr).toContain('start without --empty to keep what it holds');
      const kept = await run(startLine, { home });
      expect(kept.code).toBe(0);
      const groups = await run(['iam', 'groups', 'list', '--profile', 'emulator', '--output', 'json'], { home });
      expect(JSON.parse(groups.stdout)).toMatchObject({ groups: [expect.objectContaining({ groupName: 'ops' })] });
      // An account made empty and still empty may be started --empty again (its admin's keys do not count).
      expect((await run(['emulator', 'stop', '--data-dir', dir], { home })).code).toBe(0);
      const clean = join(home, 'clean');
      const cleanLine = ['emulator', 'start', '--detach', '--port', '0', '--data-dir', clean, '--empty', '--profile', 'clean'];
      expect((await run(cleanLine, { home })).code).toBe(0);
      expect((await run(['emulator', 'stop', '--data-dir', clean], { home })).code).toBe(0);
      expect((await run(cleanLine, { home })).code).toBe(0);
      expect((await run(['emulator', 'stop', '--data-dir', clean], { home })).code).toBe(0);
    } finally {
      await run(['emulator', 'stop', '--data-dir', dir], { home });
      rmSync(home, { recursive: true, force: true });
    }
  });
});
