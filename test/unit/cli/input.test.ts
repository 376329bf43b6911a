import { describe, expect, it } from '@jest/globals';
import { loadService } from '../../../src/lib/model/index.js';
import { convertFlag, parseShorthand } from '../../../src/lib/cli/input.js';
import { normalizeArgv } from '../../../src/lib/cli/argv.js';

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
