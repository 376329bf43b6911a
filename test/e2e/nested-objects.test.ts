/**
 * Nested objects are checked field by field before anything is sent, as
 * `cdp` 0.9.158 checks them (it refuses unknown keys and missing required
 * nested fields): for the objects a user trips on, through the binary
 * against a recording server. The fields come from the model's shapes,
 * including the objects the official model writes inline.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { runCli, tempHome } from '../helpers/cli.js';
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js';

let server: RecordingServer;
const home = tempHome('cdpctl-nested-');
const env = { CDP_ACCESS_KEY_ID: 'nested-key', CDP_PRIVATE_KEY: randomBytes(32).toString('base64') };
const cli = (args: readonly string[]) => runCli([...args, '--endpoint-url', server.url, '--no-input'], { home, env });

beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

/** Refused with exit 2, every problem named under the flag, and nothing sent. */
async function refused(args: readonly string[], problems: readonly string[]): Promise<void> {
  const before = server.requests.length;
  const r = await cli(args);
  expect(r.code).toBe(2);
  for (const p of problems) expect(r.stderr).toContain(p);
  expect(server.requests.length).toBe(before);
}

const AZURE = ['--credential-name', 'team-azure', '--subscription-id', 'sub', '--tenant-id', 'tenant'];

describe('refused before sending', () => {
  it('Azure app-based credentials: an unknown key', async () => {
    await refused(
      ['environments', 'create-azure-credential', ...AZURE, '--app-based', '{"applicationId":"a","secretKey":"k","tenant":"x"}'],
      ['INVALID_INPUT: --app-based: unknown field "tenant"; must be one of: authenticationType, applicationId, secretKey'],
    );
    await refused(
      [
        'environments',
        'set-azure-audit-credential',
        '--subscription-id',
        's',
        '--tenant-id',
        't',
        '--app-based',
        '{"applicationId":"a","bogus":1}',
      ],
      ['--app-based: unknown field "bogus"; must be one of: applicationId, secretKey'],
    );
    await refused(
      ['environments', 'update-azure-credential', ...AZURE, '--app-based', '{}'],
      ['--app-based: authenticationType is required'],
    );
  });

  it('private-cloud docker credentials: the required fields of the object', async () => {
    await refused(
      [
        'environments',
        'create-private-environment',
        ...['--environment-name', 'pvc', '--address', 'https://cm.example.com', '--user', 'admin', '--authentication-token', 't'],
        ...['--cluster-names', 'base', '--kube-config', 'k', '--namespace-prefix', 'cdp'],
        ...['--docker-user-pass', '{"username":"u"}'],
      ],
      ['--docker-user-pass: password is required', '--docker-user-pass: server is required'],
    );
  });

  it('dw update-cluster: awsUpdate and azureUpdate', async () => {
    await refused(
      ['dw', 'update-cluster', '--cluster-id', 'env-1', '--aws-update', '{"bogus":1}'],
      ['--aws-update: unknown field "bogus"; must be one of: externalBuckets'],
    );
    await refused(
      ['dw', 'update-cluster', '--cluster-id', 'env-1', '--azure-update', '{"x":1}'],
      ['--azure-update: unknown field "x"; must be one of: '],
    );
  });

  it("datahub autoscale rules: a schedule's configuration, at any depth", async () => {
    const schedule = (configuration: unknown): string =>
      JSON.stringify([{ hostGroups: 'compute', scheduleBasedPolicy: { schedules: [{ configuration }] } }]);
    await refused(
      [
        'datahub',
        'create-auto-scale-rules',
        '--cluster-name',
        'team-hub',
        '--auto-scale-policies',
        schedule({ action: { resourceAdjustmentValue: 1 }, bogus: 2 }),
      ],
      ['--auto-scale-policies: unknown field "[0].scheduleBasedPolicy.schedules[0].configuration.bogus"; must be one of: trigger, action'],
    );
    await refused(
      [
        'datahub',
        'update-auto-scale-rules',
        '--cluster-name',
        'team-hub',
        '--auto-scale-policies',
        JSON.stringify([{ hostGroups: 'compute', loadBasedPolicy: {} }]),
      ],
      ['--auto-scale-policies: [0].loadBasedPolicy.configuration is required'],
    );
  });
});

describe('sent when right', () => {
  it('a whole app-based credential goes as given', async () => {
    const r = await cli([
      'environments',
      'create-azure-credential',
      ...AZURE,
      '--app-based',
      '{"authenticationType":"SECRET","applicationId":"a","secretKey":"k"}',
    ]);
    expect(r.code).toBe(0);
    const sent = server.requests.filter((q) => q.path.endsWith('/createAzureCredential')).at(-1)?.json as Record<string, unknown>;
    expect(sent.appBased).toEqual({ authenticationType: 'SECRET', applicationId: 'a', secretKey: 'k' });
  });
});
