/**
 * The pure parts of the drop-in behaviour: the command line as the official
 * CLI reads it, Python's str() of values, date-times as Python prints them,
 * and JMESPath literals as the Python library takes them.
 */
import { describe, expect, it } from '@jest/globals';
import { GLOBAL_FLAG_ARITY, dropUndeclaredGlobals, flagValue, normalizeArgv } from '../../../src/lib/cli/argv.js';
import { GLOBAL_FLAG_SPECS } from '../../../src/lib/cli/flag-spec.js';
import { lenientLiterals } from '../../../src/lib/cli/query.js';
import { formatText, pyDateTime, pyFloat, pyStr } from '../../../src/lib/cli/text.js';
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
    for (const name of [
      'debug',
      'no-verify-tls',
      'ca-bundle',
      'endpoint-url',
      'form-factor',
      'force-ipv4',
      'access-token',
      'output',
      'color',
      'cli-read-timeout',
      'cli-connect-timeout',
      'no-paginate',
      'auth-config',
      'profile',
      'cdp-region',
      'ensure-ascii',
      'deprecated',
      'no-parameter-expansion',
    ])
      expect(GLOBAL_FLAG_SPECS).toHaveProperty([name]);
  });
});

describe('values as Python prints them', () => {
  it('str() of scalars and containers', () => {
    expect([true, false, null, 0, -3, 1.5, 'x'].map(pyStr)).toEqual(['True', 'False', 'None', '0', '-3', '1.5', 'x']);
    expect(pyStr({ a: [1, "it's", null], b: { c: 'q"' } })).toBe(`{'a': [1, "it's", None], 'b': {'c': 'q"'}}`);
    expect(pyStr(['tab\t', 'é'])).toBe("['tab\\t', 'é']");
  });

  it('repr() of floats: shortest digits, exponents below 1e-4 and from 1e16', () => {
    expect([0.1, 2.5, 1e-5, 0.0001, 1.5e-7, 1e16, 1.25e20, 3].map(pyFloat)).toEqual([
      '0.1',
      '2.5',
      '1e-05',
      '0.0001',
      '1.5e-07',
      '1e+16',
      '1.25e+20',
      '3.0',
    ]);
  });

  it('date-times as Python prints the parsed datetime', () => {
    expect(pyDateTime('2026-11-22T11:13:37.702Z')).toBe('2026-11-22 11:13:37.702000+00:00');
    expect(pyDateTime('2026-11-22T11:13:37.000Z')).toBe('2026-11-22 11:13:37+00:00');
    expect(pyDateTime('2026-11-22T11:13:37.1234567+0530')).toBe('2026-11-22 11:13:37.123456+05:30');
    expect(pyDateTime('2026-11-22T11:13')).toBe('2026-11-22 11:13:00');
    expect(pyDateTime('2026-11-22')).toBe('2026-11-22 00:00:00');
    expect(pyDateTime('not a time')).toBe('not a time');
  });

  it('the text layout: scalars first, nested values after, lists of dicts over the union of keys', () => {
    expect(formatText({ b: 1, a: 'x', n: { z: true }, l: [1, 2] })).toBe('x\t1\nL\t1\nL\t2\nN\tTrue\n');
    expect(formatText([{ a: 1 }, { b: 2, c: [3] }])).toBe('1\t\n\t2\nC\t3\n');
    expect(formatText([[1, 2], 3])).toBe('3\n1\t2\n');
    expect(formatText([])).toBe('');
    expect(formatText({})).toBe('');
    expect(formatText(null)).toBe('None\n');
  });
});

describe('JMESPath literals as the Python library takes them', () => {
  it('turns backtick text that is not JSON into a string literal, and leaves JSON and quoted text alone', () => {
    expect(lenientLiterals('users[?email==`a@example.com`]')).toBe('users[?email==`"a@example.com"`]');
    expect(lenientLiterals('a[?x==` spaced`]')).toBe('a[?x==`"spaced"`]');
    expect(lenientLiterals('a[?x==`1`] | b[?y==`"s"`] | `[1, 2]`')).toBe('a[?x==`1`] | b[?y==`"s"`] | `[1, 2]`');
    expect(lenientLiterals("a[?x=='`not`']")).toBe("a[?x=='`not`']");
    expect(lenientLiterals('"`quoted`".x')).toBe('"`quoted`".x');
  });
});
