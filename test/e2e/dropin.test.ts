/**
 * cdpctl as a drop-in for the official `cdp` CLI (issue 12), through
 * bin/run.js against a recording server and the emulator: --query that never
 * costs a response, `--output text` byte for byte as `cdp` prints it, endpoint
 * keys and form factors, every global option anywhere on the line, the
 * official service names, `cdp` habits (skeletons, `help`, --cli-input-json),
 * paging flags with --no-paginate, the User-Agent, error details, and
 * DataFlow requests as `cdp` sends them.
 *
 * The expected text outputs were taken from the official CLI 0.9.158 run
 * against the same answers (and, for --query results, from its text
 * formatter over the Python JMESPath library's results).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueKey } from '../../src/lib/emulator/keys.js';
import { environmentCrns, run, startEmulator, tempHome, type RunResult, type TestEmulator } from '../helpers/cli.js';
import { startRecordingServer, type Recorded, type RecordingServer } from '../helpers/recording-server.js';

const key = issueKey('V2');
const home = tempHome('cdpctl-dropin-');
const env = { CDP_ACCESS_KEY_ID: 'dropin-key', CDP_PRIVATE_KEY: key.privateKey };
let server: RecordingServer;
let em: TestEmulator;
/** An environment the emulator knows (it has a fixed set). */
let SALES = '';

/** cdpctl against the recording server, as a public-cloud URL (`http://localhost:P/`). */
const cli = (args: readonly string[], input?: string): Promise<RunResult> =>
  run([...args, '--endpoint-url', server.localUrl], { home, env, input });
const last = (): Recorded | undefined => server.requests.at(-1);

const SSH_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host';

const USER = {
  userId: 'u-1',
  crn: 'crn:altus:iam:us-west-1:acct:user:u-1',
  email: 'a@example.com',
  firstName: 'Ann',
  lastName: 'Lee',
  creationDate: '2026-11-22T11:13:37.702Z',
  accountAdmin: true,
  identityProviderCrn: 'crn:idp',
  lastInteractiveLogin: '2026-11-22T11:13:37Z',
  workloadUsername: 'ann',
  status: 'ACTIVE',
  workloadPasswordDetails: { isPasswordSet: false, passwordExpirationDate: '2027-01-01T00:00:00.5+02:00' },
  // Not in the model: the official CLI's parser leaves it out of text output.
  extraField: 'x',
};

/** Three users with differing keys, served two per page. */
const USERS = [
  { userId: 'u-1', crn: 'c1', email: 'a@x', accountAdmin: false, creationDate: '2026-01-02T03:04:05.000Z' },
  { userId: 'u-2', crn: 'c2', firstName: 'Bo', workloadPasswordDetails: { isPasswordSet: true } },
  { userId: 'u-3', crn: 'c3', email: 'c@x', status: 'ACTIVE' },
];

const DATALAKE = {
  datalake: {
    crn: 'crn:dl',
    datalakeName: 'sales-lake',
    status: 'RUNNING',
    shape: 'LIGHT_DUTY',
    creationDate: '2026-03-04T05:06:07.000001Z',
    enableRangerRaz: false,
    instanceGroups: [
      {
        name: 'master',
        instances: [
          {
            id: 'i-1',
            state: 'HEALTHY',
            sshPort: 22,
            clouderaManagerServer: true,
            attachedVolumes: [{ count: 2, size: 100, volumeType: 'gp2' }],
          },
          { id: 'i-2', state: 'UNHEALTHY', privateIp: '10.0.0.2', statusReason: 'tab\there' },
        ],
        availabilityZones: ['us-west-2a', 'us-west-2b'],
        recipes: [],
      },
      { name: 'idbroker', instances: [{ id: 'i-3', state: 'HEALTHY' }] },
    ],
    productVersions: [
      { name: 'CDH', version: '7.2.18' },
      { name: 'CM', version: '7.11.3' },
    ],
    tags: [{ key: 'team', value: 'data' }],
    endpoints: {
      endpoints: [
        { serviceName: 'RANGER', serviceUrl: 'https://r', mode: 'PAM', open: true, displayName: 'Ranger', knoxService: 'RANGER' },
      ],
    },
    unknown: { a: 1 },
  },
};

beforeAll(async () => {
  server = await startRecordingServer((req) => {
    switch (req.path) {
      case '/iam/getUser':
        if (req.json.userId === 'nobody')
          return { status: 404, body: { code: 'NOT_FOUND', message: 'user nobody not found' }, headers: { 'x-cdp-request-id': 'req-7' } };
        return { body: { user: USER } };
      case '/iam/listUsers': {
        const start = Number(req.json.startingToken ?? 0);
        const size = Math.min(Number(req.json.pageSize ?? 100), 2);
        const end = Math.min(start + size, USERS.length);
        return { body: { users: USERS.slice(start, end), ...(end < USERS.length ? { nextToken: String(end) } : {}) } };
      }
      case '/iam/listGroupsForUser':
        return { body: { groupCrns: ['g1', 'g2'] } };
      case '/iam/getAccount':
        return {
          body: {
            account: {
              clouderaSSOLoginEnabled: true,
              clouderaSSOAllLoginEnabled: false,
              workloadPasswordPolicy: { maxPasswordLifetimeDays: 0, minPasswordLength: 8 },
            },
          },
        };
      case '/iam/createMachineUserAccessKey':
        return {
          body: {
            accessKey: { accessKeyId: 'ak-1', crn: 'crn:ak-1', actorCrn: 'crn:mu', creationDate: '2026-11-22T11:00:00Z' },
            privateKey: 'ONE-TIME-SECRET',
          },
        };
      case '/api/v1/datalake/describeDatalake':
        return { body: DATALAKE };
      case '/api/v1/datalake/listDatalakes':
        return { body: { datalakes: [{ crn: 'crn:dl', datalakeName: 'ü-lake ✓', status: 'RUNNING' }] } };
      default:
        return { body: {} };
    }
  });
  em = await startEmulator();
  SALES = (await environmentCrns(em))['sales-env'] ?? '';
});

afterAll(async () => {
  await server?.close();
  await em?.stop();
});

describe('--query never costs a response (item 1)', () => {
  test('a syntax error exits 2 before anything is sent', async () => {
    const before = server.requests.length;
    const r = await cli([
      'iam',
      'access-keys',
      'create-for-machine-user',
      '--machine-user-name',
      'bot',
      '--query',
      '[accessKey.accessKeyId, privateKey',
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^INVALID_QUERY: --query "\[accessKey.accessKeyId, privateKey" is not valid JMESPath/);
    expect(server.requests.length).toBe(before);
  });

  test('an expression that fails on the response prints nothing on stdout (exit 2); --debug shows the response', async () => {
    const r = await cli(['iam', 'create-machine-user-access-key', '--machine-user-name', 'bot', '--query', 'length(nope)']);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^INVALID_QUERY: --query "length\(nope\)" failed on the response/);
    expect(r.stderr).toContain('--debug shows the response');
    expect(r.stderr).not.toContain('ONE-TIME-SECRET');
    // The one-time secret is not lost: the error carries the response for --debug.
    const shown = await cli(['iam', 'create-machine-user-access-key', '--machine-user-name', 'bot', '--query', 'length(nope)', '--debug']);
    expect([shown.code, shown.stdout]).toEqual([2, '']);
    expect(shown.stderr).toMatch(/INVALID_QUERY: [^\n]*\n {2}Nothing was printed[^\n]*\n {2}\{\n {4}"accessKey"/);
    expect(shown.stderr).toContain('"privateKey": "ONE-TIME-SECRET"');
    const json = await cli([
      'iam',
      'create-machine-user-access-key',
      '--machine-user-name',
      'bot',
      '--query',
      'length(nope)',
      '--debug',
      '--output',
      'json',
    ]);
    const line = json.stderr.split('\n').find((l) => l.startsWith('{"error"')) ?? '{}';
    expect(JSON.parse(line)).toMatchObject({ error: { code: 'INVALID_QUERY', debug: expect.stringContaining('ONE-TIME-SECRET') } });
  });

  test('backtick literals that are not JSON are strings, as in the AWS and cdp habit', async () => {
    const r = await cli(['iam', 'list-users', '--query', 'users[?email==`a@x`].userId', '--output', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(['u-1']);
    const spaced = await cli(['iam', 'list-users', '--query', 'users[?status==` ACTIVE`].userId', '--output', 'text']);
    expect(spaced.stdout).toBe('u-3\n');
  });
});

describe('--output text as the official CLI prints it (item 2)', () => {
  const text = async (args: readonly string[]): Promise<string> => {
    const r = await cli([...args, '--output', 'text']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return r.stdout;
  };

  test('a nested dict: scalars in sorted key order under the upper-cased key, Python values and date-times', async () => {
    expect(await text(['iam', 'get-user'])).toBe(
      'USER\tTrue\t2026-11-22 11:13:37.702000+00:00\tcrn:altus:iam:us-west-1:acct:user:u-1\ta@example.com\tAnn\tcrn:idp\t' +
        '2026-11-22 11:13:37+00:00\tLee\tACTIVE\tu-1\tann\n' +
        'WORKLOADPASSWORDDETAILS\tFalse\t2027-01-01 00:00:00.500000+02:00\n',
    );
    expect(await text(['iam', 'get-account'])).toBe('ACCOUNT\tFalse\tTrue\nWORKLOADPASSWORDPOLICY\t0\t8\n');
  });

  test('a paged list of dicts with differing keys: pages merged, one row per item over the union of keys', async () => {
    expect(await text(['iam', 'list-users'])).toBe(
      'USERS\tFalse\t2026-01-02 03:04:05+00:00\tc1\ta@x\t\t\tu-1\n' +
        'USERS\t\t\tc2\t\tBo\t\tu-2\n' +
        'WORKLOADPASSWORDDETAILS\tTrue\n' +
        'USERS\t\t\tc3\tc@x\t\tACTIVE\tu-3\n',
    );
    // A stopped listing: the token is a scalar of the top dict, so it comes first.
    expect(await text(['iam', 'list-users', '--max-items', '1'])).toBe('1\nUSERS\tFalse\t2026-01-02 03:04:05+00:00\tc1\ta@x\tu-1\n');
  });

  test('scalar lists under a key, deep nesting, an empty answer', async () => {
    expect(await text(['iam', 'list-groups-for-user', '--user-id', 'u-1'])).toBe('GROUPCRNS\tg1\nGROUPCRNS\tg2\n');
    expect(await text(['datalake', 'describe-datalake', '--datalake-name', 'sales-lake'])).toBe(
      [
        'DATALAKE\t2026-03-04 05:06:07.000001+00:00\tcrn:dl\tsales-lake\tFalse\tLIGHT_DUTY\tRUNNING',
        'ENDPOINTS\tRanger\tRANGER\tPAM\tTrue\tRANGER\thttps://r',
        'INSTANCEGROUPS\tmaster',
        'AVAILABILITYZONES\tus-west-2a',
        'AVAILABILITYZONES\tus-west-2b',
        'INSTANCES\tTrue\ti-1\t\t22\tHEALTHY\t',
        'ATTACHEDVOLUMES\t2\t100\tgp2',
        'INSTANCES\t\ti-2\t10.0.0.2\t\tUNHEALTHY\ttab\there',
        'INSTANCEGROUPS\tidbroker',
        'INSTANCES\ti-3\tHEALTHY',
        'PRODUCTVERSIONS\tCDH\t7.2.18',
        'PRODUCTVERSIONS\tCM\t7.11.3',
        'TAGS\tteam\tdata',
        '',
      ].join('\n'),
    );
    expect(await text(['iam', 'delete-user', '--user-id', 'u-1'])).toBe('');
  });

  test('--query results: multiselect lists and hashes, bare scalar lists, None, scalars', async () => {
    const cases: Array<[string, string]> = [
      ['users[].[userId,email,nope]', 'u-1\ta@x\tNone\nu-2\tNone\tNone\nu-3\tc@x\tNone\n'],
      [
        'users[].{a:userId,b:accountAdmin,c:workloadPasswordDetails}',
        "u-1\tFalse\tNone\nu-2\tNone\t{'isPasswordSet': True}\nu-3\tNone\tNone\n",
      ],
      ['users[].userId', 'u-1\tu-2\tu-3\n'],
      ['[users[0].userId,users[0].accountAdmin,users[1].email]', 'u-1\tFalse\tNone\n'],
      ['length(users)', '3\n'],
      ['users[0].creationDate', '2026-01-02 03:04:05+00:00\n'],
    ];
    for (const [query, expected] of cases)
      expect({ query, out: await text(['iam', 'list-users', '--query', query]) }).toEqual({ query, out: expected });
  });

  test('--output tsv keeps the compact rows: one line per item, the model columns', async () => {
    const r = await cli(['iam', 'list-users', '--output', 'tsv']);
    expect(r.code).toBe(0);
    const rows = r.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(3);
    for (const [i, row] of rows.entries()) expect(row.split('\t')).toContain(`u-${i + 1}`);
  });
});

describe('endpoints as the official CLI resolves them (item 3)', () => {
  test('iam reads endpoint_url (%s = iam), the CDP-only services cdp_endpoint_url (%s = api), neither the other', async () => {
    const h = tempHome('cdpctl-endpoints-');
    mkdirSync(join(h, '.cdp'));
    writeFileSync(
      join(h, '.cdp', 'config'),
      `[default]\nendpoint_url = ${server.localUrl}alt/%s/\ncdp_endpoint_url = ${server.localUrl}cdp/%s/\n`,
    );
    const r1 = await run(['iam', 'list-groups-for-user', '--user-id', 'u'], { home: h, env });
    expect(r1.code).toBe(0);
    expect(last()?.path).toBe('/alt/iam/iam/listGroupsForUser');
    const r2 = await run(['datalake', 'list-datalakes'], { home: h, env });
    expect(r2.code).toBe(0);
    expect(last()?.path).toBe('/cdp/api/api/v1/datalake/listDatalakes');
    // Without endpoint_url, iam goes to its own default host, not to cdp_endpoint_url.
    writeFileSync(join(h, '.cdp', 'config'), `[default]\ncdp_endpoint_url = ${server.localUrl}\n`);
    const r3 = await run(['iam', 'get-user', '--debug', '--cli-connect-timeout', '1'], {
      home: h,
      env: { ...env, CDPCTL_MAX_ATTEMPTS: '1' },
    });
    expect(r3.stderr).toContain('> POST https://iamapi.us-west-1.altus.cloudera.com/iam/getUser');
  });

  test('the emulator profile has both keys, so iam and the others reach it; configure list shows both', async () => {
    const config = readFileSync(join(em.home, '.cdp', 'config'), 'utf8');
    expect(config).toContain(`endpoint_url = http://localhost:${em.port}/`);
    expect(config).toContain(`cdp_endpoint_url = http://localhost:${em.port}/`);
    expect((await em.cli(['iam', 'get-user'])).code).toBe(0);
    expect((await em.cli(['datalake', 'list-datalakes'])).code).toBe(0);
    const list = await em.raw(['configure', 'list', '--profile', 'emulator']);
    expect(list.stdout).toMatch(/^endpoint_url\s+http:\/\/localhost:\d+\//m);
    expect(list.stdout).toMatch(/^cdp_endpoint_url\s+http:\/\/localhost:\d+\//m);
  });
});

describe('every global option of the official CLI, anywhere on the line (item 4)', () => {
  test('before, between and after the command words', async () => {
    const before = await em.raw(['--no-paginate', '--profile', 'emulator', 'iam', 'list-users']);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toHaveProperty('users');
    const between = await em.raw(['iam', '--output', 'text', 'list-users', '--profile', 'emulator', '--query', 'users[0].accountAdmin']);
    expect(between).toMatchObject({ code: 0, stdout: 'True\n' });
    // Where a global cannot apply it is accepted with no effect, also by hand-written commands.
    const configure = await em.raw(['--no-paginate', '--cdp-region', 'eu-1', 'configure', 'list', '--profile', 'emulator', '--deprecated']);
    expect(configure.code).toBe(0);
    const get = await em.raw([
      'iam',
      'get-user',
      '--no-paginate',
      '--deprecated',
      '--color',
      'off',
      '--force-ipv4',
      '--profile',
      'emulator',
    ]);
    expect(get.code).toBe(0);
  });

  test('--form-factor and the public URL test: a public-only service is refused on a private-cloud URL', async () => {
    const priv = await run(['datalake', 'list-datalakes', '--endpoint-url', server.url], { home, env });
    expect(priv.code).toBe(2);
    expect(priv.stderr).toContain('The command datalake is not available under the private CDP form factor');
    const forced = await run(['datalake', 'list-datalakes', '--endpoint-url', server.url, '--form-factor', 'public'], { home, env });
    expect(forced.code).toBe(0);
    // iam exists in both form factors.
    expect((await run(['iam', 'get-account', '--endpoint-url', server.url], { home, env })).code).toBe(0);
    expect((await cli(['compute', 'list-clusters', '--form-factor', 'private'])).code).toBe(0);
  });

  test('--ensure-ascii escapes non-ASCII text in JSON; --no-parameter-expansion sends file:// as written', async () => {
    const plain = await cli(['datalake', 'list-datalakes']);
    expect(plain.stdout).toContain('ü-lake ✓');
    const ascii = await cli(['datalake', 'list-datalakes', '--ensure-ascii']);
    expect(ascii.stdout).toContain('\\u00fc-lake \\u2713');
    expect(JSON.parse(ascii.stdout)).toEqual(JSON.parse(plain.stdout));
    const file = join(home, 'desc.txt');
    writeFileSync(file, 'from a file');
    const args = ['iam', 'add-ssh-public-key', '--public-key', SSH_KEY, '--description', `file://${file}`];
    await cli(args);
    expect(last()?.json).toEqual({ publicKey: SSH_KEY, description: 'from a file' });
    await cli([...args, '--no-parameter-expansion']);
    expect(last()?.json).toEqual({ publicKey: SSH_KEY, description: `file://${file}` });
  });

  test('--access-token sends one bearer token instead of signing; --auth-config supplies the credentials', async () => {
    for (const token of ['tok-abc', 'Bearer tok-abc']) {
      const r = await cli(['iam', 'get-account', '--access-token', token]);
      expect(r.code).toBe(0);
      expect(last()?.headers.authorization).toBe('Bearer tok-abc');
      expect(last()?.headers['x-altus-auth']).toBeUndefined();
    }
    const conf = join(home, 'auth.json');
    writeFileSync(conf, JSON.stringify({ access_key_id: 'from-auth-config', private_key: key.privateKey }));
    const r = await run(['iam', 'get-account', '--endpoint-url', server.localUrl, '--auth-config', conf], { home });
    expect(r.code).toBe(0);
    const auth = String(last()?.headers['x-altus-auth']);
    expect(Buffer.from(auth.split('.')[0] ?? '', 'base64url').toString()).toContain('"access_key_id": "from-auth-config"');
  });
});

describe('the official service names as topics (item 5)', () => {
  test('cloudprivatelinks, dfworkload and lakehouseopt run the hidden aliases', async () => {
    const pl = await em.cli(['cloudprivatelinks', 'list-private-link-services-for-region', '--region', 'us-west-2']);
    expect(pl.code).toBe(0);
    const df = await em.cli(['dfworkload', 'list-nifi-versions', '--environment-crn', SALES]);
    expect(df.code).toBe(0);
    expect(JSON.parse(df.stdout)).toHaveProperty('nifiVersions');
    const lh = await em.cli(['lakehouseopt', 'get-timezones']);
    expect(lh.code).toBe(0);
    const help = await em.raw(['cloudprivatelinks', '--help']);
    expect(help.stdout).toContain('cdpctl privatelink COMMAND');
  });
});

describe('cdp habits (item 6)', () => {
  test('--generate-cli-skeleton prints the request (input, the default) or the response (output) and sends nothing', async () => {
    const before = server.requests.length;
    const input = await cli(['iam', 'create-group', '--generate-cli-skeleton']);
    expect(JSON.parse(input.stdout)).toEqual({ groupName: '', syncMembershipOnUserLogin: true });
    expect(JSON.parse((await cli(['iam', 'create-group', '--generate-cli-skeleton', 'input'])).stdout)).toEqual(JSON.parse(input.stdout));
    const output = await cli(['iam', 'get-user', '--generate-cli-skeleton', 'output']);
    expect(Object.keys((JSON.parse(output.stdout) as { user: object }).user)).toEqual(
      expect.arrayContaining(['userId', 'crn', 'creationDate']),
    );
    expect(server.requests.length).toBe(before);
  });

  test('help as the last word, at any level', async () => {
    const op = await em.raw(['iam', 'list-users', 'help']);
    expect(op.code).toBe(0);
    expect(op.stdout).toContain('USAGE');
    expect(op.stdout).toContain('list-users');
    const topic = await em.raw(['iam', 'help']);
    expect(topic.code).toBe(0);
    expect(topic.stdout).toContain('iam users');
  });

  test('--cli-input-json takes JSON text or file://, flags win, and file:// values inside are read', async () => {
    const file = join(home, 'key.pub');
    writeFileSync(file, SSH_KEY);
    const req = join(home, 'req.json');
    writeFileSync(req, JSON.stringify({ publicKey: `file://${file}`, description: 'from json' }));
    const r = await cli(['iam', 'add-ssh-public-key', '--cli-input-json', `file://${req}`, '--description', 'from flag']);
    expect(r.code).toBe(0);
    expect(last()?.json).toEqual({ publicKey: readFileSync(file, 'utf8'), description: 'from flag' });
    await cli(['iam', 'create-group', '--cli-input-json', '{"groupName": "inline"}']);
    expect(last()?.json).toEqual({ groupName: 'inline' });
  });
});

describe('paging flags are never dropped (item 7)', () => {
  test("with --no-paginate, --page-size and --starting-token are the request's own", async () => {
    const r = await cli(['iam', 'list-users', '--no-paginate', '--page-size', '1', '--starting-token', '1']);
    expect(r.code).toBe(0);
    expect(last()?.json).toEqual({ pageSize: 1, startingToken: '1' });
    expect(JSON.parse(r.stdout)).toEqual({ users: [USERS[1]], nextToken: '2' });
    await cli(['iam', 'list-users', '--no-paginate']);
    expect(last()?.json).toEqual({});
  });
});

describe('requests and errors (items 8 and 9)', () => {
  test('every request carries a User-Agent naming cdpctl, node and the OS', async () => {
    await cli(['iam', 'get-account']);
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    expect(last()?.headers['user-agent']).toMatch(
      new RegExp(`^cdpctl/${version.replace(/\./g, '\\.')} node/\\d+\\.\\d+\\.\\d+ \\S+/\\S+$`),
    );
  });

  test('a service error keeps its first line and adds status, code, service, operation and request id', async () => {
    const r = await cli(['iam', 'get-user', '--user-id', 'nobody']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'NOT_FOUND: user nobody not found\n  (Status Code: 404; Error Code: NOT_FOUND; Service: iam; Operation: getUser; Request ID: req-7)\n',
    );
    // The emulator gives every answer a fresh request id.
    const a = await em.cli(['iam', 'get-user', '--user-id', 'nobody', '--output', 'json']);
    const b = await em.cli(['iam', 'get-user', '--user-id', 'nobody', '--output', 'json']);
    const ids = [a, b].map((x) => (JSON.parse(x.stderr) as { error: { requestId: string; status: number } }).error);
    expect(ids[0]?.status).toBe(404);
    expect(ids[0]?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]?.requestId).not.toBe(ids[1]?.requestId);
  });
});

describe('DataFlow requests as cdp sends them (item 10)', () => {
  const ENV = 'crn:cdp:environments:us-west-1:acct:environment:dropin';
  const DEP = 'crn:cdp:df:us-west-1:acct:deployment:d1';

  test('--access-token with or without "Bearer " sends exactly one; update-deployment is multi-flow and labels KPI units', async () => {
    for (const token of ['wl-token', 'Bearer wl-token']) {
      const r = await cli([
        'dataflow',
        'update-deployment',
        '--environment-crn',
        ENV,
        '--deployment-crn',
        DEP,
        '--configuration-version',
        '2',
        '--kpis',
        '[{"metricId":"cpuUtilization","alert":{"frequencyTolerance":{"unit":{"id":"MINUTES"},"value":2}}}]',
        '--access-token',
        token,
      ]);
      expect(r.stderr).toBe('');
      const req = last();
      expect(req?.path).toBe('/dfx/api/rpc-v1/deployments/update-deployment');
      expect(req?.headers.authorization).toBe('Bearer wl-token');
      expect(req?.json).toMatchObject({
        cliSupportsMultiFlow: true,
        kpis: [
          {
            metricId: 'cpuUtilization',
            alert: { frequencyTolerance: { unit: { id: 'MINUTES', label: 'Minutes', abbreviation: 'm' }, value: 2 } },
          },
        ],
      });
    }
  });

  test('upload-asset and create-reporting-task send no Environment-Crn header', async () => {
    const file = join(home, 'task.json');
    writeFileSync(file, '{"name": "prom"}');
    const r = await cli([
      'dataflow',
      'create-reporting-task',
      '--environment-crn',
      ENV,
      '--deployment-crn',
      DEP,
      '--file-path',
      file,
      '--access-token',
      't',
    ]);
    expect(r.code).toBe(0);
    expect(last()?.path).toBe('/dfx/api/rpc-v1/deployments/create-reporting-task-content');
    expect(last()?.headers['environment-crn']).toBeUndefined();
    expect(last()?.headers['deployment-crn']).toBe(DEP);
  });

  test('asset references naming local files are uploaded under an asset update request that the update names', async () => {
    const ENV = SALES;
    const depReq = `crn:cdp:df:us-west-1:acct:deploymentRequest:dropin-${Date.now()}`;
    const details = await em.cli([
      'dataflow',
      'get-deployment-request-details',
      '--environment-crn',
      ENV,
      '--deployment-request-crn',
      depReq,
    ]);
    expect(details.code).toBe(0);
    const created = await em.json<{ deployment: { crn: string } }>([
      'dataflow',
      'deployments',
      'create',
      '--environment-crn',
      ENV,
      '--name',
      'assets-dep',
      '--deployment-request-crn',
      depReq,
      '--configuration-version',
      '0',
      '--wait',
      '--poll-interval',
      '0.1',
    ]);
    const dep = created.deployment.crn;
    const conf = await em.json<{ deploymentConfiguration: { configurationVersion: number } }>([
      'dataflow',
      'get-deployment-configuration',
      '--environment-crn',
      ENV,
      '--deployment-crn',
      dep,
    ]);
    const asset = join(em.home, 'truststore.jks');
    writeFileSync(asset, 'trust me');
    const groups = [{ name: 'kafka', parameters: [{ name: 'truststore', assetReferences: [{ name: 'truststore.jks', path: asset }] }] }];
    const args = (version: number, g: unknown): string[] => [
      'dataflow',
      'update-deployment',
      '--environment-crn',
      ENV,
      '--deployment-crn',
      dep,
      '--configuration-version',
      String(version),
      '--parameter-groups',
      JSON.stringify(g),
      '--debug',
    ];
    const r = await em.cli(args(conf.deploymentConfiguration.configurationVersion, groups));
    expect(r.stderr).not.toMatch(/^[A-Z_]+: /m);
    expect(r.code).toBe(0);
    const posts = r.stderr.split('\n').filter((l) => l.startsWith('debug: > POST'));
    expect(posts.map((l) => /\/deployments\/[a-z-]+/.exec(l)?.[0])).toEqual([
      '/deployments/create-asset-update-request',
      '/deployments/upload-asset-content',
      '/deployments/update-deployment',
    ]);
    expect(r.stderr).toMatch(/"assetUpdateRequestCrn":"crn:cdp:df:[^"]+assetUpdateRequest/);
    const after = await em.json<{
      deploymentConfiguration: {
        parameterGroups: Array<{
          name: string;
          parameters: Array<{ name: string; assetReferences?: Array<{ name: string; id?: string }> }>;
        }>;
      };
    }>(['dataflow', 'get-deployment-configuration', '--environment-crn', ENV, '--deployment-crn', dep]);
    const param = after.deploymentConfiguration.parameterGroups
      .find((g) => g.name === 'kafka')
      ?.parameters.find((p) => p.name === 'truststore');
    expect(param?.assetReferences?.some((a) => a.name === 'truststore.jks' && a.id)).toBe(true);
    // A reference to a file that is not there is refused before anything is sent.
    const missing = await em.cli(
      args(conf.deploymentConfiguration.configurationVersion + 1, [
        { name: 'kafka', parameters: [{ name: 'truststore', assetReferences: [{ path: join(em.home, 'nope.jks') }] }] },
      ]),
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).not.toContain('> POST');
    expect(missing.stderr).toContain('nope.jks');
  });
});

describe('paging end markers (item 11)', () => {
  test('listDataShares ends with nextToken "", listExternalUsers without one', async () => {
    const LAKE = ['--datalake-crn', 'crn:cdp:datalake:us-west-1:acct:datalake:dropin', '--environment-crn', SALES];
    const shares = await em.json<Record<string, unknown>>(['datacatalog', 'list-data-shares', ...LAKE, '--no-paginate']);
    expect(shares.nextToken).toBe('');
    await em.json([
      'datacatalog',
      'create-external-users',
      ...LAKE,
      '--external-users',
      '[{"email":"e@x.example","username":"e","companyName":"X"}]',
    ]);
    const users = await em.json<Record<string, unknown>>(['datacatalog', 'list-external-users', ...LAKE, '--no-paginate']);
    expect(users.externalUsers).toHaveLength(1);
    expect(users).not.toHaveProperty('nextToken');
  });
});

describe('usage errors (issue 13, items 19 and 20)', () => {
  const jsonError = (r: RunResult): { code: string; message: string; details?: string[] } =>
    (JSON.parse(r.stderr) as { error: { code: string; message: string; details?: string[] } }).error;

  test('an invalid --query and an enum error exit 2; with --output json each is the JSON error line', async () => {
    const before = server.requests.length;
    const q = await cli(['iam', 'list-users', '--query', 'users[', '--output', 'json']);
    expect(q.code).toBe(2);
    expect(jsonError(q).code).toBe('INVALID_QUERY');
    for (const line of [
      ['iam', 'create-user-access-key', '--type', 'V4', '--output', 'json'],
      ['-o', 'json', 'iam', 'create-user-access-key', '--type=V4'],
      ['iam', 'no-such-command', '--output=json'],
    ]) {
      const r = await cli(line);
      expect({ line, code: r.code }).toEqual({ line, code: 2 });
      expect(jsonError(r).code).toBe('INVALID_INPUT');
    }
    expect(jsonError(await cli(['iam', 'create-user-access-key', '--type', 'V4', '--output', 'json'])).message).toContain('V1, V2, V3');
    expect(server.requests.length).toBe(before);
  });

  test('everything wrong at once: every missing field and every rule error, a missing field hiding no rule', async () => {
    const before = server.requests.length;
    const r = await cli([
      'iam',
      'create-ldap-provider',
      '--ldap-provider-name',
      'corp',
      '--url',
      'http://ldap.example.com',
      '--output',
      'json',
    ]);
    expect(r.code).toBe(2);
    const e = jsonError(r);
    const lines = [e.message, ...(e.details ?? [])];
    for (const flag of ['--user-search-base', '--user-search-filter', '--group-search-base', '--group-search-filter'])
      expect(lines.some((l) => l === `${flag} is required`)).toBe(true);
    expect(lines.some((l) => l.startsWith('--url: the LDAP url must start with ldap:// or ldaps://'))).toBe(true);
    // The same lines as text.
    const text = await cli(['iam', 'create-ldap-provider', '--ldap-provider-name', 'corp', '--url', 'http://ldap.example.com']);
    expect(text.stderr.trimEnd().split('\n')).toHaveLength(lines.length);
    expect(server.requests.length).toBe(before);
  });
});
