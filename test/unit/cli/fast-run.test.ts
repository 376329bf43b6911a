import { describe, expect, it } from '@jest/globals';
import { Parser } from '@oclif/core';
import { parseFlags } from '../../../src/lib/cli/fast-run.js';
import { operationFlags } from '../../../src/lib/cli/flags.js';
import { operationFlagSpecs } from '../../../src/lib/cli/flag-spec.js';
import { loadAllServices, loadService, type Operation } from '../../../src/lib/model/index.js';

async function oclifParse(op: Operation, argv: string[]): Promise<Record<string, unknown> | Error> {
  try {
    const { flags } = await Parser.parse(argv, { flags: operationFlags(op), args: {}, strict: true });
    return flags as Record<string, unknown>;
  } catch (err) {
    return err as Error;
  }
}

describe('fast path flag parsing', () => {
  it('gives exactly the flags oclif gives for every line it accepts, and leaves the rest to oclif', async () => {
    const iam = await loadService('iam');
    const list = iam.findByCommand('iam users list');
    const get = iam.findByCommand('iam users get');
    expect([list?.name, get?.name]).toEqual(['listUsers', 'getUser']);
    const ops = [list!, get!];
    // Operations with booleans (allowNo) and lists, whatever services exist.
    for (const svc of await loadAllServices()) {
      for (const op of svc.operations()) {
        const kinds = Object.values(operationFlagSpecs(op));
        if (kinds.some((s) => s.allowNo) && kinds.some((s) => s.multiple)) {
          ops.push(op);
          break;
        }
      }
    }
    const lines: string[][] = [
      [],
      ['--profile', 'emulator'],
      ['--profile=emulator', '-o', 'json'],
      ['--output', 'jsonl', '--max-items', '5', '--page-size', '2', '--no-paginate'],
      ['-o', 'nope'],
      ['--output'],
      ['--output', '--debug'],
      ['--debug', '--debug'],
      ['--profile', 'a', '--profile', 'b'],
      ['--help'],
      ['-h'],
      ['extra'],
      ['--', '--x'],
      ['--unknown', 'x'],
      ['--debug=true'],
      ['-y', '--no-pager', '--no-input', '--color', 'off', '--query', 'users[0]'],
      ['--cli-input-json', '{}', '--generate-skeleton'],
      ['--input', '{}', '--starting-token', 'abc'],
      ['--no-debug'],
    ];
    let compared = 0;
    for (const op of ops) {
      const specs = operationFlagSpecs(op);
      const extra: string[][] = [];
      for (const [name, spec] of Object.entries(specs)) {
        if (spec.allowNo) extra.push([`--${name}`], [`--no-${name}`], [`--${name}`, `--no-${name}`]);
        if (spec.multiple) extra.push([`--${name}`, 'a', `--${name}`, 'b'], [`--${name}`, 'a', 'b'], [`--${name}=c`]);
        if (spec.options) extra.push([`--${name}`, spec.options[0]!]);
      }
      for (const line of [...lines, ...extra]) {
        const fast = parseFlags(specs, line);
        if (fast === undefined) continue;
        const oclif = await oclifParse(op, line);
        compared++;
        expect({ op: op.commandId, line, flags: oclif }).toEqual({ op: op.commandId, line, flags: fast });
      }
    }
    expect(compared).toBeGreaterThan(20);
    expect(ops.length).toBeGreaterThan(2);
    // Lines that must go to oclif.
    const specs = operationFlagSpecs(list!);
    for (const line of [['--help'], ['-h'], ['extra'], ['-o', 'nope'], ['--output'], ['--debug', '--debug'], ['--x']]) {
      expect(parseFlags(specs, line)).toBeUndefined();
    }
  });
});
