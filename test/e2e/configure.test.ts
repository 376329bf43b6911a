/**
 * configure through the binary: `configure set` checks the values it knows
 * and refuses a misspelled name (nothing written), `configure unset`
 * removes one key and keeps the rest of the file, values with ; and #
 * survive a round trip (read back as configparser reads them; see
 * test/unit/core/ini.test.ts), and the interactive `configure` asks for the
 * endpoint and writes it for iam and every other service.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { existsSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, baseEnv, run, tempHome } from '../helpers/cli.js';
import { KEYS, ptyAvailable, spawnPty } from '../helpers/pty.js';

const home = tempHome('cdpctl-configure-');
const config = join(home, '.cdp', 'config');
const cli = (...args: string[]) => run(args, { home });
afterAll(() => rmSync(home, { recursive: true, force: true }));

describe('configure set and unset', () => {
  it('refuses a misspelled name, naming the nearest setting, and writes nothing', async () => {
    const r = await cli('configure', 'set', 'cdp_regoin', 'eu-1');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"cdp_regoin" is not a setting');
    expect(r.stderr).toContain('cdp_region');
    expect(existsSync(config)).toBe(false);
  });

  it.each([
    ['cdp_region', 'eu-2', 'must be one of'],
    ['output', 'tabel', 'must be one of'],
    ['cdp_endpoint_url', 'localhost:8080', 'must be an http:// or https:// URL'],
    ['form_factor', 'hybrid', 'must be one of'],
  ])('checks %s before writing it (%s refused)', async (key, value, why) => {
    const r = await cli('configure', 'set', key, value);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${key} ${why}`);
    expect(r.stderr).toContain('nothing was written');
    expect(existsSync(config)).toBe(false);
  });

  it('writes good values, keeps ; and # in them, and unset removes one key only', async () => {
    mkdirSync(join(home, '.cdp'), { recursive: true });
    writeFileSync(config, '# my settings\n[default]\noutput = json\n');
    expect((await cli('configure', 'set', 'cdp_region', 'eu-1')).code).toBe(0);
    expect((await cli('configure', 'set', 'request_headers', 'X-A=1;X-B=#2')).code).toBe(0);
    expect((await cli('configure', 'get', 'request_headers')).stdout).toBe('X-A=1;X-B=#2\n');
    expect((await cli('configure', 'unset', 'output')).code).toBe(0);
    expect(readFileSync(config, 'utf8')).toBe('# my settings\n[default]\ncdp_region = eu-1\nrequest_headers = X-A=1;X-B=#2\n');
    const again = await cli('configure', 'unset', 'output');
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('output was not set in profile "default"; nothing changed');
    const typo = await cli('configure', 'unset', 'outptu');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('"output"');
  });
});

describe('configure list --profiles', () => {
  it("names each profile once, sorted, from the credentials file's sections and the config file's [profile NAME] and [default]", async () => {
    const h = tempHome('cdpctl-configure-list-');
    mkdirSync(join(h, '.cdp'), { recursive: true });
    writeFileSync(join(h, '.cdp', 'credentials'), '[prod]\ncdp_access_key_id = a\n[default]\ncdp_access_key_id = b\n');
    writeFileSync(
      join(h, '.cdp', 'config'),
      '[profile lab]\ncdp_region = us-west-1\n[profile prod]\noutput = json\n[not a profile]\nx = 1\n',
    );
    const r = await run(['configure', 'list', '--profiles'], { home: h });
    expect([r.code, r.stdout]).toEqual([0, 'default\nlab\nprod\n']);
    rmSync(h, { recursive: true, force: true });
  });
});

(ptyAvailable() ? describe : describe.skip)('interactive configure', () => {
  it('asks for the endpoint too, checks it as it is typed, and writes it for iam and the other services', async () => {
    const h = tempHome('cdpctl-configure-pty-');
    const s = spawnPty([process.execPath, BIN, 'configure', '--profile', 'lab'], { env: { ...baseEnv(h), CI: undefined } });
    await s.expect('Access key ID');
    s.type('lab-key' + KEYS.enter);
    await s.expect('Private key');
    s.type(KEYS.enter);
    await s.expect('Region');
    s.type(KEYS.enter);
    await s.expect('Endpoint URL');
    s.type('not a url' + KEYS.enter);
    await s.expect('must be an http:// or https:// URL');
    for (let i = 0; i < 9; i++) s.type('\u007f');
    s.type('http://cdp.lab.example:8080/' + KEYS.enter);
    await s.expect('Output format');
    s.type(KEYS.enter);
    expect(await s.exit()).toBe(0);
    const written = readFileSync(join(h, '.cdp', 'config'), 'utf8');
    expect(written).toContain('cdp_endpoint_url = http://cdp.lab.example:8080/');
    expect(written).toContain('endpoint_url = http://cdp.lab.example:8080/');
    expect(readFileSync(join(h, '.cdp', 'credentials'), 'utf8')).toContain('cdp_access_key_id = lab-key');
    rmSync(h, { recursive: true, force: true });
  });
});
