import { describe, expect, it, test } from '@jest/globals';
import { loadService } from '../../../src/lib/model/index.js';
import { skeleton } from '../../../src/lib/cli/input.js';
import { nearest, suggest, validateRequest } from '../../../src/lib/core/validate.js';

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

describe('nearest: what a mistyped name most likely meant', () => {
  const iam = [
    'iam create-user-access-key',
    'iam create-machine-user-access-key',
    'iam update-access-key',
    'iam get-access-key',
    'iam list-users',
    'iam list-groups-for-user',
  ];

  test('a typo first, then the longer names with every typed word, then what difflib calls close', () => {
    expect(nearest('iam list-user', iam, 3)).toEqual(['iam list-users', 'iam list-groups-for-user']);
    expect(nearest('iam create-access-key', iam, 3)).toEqual([
      'iam create-user-access-key',
      'iam create-machine-user-access-key',
      'iam get-access-key',
    ]);
  });

  test('a command path is compared after the topic both share', () => {
    const lake = ['datalake describe-datalake', 'datalake resize-datalake', 'datalake restore-datalake'];
    expect(nearest('datalake describe-datalakes', lake, 3)).toEqual(['datalake describe-datalake']);
  });

  test('nothing near: nothing offered; what was typed is never offered back', () => {
    expect(nearest('zzz', ['json', 'yaml'], 3)).toEqual([]);
    expect(nearest('json', ['json', 'jsonl'], 3)).toEqual(['jsonl']);
  });

  test('the message names one, or several closest first', () => {
    expect(suggest('groupNam', ['groupName', 'description'])).toBe(' (did you mean "groupName"?)');
    expect(suggest('iam create-access-key', iam, 2)).toBe(
      ' (did you mean "iam create-user-access-key" or "iam create-machine-user-access-key"?)',
    );
    expect(suggest('x', [])).toBe('');
  });
});
