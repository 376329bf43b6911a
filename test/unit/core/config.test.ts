import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadProfile, resolveCredentials, setValue, permissionWarning } from '../../../src/lib/core/config.js';
import { checkFormFactor, joinUrl, resolveEndpoint, resolveFormFactor } from '../../../src/lib/core/endpoint.js';

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

  it('prefers CDP_ACCESS_KEY_ID/CDP_PRIVATE_KEY over a profile not named by --profile, reading the key from a path when it is one', () => {
    const h = home();
    const keyFile = join(h, 'key.txt');
    writeFileSync(keyFile, 'file-key');
    const env = { HOME: h, CDP_ACCESS_KEY_ID: 'env-id', CDP_PRIVATE_KEY: keyFile, CDP_PROFILE: 'prod' };
    const creds = resolveCredentials(loadProfile(undefined, env), env);
    expect(creds).toMatchObject({ accessKeyId: 'env-id', privateKey: 'file-key', source: 'environment' });
    // As with the official CLI, a profile named with --profile wins over the variables.
    expect(resolveCredentials(loadProfile('prod', env), env)).toMatchObject({ accessKeyId: 'prod-id', source: 'profile prod' });
    // Key text is taken as the key: an Ed25519 seed (44 characters) or PEM.
    const seed = Buffer.alloc(32, 7).toString('base64');
    const env2 = { HOME: h, CDP_ACCESS_KEY_ID: 'env-id', CDP_PRIVATE_KEY: seed };
    expect(resolveCredentials(loadProfile(undefined, env2), env2).privateKey).toBe(seed);
    const pem = '-----BEGIN PRIVATE KEY-----\\nabc\\n-----END PRIVATE KEY-----';
    const env3 = { HOME: h, CDP_ACCESS_KEY_ID: 'env-id', CDP_PRIVATE_KEY: pem };
    expect(resolveCredentials(loadProfile(undefined, env3), env3).privateKey).toBe(pem);
  });

  it('reads an --auth-config file (a key pair or an access token) and cdp_access_token from a profile', () => {
    const h = home();
    const pair = join(h, 'auth.json');
    writeFileSync(pair, JSON.stringify({ access_key_id: 'file-id', private_key: 'file-key' }));
    const token = join(h, 'token.json');
    writeFileSync(token, JSON.stringify({ access_token: 'tok-1' }));
    const env = { HOME: h };
    expect(resolveCredentials(loadProfile(undefined, env), env, { authConfig: pair })).toMatchObject({ accessKeyId: 'file-id' });
    expect(resolveCredentials(loadProfile(undefined, env), env, { authConfig: token })).toMatchObject({ accessToken: 'tok-1' });
    expect(() => resolveCredentials(loadProfile(undefined, env), env, { authConfig: join(h, 'none.json') })).toThrow(/not found/);
    writeFileSync(join(h, '.cdp', 'credentials'), '[default]\ncdp_access_token = tok-2\n');
    expect(resolveCredentials(loadProfile(undefined, env), env)).toMatchObject({ accessToken: 'tok-2', accessKeyId: '' });
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
  // Facts as the model gives them: an Altus-and-CDP service (iam) and CDP-only ones.
  const iam = { name: 'iam', endpointName: 'iam', products: ['ALTUS', 'CDP'], formFactors: ['public', 'private'] };
  const datalake = { name: 'datalake', endpointName: 'datalake', products: ['CDP'], formFactors: ['public'] };
  const environments = { name: 'environments', endpointName: 'environments2', products: ['CDP'], formFactors: ['public', 'private'] };
  const drscp = { name: 'drscp', endpointName: 'drscp', products: ['CDP'], formFactors: ['private'] };
  it('uses the region defaults: CDP-only services the API host, Altus services their own host in us-west-1', () => {
    expect(resolveEndpoint(datalake, base)).toBe('https://api.us-west-1.cdp.cloudera.com');
    expect(resolveEndpoint(iam, base)).toBe('https://iamapi.us-west-1.altus.cloudera.com');
    expect(resolveEndpoint(iam, { ...base, region: 'default' })).toBe('https://iamapi.us-west-1.altus.cloudera.com');
    expect(resolveEndpoint(iam, { ...base, region: 'eu-1' })).toBe('https://api.eu-1.cdp.cloudera.com');
    expect(resolveEndpoint(iam, { ...base, region: 'usg-1' })).toBe('https://api.usg-1.cdp.clouderagovt.com');
    expect(resolveEndpoint(datalake, { config: { cdp_region: 'ap-1' } })).toBe('https://api.ap-1.cdp.cloudera.com');
    expect(resolveEndpoint(datalake, { config: { cdp_region: 'ap-1' }, region: 'default' })).toBe('https://api.ap-1.cdp.cloudera.com');
    expect(resolveEndpoint(datalake, { ...base, region: 'usg-1' })).toBe('https://api.usg-1.cdp.clouderagovt.com');
  });
  it('reads endpoint_url for Altus services and cdp_endpoint_url for CDP-only ones, never the other', () => {
    const config = { cdp_endpoint_url: 'https://%s.corp.test:8443/', endpoint_url: 'https://%s.altus.test/' };
    expect(resolveEndpoint(iam, { config })).toBe('https://iam.altus.test/');
    expect(resolveEndpoint(datalake, { config })).toBe('https://api.corp.test:8443/');
    expect(resolveEndpoint(environments, { config })).toBe('https://api.corp.test:8443/');
    expect(resolveEndpoint(iam, { config: { cdp_endpoint_url: 'http://localhost:1/' } })).toBe(
      'https://iamapi.us-west-1.altus.cloudera.com',
    );
    expect(resolveEndpoint(datalake, { config: { endpoint_url: 'http://localhost:1/' } })).toBe('https://api.us-west-1.cdp.cloudera.com');
  });
  it('fills one %s in --endpoint-url by the same rule, and leaves two alone', () => {
    expect(resolveEndpoint(iam, { ...base, endpointUrl: 'http://h:1/%s/' })).toBe('http://h:1/iam/');
    expect(resolveEndpoint(environments, { ...base, endpointUrl: 'http://h:1/%s/' })).toBe('http://h:1/api/');
    expect(resolveEndpoint(datalake, { ...base, endpointUrl: 'http://h:1/%s/%s' })).toBe('http://h:1/%s/%s');
    expect(resolveEndpoint(datalake, { config: { cdp_endpoint_url: 'http://x:2/' }, endpointUrl: 'http://localhost:1/' })).toBe(
      'http://localhost:1/',
    );
  });
  it("refuses a service its control plane's form factor does not offer, guessing it from the URL as the official CLI does", () => {
    expect(resolveFormFactor(base)).toBe('public');
    expect(resolveFormFactor({ ...base, endpointUrl: 'http://localhost:8080/' })).toBe('public');
    expect(resolveFormFactor({ ...base, endpointUrl: 'https://api.eu-1.cdp.cloudera.com' })).toBe('public');
    expect(resolveFormFactor({ ...base, endpointUrl: 'http://127.0.0.1:8080/' })).toBe('private');
    expect(resolveFormFactor({ config: { cdp_endpoint_url: 'https://cp.corp.test/' } })).toBe('private');
    // endpoint_url (iam's key) does not decide it.
    expect(resolveFormFactor({ config: { endpoint_url: 'https://cp.corp.test/' } })).toBe('public');
    expect(resolveFormFactor({ config: { form_factor: 'private' }, endpointUrl: 'http://localhost:1/' })).toBe('private');
    expect(resolveFormFactor({ config: { form_factor: 'private' }, formFactor: 'public' })).toBe('public');
    expect(() => resolveFormFactor({ config: { form_factor: 'hybrid' } })).toThrow(/form factor hybrid is invalid/);
    const priv = { ...base, endpointUrl: 'http://127.0.0.1:1/' };
    expect(() => checkFormFactor(datalake, priv)).toThrow(/The command datalake is not available under the private CDP form factor/);
    expect(() => checkFormFactor(iam, priv)).not.toThrow();
    expect(() => checkFormFactor(drscp, base)).toThrow(/only available for these form factors: private/);
    expect(() => checkFormFactor(datalake, { ...priv, formFactor: 'public' })).not.toThrow();
  });
  it('rejects unknown regions and bad URLs as usage errors', () => {
    expect(() => resolveEndpoint(datalake, { ...base, region: 'mars-1' })).toThrow(/unknown region/);
    expect(() => resolveEndpoint(datalake, { ...base, endpointUrl: 'ftp://x' })).toThrow(/http/);
  });
  it('joins a base path and the operation path with one slash', () => {
    expect(joinUrl('http://h:9/base/', '/iam/listUsers').pathname).toBe('/base/iam/listUsers');
    expect(joinUrl('http://h:9', '/iam/listUsers').pathname).toBe('/iam/listUsers');
  });
});

describe('CDP_PRIVATE_KEY naming a key file', () => {
  it('says "no such file" for a key file that is not there, naming the path but never key text', () => {
    const h = home();
    const missing = join(h, 'keys', 'dev.pem');
    const env = { HOME: h, CDP_ACCESS_KEY_ID: 'env-id', CDP_PRIVATE_KEY: missing };
    expect(() => resolveCredentials(loadProfile(undefined, env), env)).toThrow(
      `CDP_PRIVATE_KEY names the key file ${missing}: no such file`,
    );
    const env2 = { HOME: h, CDP_ACCESS_KEY_ID: 'env-id', CDP_PRIVATE_KEY: 'not-a-key-and-no-file' };
    let message = '';
    try {
      resolveCredentials(loadProfile(undefined, env2), env2);
    } catch (err) {
      message = (err as Error).message;
      expect((err as { exitCode: number }).exitCode).toBe(3);
    }
    expect(message).toBe('CDP_PRIVATE_KEY is neither a key nor the path of a key file: no such file');
    const dir = join(h, 'keys-dir.pem');
    mkdirSync(dir);
    const env3 = { HOME: h, CDP_ACCESS_KEY_ID: 'env-id', CDP_PRIVATE_KEY: dir };
    expect(() => resolveCredentials(loadProfile(undefined, env3), env3)).toThrow(/CDP_PRIVATE_KEY: .* is a directory, not a regular file/);
  });
});
