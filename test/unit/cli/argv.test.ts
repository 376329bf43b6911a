/** The command line as the official CLI reads it, rewritten for oclif and the fast path. */
import { CDP_GLOBAL_OPTIONS } from '../../helpers/cdp-reference.js';
import { describe, expect, it } from '@jest/globals';
import { GLOBAL_FLAG_ARITY, dropUndeclaredGlobals, flagValue, normalizeArgv } from '../../../src/lib/cli/argv.js';
import { GLOBAL_FLAG_SPECS } from '../../../src/lib/cli/flag-spec.js';
import { loadAllServices, topicFor, wireNameOf } from '../../../src/lib/model/index.js';

describe('the command line as the official CLI reads it', () => {
  it('takes global options from anywhere, the last of each winning', () => {
    expect(normalizeArgv(['--no-paginate', 'iam', '--output', 'text', 'list-users', '--max-items', '3', '-o', 'json'])).toEqual([
      'iam',
      'list-users',
      '--max-items',
      '3',
      '--no-paginate',
      '-o',
      'json',
    ]);
    expect(normalizeArgv(['iam', 'get-user', '--profile=a', '--profile', 'b'])).toEqual(['iam', 'get-user', '--profile', 'b']);
    // After `--` nothing is touched.
    expect(normalizeArgv(['configure', 'set', '--', 'k', '--debug'])).toEqual(['configure', 'set', '--', 'k', '--debug']);
  });

  it('reads `help` as the last word, unless it is a flag value', () => {
    expect(normalizeArgv(['iam', 'list-users', 'help'])).toEqual(['iam', 'list-users', '--help']);
    expect(normalizeArgv(['iam', 'help'])).toEqual(['iam', '--help']);
    expect(normalizeArgv(['iam', 'list-users', '--max-items', '3', 'help'])).toEqual(['iam', 'list-users', '--max-items', '3', '--help']);
    expect(normalizeArgv(['iam', 'list-users', '--no-paginate', 'help'])).toEqual(['iam', 'list-users', '--help', '--no-paginate']);
    expect(normalizeArgv(['iam', 'create-group', '--group-name', 'help'])).toEqual(['iam', 'create-group', '--group-name', 'help']);
    expect(normalizeArgv(['help'])).toEqual(['help']);
  });

  it('gives --generate-cli-skeleton its optional input|output', () => {
    expect(normalizeArgv(['iam', 'get-user', '--generate-cli-skeleton'])).toEqual(['iam', 'get-user', '--generate-skeleton=input']);
    expect(normalizeArgv(['iam', 'get-user', '--generate-cli-skeleton', 'output'])).toEqual([
      'iam',
      'get-user',
      '--generate-skeleton=output',
    ]);
    expect(normalizeArgv(['iam', 'get-user', '--generate-skeleton', '--user-id', 'x'])).toEqual([
      'iam',
      'get-user',
      '--generate-skeleton=input',
      '--user-id',
      'x',
    ]);
  });

  it('takes the official service name for the topic', () => {
    expect(normalizeArgv(['cloudprivatelinks', 'get-private-link-status'], { topicFor })).toEqual([
      'privatelink',
      'get-private-link-status',
    ]);
    expect(normalizeArgv(['dfworkload', 'list-nifi-versions'], { topicFor })[0]).toBe('dataflow');
    expect(normalizeArgv(['lakehouseopt', 'help'], { topicFor })).toEqual(['lakehouse', '--help']);
    expect(normalizeArgv(['emulator', 'status'], { topicFor })).toEqual(['emulator', 'status']);
  });

  it('registers every service under its official name, as its facts give it', async () => {
    for (const svc of await loadAllServices()) {
      expect({ topic: svc.topic, wire: wireNameOf(svc.topic) }).toEqual({ topic: svc.topic, wire: svc.def.facts.name });
      expect(topicFor(svc.def.facts.name)).toBe(svc.topic);
    }
  });

  it('drops the globals a hand-written command does not declare', () => {
    expect(dropUndeclaredGlobals(['list', '--no-paginate', '--cdp-region', 'eu-1', '--profile', 'p'], new Set(['profile']))).toEqual([
      'list',
      '--profile',
      'p',
    ]);
    expect(flagValue(['x', '--output=json'], 'output', 'o')).toBe('json');
    expect(flagValue(['x', '-o', 'json'], 'output', 'o')).toBe('json');
  });

  it('takes every global flag and its arity from the flag specs', () => {
    expect(GLOBAL_FLAG_ARITY).toMatchObject({ '--profile': 1, '--output': 1, '-o': 1, '--debug': 0, '--yes': 0, '-y': 0, '--no-pager': 0 });
    expect(Object.keys(GLOBAL_FLAG_ARITY).filter((f) => f.startsWith('--'))).toEqual(
      Object.keys(GLOBAL_FLAG_SPECS).map((name) => `--${name}`),
    );
    // Every option of the official CLI's cli.json is one.
    for (const name of CDP_GLOBAL_OPTIONS) expect(GLOBAL_FLAG_SPECS).toHaveProperty([name]);
  });
});
