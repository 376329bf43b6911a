import { describe, expect, it } from '@jest/globals';
import { loadService } from '../../../src/lib/model/index.js';
import { kebab } from '../../../src/lib/model/names.js';
import { convertFlag, parseShorthand, skeleton } from '../../../src/lib/cli/input.js';
import { formatValue, textObject, type FormatOptions, type OutputFormat } from '../../../src/lib/cli/output.js';
import { validateRequest } from '../../../src/lib/core/validate.js';
import { normalizeArgv } from '../../../src/lib/cli/argv.js';

describe('names', () => {
  it('follows the official CLI transform', () => {
    const cases: Record<string, string> = {
      createAWSDatalake: 'create-aws-datalake',
      updateToAwsImdsV2: 'update-to-aws-imds-v2',
      enableClouderaSSOLogin: 'enable-cloudera-sso-login',
      vNetId: 'v-net-id',
      disableArm64: 'disable-arm64',
      s3GuardTableName: 's3-guard-table-name',
      resourceCRNs: 'resource-crns',
      listUsers: 'list-users',
      userId: 'user-id',
    };
    for (const [from, to] of Object.entries(cases)) expect(kebab(from)).toBe(to);
  });
});

describe('flag values', () => {
  it('parses key=value shorthand typed by the structure', async () => {
    const iam = await loadService('iam');
    const v = parseShorthand('minPasswordLength=12,mustIncludeNumbers=true', iam.shapes, { kind: 'ref', ref: 'PasswordPolicy' }, '--x');
    expect(v).toEqual({ minPasswordLength: 12, mustIncludeNumbers: true });
    expect(() => parseShorthand('minPasswordLength=twelve', iam.shapes, { kind: 'ref', ref: 'PasswordPolicy' }, '--x')).toThrow(
      /must be an integer/,
    );
    expect(() => parseShorthand('novalue', iam.shapes, { kind: 'ref', ref: 'PasswordPolicy' }, '--x')).toThrow(/expected '='/);
  });
  it('takes lists as words (a flag repeated adds its values), never split at commas, or JSON', async () => {
    const iam = await loadService('iam');
    const op = iam.operation('createUser');
    const groups = iam.requestShape(op).byName.get('groups');
    if (!groups) throw new Error('no groups field');
    expect(convertFlag(['a,b', 'c'], groups, iam.shapes, 'groups')).toEqual(['a,b', 'c']);
    expect(convertFlag(['["x","y"]'], groups, iam.shapes, 'groups')).toEqual(['x', 'y']);
  });
  it('moves global flags given before the command after it', () => {
    expect(normalizeArgv(['--profile', 'p', '--debug', 'iam', 'users', 'get'])).toEqual([
      'iam',
      'users',
      'get',
      '--profile',
      'p',
      '--debug',
    ]);
    expect(normalizeArgv(['--output=json', 'iam', 'users', 'list'])).toEqual(['iam', 'users', 'list', '--output=json']);
    expect(normalizeArgv(['iam', 'users', 'get', '--profile', 'p'])).toEqual(['iam', 'users', 'get', '--profile', 'p']);
  });
});

describe('validation messages', () => {
  it('names the field, with enum suggestions and ranges', async () => {
    const iam = await loadService('iam');
    const op = iam.operation('createUserAccessKey');
    const issues = validateRequest(iam.shapes, op.input, { type: 'V4' }, op.cli.rules);
    expect(issues[0]?.message).toMatch(/"type" must be one of V1, V2, V3; got "V4"/);
    const list = iam.operation('listUsers');
    expect(validateRequest(iam.shapes, list.input, { pageSize: 501 })[0]?.message).toBe('"pageSize" must be between 1 and 500; got 501');
    expect(validateRequest(iam.shapes, list.input, { bogus: 1 })[0]?.message).toMatch(/unknown field "bogus"/);
    const upd = iam.operation('updateUser');
    expect(validateRequest(iam.shapes, upd.input, { user: 'u' }, upd.cli.rules)[0]?.message).toMatch(/nothing to update/);
  });
  it('applies the seed rules: SSH key types, LDAP url, SAML size, history size', async () => {
    const iam = await loadService('iam');
    const ssh = iam.operation('addSshPublicKey');
    const dsa = validateRequest(iam.shapes, ssh.input, { publicKey: 'ssh-dss AAAAB3NzaC1kc3M= x' }, ssh.cli.rules);
    expect(dsa[0]?.message).toMatch(/not supported/);
    const ldap = iam.operation('createLdapProvider');
    const base = {
      ldapProviderName: 'l',
      userSearchBase: 'b',
      userSearchFilter: 'f',
      groupSearchBase: 'g',
      groupSearchFilter: 'h',
      usernameMappingAttribute: 'u',
    };
    expect(validateRequest(iam.shapes, ldap.input, { ...base, url: 'http://x' }, ldap.cli.rules)[0]?.message).toMatch(/ldap:\/\//);
    expect(validateRequest(iam.shapes, ldap.input, { ...base, url: 'ldaps://x:636' }, ldap.cli.rules)).toEqual([]);
    const saml = iam.operation('createSamlProvider');
    const big = validateRequest(
      iam.shapes,
      saml.input,
      { samlProviderName: 'okta', samlMetadataDocument: 'x'.repeat(200_001) },
      saml.cli.rules,
    );
    expect(big[0]?.message).toMatch(/200,000|200000/);
    const pol = iam.operation('setWorkloadPasswordPolicy');
    expect(validateRequest(iam.shapes, pol.input, { globalPasswordPolicy: { passwordHistorySize: 21 } })[0]?.message).toMatch(
      /between 0 and 20/,
    );
  });
  it('gives every iam operation a skeleton with exactly its request fields', async () => {
    const iam = await loadService('iam');
    expect(iam.operationNames()).toHaveLength(79);
    for (const op of iam.operations()) {
      const fields = iam.requestFields(op).map((f) => f.name);
      expect(Object.keys(skeleton(iam.shapes, op.input))).toEqual(fields);
    }
  });
});

/** A whole answer in a format, as render writes it. */
const formatted = async (v: unknown, format: OutputFormat, opts: FormatOptions = {}): Promise<string> =>
  (await formatValue(v, format, opts)).text;

describe('formatters', () => {
  const items = [
    { userId: 'a', email: 'a@x', nested: { k: 1 } },
    { userId: 'b', email: 'b@x', nested: { k: 2 } },
  ];
  it('writes jsonl and tab-separated text', async () => {
    expect(await formatted({ users: items }, 'jsonl', { listKey: 'users' })).toBe(
      '{"userId":"a","email":"a@x","nested":{"k":1}}\n{"userId":"b","email":"b@x","nested":{"k":2}}\n',
    );
    expect(await formatted(items, 'tsv')).toBe('a\ta@x\nb\tb@x\n');
    expect(await formatted(items, 'tsv', { columns: { id: 'userId', k: 'nested.k' } })).toBe('a\t1\nb\t2\n');
    expect(textObject({ a: { b: 1 }, c: [true] })).toBe('a.b\t1\nc[0]\ttrue\n');
  });
  it('fits tables to the terminal width', async () => {
    const wide = [{ id: 'x'.repeat(200), note: 'y'.repeat(200) }];
    const out = await formatted(wide, 'table', { width: 80, color: false });
    for (const line of out.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
});
