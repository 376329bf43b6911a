/**
 * Bad input to every operation command, in-process: the pieces the CLI runs
 * before sending (buildRequest: flag conversion and --input loading;
 * checkRequest: the model's validation) must end every hostile input in a
 * usage error (exit 2) whose message is one line naming the flag or field —
 * never another kind of error, never a crash or a hang.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { buildRequest, checkRequest } from '../../src/lib/cli/run-operation.js';
import { flagFields } from '../../src/lib/cli/flags.js';
import { loadInputDocument } from '../../src/lib/cli/input.js';
import { CdpError } from '../../src/lib/core/errors.js';
import { validateRequest } from '../../src/lib/core/validate.js';
import { kebab } from '../../src/lib/model/names.js';
import { loadAllServices, type Operation } from '../../src/lib/model/index.js';
import { defectArb, flagStringArb, noiseArb, resolved, type Doc } from './fuzz.js';

const RUNS_PER_OP = Number(process.env.RELIABILITY_RUNS ?? 6);
let ops: Operation[] = [];
let dir = '';
const files = { invalidUtf8: '', dir: '', missing: '', deepJson: '' };
const tried = { docs: 0, flags: 0, files: 0 };

beforeAll(async () => {
  ops = (await loadAllServices()).flatMap((s) => s.operations());
  dir = mkdtempSync(join(tmpdir(), 'cdpctl-rel-input-'));
  files.invalidUtf8 = join(dir, 'bad-utf8.json');
  writeFileSync(files.invalidUtf8, Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d]));
  files.dir = join(dir, 'a-directory');
  mkdirSync(files.dir);
  files.missing = join(dir, 'does-not-exist.json');
  files.deepJson = join(dir, 'deep.json');
  writeFileSync(files.deepJson, '['.repeat(100_000) + ']'.repeat(100_000));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  // The closing numbers of the reliability report.
  console.log(
    `reliability: CLI input tried in-process: ${tried.docs} defective documents, ${tried.flags} flag sets, ${tried.files} hostile files`,
  );
});

/** The error the CLI would report, or undefined when the input was accepted. */
async function outcome(op: Operation, flags: Record<string, unknown>): Promise<CdpError | undefined> {
  try {
    const request = await buildRequest(op, flags);
    checkRequest(op, request);
    return undefined;
  } catch (err) {
    if (err instanceof CdpError) return err;
    throw new Error(`${op.commandId}: not a CdpError for ${JSON.stringify(flags).slice(0, 300)}: ${(err as Error).stack ?? String(err)}`);
  }
}

/** The contract of a reported input error. */
function expectUsage(op: Operation, err: CdpError | undefined, what: string): CdpError {
  if (!err) throw new Error(`${op.commandId}: accepted ${what}`);
  expect({ kind: err.kind, exit: err.exitCode, op: op.commandId }).toEqual({ kind: 'usage', exit: 2, op: op.commandId });
  if (/[\r\n]/.test(err.message))
    throw new Error(`${op.commandId}: multi-line message for ${what}: ${JSON.stringify(err.message.slice(0, 300))}`);
  expect(err.message.length).toBeLessThan(2000);
  expect(err.message).toMatch(/--[a-z0-9]|"[^"]*"/);
  expect(err.message).not.toMatch(/\n\s+at /);
  return err;
}

function writeDoc(doc: Doc, format: 'json' | 'yaml', name: string): string {
  const path = join(dir, `${name}.${format}`);
  writeFileSync(path, format === 'json' ? JSON.stringify(doc) : stringify(doc, { aliasDuplicateObjects: false }));
  return path;
}

describe('--input documents with one defect are rejected naming the field', () => {
  test('every operation of every loaded service', async () => {
    expect(ops.length).toBeGreaterThan(0);
    let n = 0;
    for (const op of ops) {
      await fc.assert(
        fc.asyncProperty(
          noiseArb(op),
          defectArb(op),
          fc.constantFrom('json', 'yaml', 'inline'),
          async (noise, { defect, value }, format) => {
            const doc: Doc = { ...noise };
            if (defect.kind === 'missing') delete doc[defect.path];
            else doc[defect.field] = value;
            // YAML of a deeply nested value is not what this property is about.
            const fmt = defect.kind === 'deep' || defect.kind === 'tooLong' ? 'json' : format;
            const input = fmt === 'inline' ? JSON.stringify(doc) : writeDoc(doc, fmt, `doc-${n++}`);
            tried.docs++;
            const request = await buildRequest(op, { input });
            const issues = validateRequest(op.service.shapes, op.input, request, op.cli.rules);
            const hit = issues.find(
              (i) => i.path === defect.path || i.path.startsWith(`${defect.path}.`) || i.path.startsWith(`${defect.path}[`),
            );
            if (!hit)
              throw new Error(
                `${op.commandId}: ${defect.kind} at ${defect.path} not reported; issues: ${JSON.stringify(issues).slice(0, 400)}`,
              );
            const err = expectUsage(op, await outcome(op, { input }), `${defect.kind} at ${defect.path}`);
            const report = [err.message, ...err.details].join('\n');
            const flag = `--${kebab(defect.field)}`;
            expect(report.includes(flag) || report.includes(`"${defect.path}`) || report.includes(`"${defect.field}`)).toBe(true);
            if (defect.kind === 'enumTypo') expect(hit.message).toMatch(/must be one of/);
            if (defect.kind === 'unknown') expect(hit.message).toMatch(/^unknown field/);
            if (defect.kind === 'missing') expect(hit.message).toMatch(/^missing required field/);
          },
        ),
        { numRuns: RUNS_PER_OP, seed: Number(process.env.RELIABILITY_SEED ?? 42) },
      );
    }
  });

  test('unreadable, malformed and hostile --input files', async () => {
    const op = ops[0];
    if (!op) throw new Error('no operations');
    const bad: Array<[string, Buffer | string]> = [
      ['invalid-utf8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])],
      ['overlong-utf8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d])],
      ['lone-surrogate', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d])],
      ['truncated-json', '{"a": [1, 2'],
      ['array', '[1, 2, 3]'],
      ['number', '42'],
      ['string', '"just text"'],
      ['yaml-scalar', 'hello'],
      ['yaml-list', '- a\n- b\n'],
      ['yaml-bad', 'a: [1, 2\nb: }'],
      ['yaml-tabs', 'a:\n\t- b'],
      [
        'yaml-bomb',
        `a: &a ["x","x","x","x","x","x","x","x","x"]\n${Array.from(
          { length: 12 },
          (_, i) =>
            `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
              .fill(`*${String.fromCharCode(97 + i)}`)
              .join(',')}]`,
        ).join('\n')}\n`,
      ],
      ['deep-json', '['.repeat(200_000) + ']'.repeat(200_000)],
      ['deep-object', '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000)],
      ['deep-yaml', 'a: ' + '['.repeat(5_000) + ']'.repeat(5_000)],
      ['nul-bytes', '{"a":"\u0000"}\u0000'],
      ['bom-json', '\ufeff{"zzUnknown": 1}'],
      ['proto', '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}'],
      ['huge-unknown', `{"${'k'.repeat(100_000)}": 1}`],
    ];
    // One operation per service (and the first few): loading does not depend on the operation.
    const sample = [...new Map(ops.map((o) => [o.service.name, o])).values(), ...ops.slice(0, 3)];
    for (const [name, content] of bad) {
      const path = join(dir, `hostile-${name}`);
      writeFileSync(path, content);
      for (const target of /^(deep|huge)/.test(name) ? [op] : sample) {
        tried.files++;
        expectUsage(target, await outcome(target, { input: path }), `file ${name}`);
      }
    }
    for (const spec of [files.missing, files.dir, `file://${files.missing}`, files.invalidUtf8]) {
      tried.files++;
      const err = expectUsage(op, await outcome(op, { input: spec }), spec);
      expect(err.message).toMatch(/--input/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('stdin that is not UTF-8, JSON or an object', async () => {
    const op = ops[0];
    if (!op) throw new Error('no operations');
    for (const bytes of [Buffer.from([0xff, 0xfe, 0x00]), Buffer.from('{"a":'), Buffer.from('[]'), Buffer.from('- 1')]) {
      tried.files++;
      let err: unknown;
      try {
        await loadInputDocument('-', async () => bytes);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(CdpError);
      expectUsage(op, err as CdpError, 'stdin');
      expect((err as CdpError).message).toMatch(/--input/);
    }
  });
});

describe('hostile flag values end in a usage error naming the flag, or are accepted', () => {
  test('every flag of every operation', async () => {
    for (const op of ops) {
      const shapes = op.service.shapes;
      const fields = flagFields(op);
      if (!fields.length) continue;
      const perField = fields.map((f) => {
        const t = resolved(shapes, f);
        const flag = kebab(f.name);
        if (t.kind === 'boolean') return fc.boolean().map((v) => [flag, v] as const);
        const of = t.kind === 'list' ? shapes.resolve(t.of ?? { kind: 'string' }) : t;
        const s = flagStringArb(files, of.enum);
        return (t.kind === 'list' ? fc.array(s, { minLength: 1, maxLength: 3 }) : s).map((v) => [flag, v] as const);
      });
      await fc.assert(
        fc.asyncProperty(
          fc
            .subarray(
              perField.map((_, i) => i),
              { minLength: 1 },
            )
            .chain((idx) => fc.tuple(...idx.map((i) => perField[i] ?? fc.constant(['x', 'x'] as const)))),
          async (pairs) => {
            const flags = Object.fromEntries(pairs);
            tried.flags++;
            const err = await outcome(op, flags);
            if (err) {
              expectUsage(op, err, `flags ${JSON.stringify(flags).slice(0, 200)}`);
              expect(err.message).toMatch(/--[a-z0-9]/);
            }
          },
        ),
        { numRuns: RUNS_PER_OP, seed: Number(process.env.RELIABILITY_SEED ?? 42) },
      );
    }
  });
});
