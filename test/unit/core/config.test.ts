import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProfile, resolveCredentials, setValue, permissionWarning } from '../../../src/lib/core/config.js';
import { joinUrl, resolveEndpoint } from '../../../src/lib/core/endpoint.js';

function home(): string {
  const h = mkdtempSync(join(tmpdir(), 'cdpctl-cfg-'));
  mkdirSync(join(h, '.cdp'));
  writeFileSync(
    join(h, '.cdp', 'credentials'),
    '[default]\ncdp_access_key_id = def-id\ncdp_private_key = def-key\n[prod]\ncdp_access_key_id = prod-id\ncdp_private_key = prod-key\n',
  );
  writeFileSync(
    join(h, '.cdp', 'config'),
    '[default]\ncdp_region = eu-1\n[profile prod]\ncdp_endpoint_url = https://%s.example.test/\noutput = table\n',
  );
  return h;
}

describe('credentials and profiles', () => {
  it('uses the default profile, then --profile, then CDP_PROFILE', () => {
    const h = home();
    expect(resolveCredentials(loadProfile(undefined, { HOME: h }), { HOME: h }).accessKeyId).toBe('def-id');
    expect(resolveCredentials(loadProfile('prod', { HOME: h }), { HOME: h }).accessKeyId).toBe('prod-id');
    expect(loadProfile(undefined, { HOME: h, CDP_PROFILE: 'prod' }).values.output).toBe('table');
    // The flag wins over the variable.
    expect(loadProfile('default', { HOME: h, CDP_PROFILE: 'prod' }).profile).toBe('default');
  });

  it('prefers CDP_ACCESS_KEY_ID/CDP_PRIVATE_KEY over any profile, reading the key from a path when it is one', () => {
    const h = home();
    const keyFile = join(h, 'key.txt');
    writeFileSync(keyFile, 'file-key');
    const env = { HOME: h, CDP_ACCESS_KEY_ID: 'env-id', CDP_PRIVATE_KEY: keyFile };
    const creds = resolveCredentials(loadProfile('prod', env), env);
    expect(creds).toMatchObject({ accessKeyId: 'env-id', privateKey: 'file-key', source: 'environment' });
    const env2 = { HOME: h, CDP_ACCESS_KEY_ID: 'env-id', CDP_PRIVATE_KEY: 'inline-key' };
    expect(resolveCredentials(loadProfile(undefined, env2), env2).privateKey).toBe('inline-key');
  });

  it('reads files named by CDP_SHARED_CREDENTIALS_FILE and CDP_CONFIG_FILE', () => {
    const h = home();
    const creds = join(h, 'other-creds');
    writeFileSync(creds, '[default]\ncdp_access_key_id = other\ncdp_private_key = k\n');
    const env = { HOME: h, CDP_SHARED_CREDENTIALS_FILE: creds, CDP_CONFIG_FILE: join(h, 'none') };
    const settings = loadProfile(undefined, env);
    expect(resolveCredentials(settings, env).accessKeyId).toBe('other');
    expect(settings.values.cdp_region).toBeUndefined();
  });

  it('names where it looked when nothing is found, and fails for an unknown explicit profile', () => {
    const h = mkdtempSync(join(tmpdir(), 'cdpctl-empty-'));
    expect(() => resolveCredentials(loadProfile(undefined, { HOME: h }), { HOME: h })).toThrow(/no credentials found/);
    try {
      resolveCredentials(loadProfile(undefined, { HOME: h }), { HOME: h });
    } catch (err) {
      expect((err as { details: string[] }).details.join(' ')).toContain(join(h, '.cdp', 'credentials'));
      expect((err as { exitCode: number }).exitCode).toBe(3);
    }
    expect(() => loadProfile('nope', { HOME: h })).toThrow(/profile "nope" was not found/);
  });

  it('writes values atomically, mode 0600, unquoted, keeping other profiles', async () => {
    const h = home();
    await setValue('dev', 'cdp_private_key', 'abc+/def=', { HOME: h });
    await setValue('dev', 'cdp_region', 'ap-1', { HOME: h });
    const credText = readFileSync(join(h, '.cdp', 'credentials'), 'utf8');
    expect(credText).toContain('[dev]\ncdp_private_key = abc+/def=');
    expect(credText).toContain('[prod]');
    expect(readFileSync(join(h, '.cdp', 'config'), 'utf8')).toContain('[profile dev]\ncdp_region = ap-1');
    expect(statSync(join(h, '.cdp', 'credentials')).mode & 0o777).toBe(0o600);
    expect(permissionWarning(join(h, '.cdp', 'credentials'))).toBeUndefined();
  });
});

describe('endpoint resolution', () => {
  const base = { config: {} as Record<string, string> };
  it('uses the region defaults, with the IAM special case in us-west-1', () => {
    expect(resolveEndpoint('api', base)).toBe('https://api.us-west-1.cdp.cloudera.com');
    expect(resolveEndpoint('iam', base)).toBe('https://iamapi.us-west-1.altus.cloudera.com');
    expect(resolveEndpoint('iam', { ...base, region: 'eu-1' })).toBe('https://api.eu-1.cdp.cloudera.com');
    expect(resolveEndpoint('api', { config: { cdp_region: 'ap-1' } })).toBe('https://api.ap-1.cdp.cloudera.com');
    expect(resolveEndpoint('api', { ...base, region: 'usg-1' })).toBe('https://api.usg-1.cdp.clouderagovt.com');
  });
  it('prefers --endpoint-url, then cdp_endpoint_url with %s replaced', () => {
    const config = { cdp_endpoint_url: 'https://%s.corp.test:8443/' };
    expect(resolveEndpoint('iam', { config })).toBe('https://iam.corp.test:8443/');
    expect(resolveEndpoint('api', { config })).toBe('https://api.corp.test:8443/');
    expect(resolveEndpoint('api', { config, endpointUrl: 'http://localhost:1/' })).toBe('http://localhost:1/');
  });
  it('rejects unknown regions and bad URLs as usage errors', () => {
    expect(() => resolveEndpoint('api', { ...base, region: 'mars-1' })).toThrow(/unknown region/);
    expect(() => resolveEndpoint('api', { ...base, endpointUrl: 'ftp://x' })).toThrow(/http/);
  });
  it('joins a base path and the operation path with one slash', () => {
    expect(joinUrl('http://h:9/base/', '/iam/listUsers').pathname).toBe('/base/iam/listUsers');
    expect(joinUrl('http://h:9', '/iam/listUsers').pathname).toBe('/iam/listUsers');
  });
});
