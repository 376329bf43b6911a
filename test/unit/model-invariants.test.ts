/**
 * Model-wide invariants, in the spirit of aws-cli's `validates_models` tests:
 * every operation of every loaded service has a command with a one-line
 * summary, a realistic example and the wire name in its help; ids are
 * unique; no operation flag shadows a global flag; paging and waiter specs
 * point at fields and operations that exist.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { globalFlags, inputFlags, operationFlags, pagingFlags, waitFlags } from '../../src/lib/cli/flags.js';
import { describedOperationCommand } from '../../src/lib/cli/operation-command.js';
import { compileQuery } from '../../src/lib/cli/query.js';
import { GLOBAL_FLAG_ARITY } from '../../src/lib/cli/argv.js';
import { flagFields } from '../../src/lib/cli/flag-spec.js';
import { CUSTOMIZED, customizationOf } from '../../src/lib/customizations/index.js';
import { loadAllServices, type Operation, type Service } from '../../src/lib/model/index.js';
import { kebab } from '../../src/lib/model/names.js';
import type { Type } from '../../src/lib/model/shapes.js';

let services: Service[] = [];
let ops: Operation[] = [];

beforeAll(async () => {
  services = await loadAllServices();
  ops = services.flatMap((s) => s.operations());
});

/** Problems as `command: what`, so a failure lists every offender at once. */
const check = (fn: (op: Operation) => Array<string | undefined> | string | undefined): string[] =>
  ops.flatMap((op) =>
    [fn(op)]
      .flat()
      .filter((p): p is string => Boolean(p))
      .map((p) => `${op.commandId} (${op.service.name} ${op.name}): ${p}`),
  );

const HANDWRITTEN = ['api', 'configure', 'configure get', 'configure list', 'configure set', 'emulator'];
const SHARED_FLAGS = new Set([
  ...Object.keys(globalFlags),
  ...Object.keys(inputFlags),
  ...Object.keys(pagingFlags),
  ...Object.keys(waitFlags),
  'decode',
  'access-token',
  'help',
  'cli-input-json',
]);
const SHARED_CHARS = new Set(
  Object.values({ ...globalFlags, ...inputFlags, ...pagingFlags, ...waitFlags })
    .map((f) => (f as { char?: string }).char)
    .filter(Boolean),
);

describe('the model', () => {
  test('loads services with operations', () => {
    expect(services.length).toBeGreaterThan(0);
    expect(services.map((s) => s.topic)).toContain('iam');
    expect(ops.length).toBeGreaterThan(10);
  });

  test('every wire and composed operation has a cli entry, and every cli entry an operation', () => {
    const problems = services.flatMap((s) => [
      ...Object.keys(s.def.wire)
        .filter((n) => !Object.hasOwn(s.def.cli, n))
        .map((n) => `${s.name} ${n}: no cli entry`),
      ...Object.keys(s.def.composed ?? {})
        .filter((n) => !Object.hasOwn(s.def.cli, n) || Object.hasOwn(s.def.wire, n))
        .map((n) => `${s.name} ${n}: a composed operation needs a cli entry and a name no wire operation has`),
      ...Object.keys(s.def.cli)
        .filter((n) => !s.has(n))
        .map((n) => `${s.name} ${n}: cli entry without an operation`),
    ]);
    expect(problems).toEqual([]);
  });

  test('customizations: every entry loads and names an operation; every composed operation has one', async () => {
    const problems: string[] = [];
    for (const key of CUSTOMIZED) {
      const [service, name] = key.split(' ');
      const svc = services.find((s) => s.name === service);
      if (!svc?.has(name ?? '')) {
        problems.push(`${key}: no such operation`);
        continue;
      }
      const loader = customizationOf(svc.operation(name ?? ''));
      const custom = loader ? await loader() : undefined;
      if (typeof custom?.run !== 'function') problems.push(`${key}: does not load a customization`);
    }
    for (const op of ops)
      if (op.composed && !customizationOf(op)) problems.push(`${op.service.name} ${op.name}: composed without a customization`);
    expect(problems).toEqual([]);
  });

  test('every summary is present, one line, and a sentence', () => {
    expect(
      check((op) => {
        const s = op.cli.summary ?? '';
        if (!s.trim()) return 'no summary';
        if (s.includes('\n')) return 'summary spans lines';
        if (s.length > 120) return `summary is ${s.length} characters (at most 120)`;
        if (!/[.)]$/.test(s)) return 'summary does not end with a full stop';
        return undefined;
      }),
    ).toEqual([]);
  });

  test('every operation has at least one example, and its flags exist', () => {
    expect(
      check((op) => {
        const examples = op.cli.examples ?? [];
        if (examples.length === 0) return 'no example';
        const flags = operationFlags(op);
        const known = new Set(Object.keys(flags));
        for (const [name, f] of Object.entries(flags)) if ((f as { allowNo?: boolean }).allowNo) known.add(`no-${name}`);
        const problems: string[] = [];
        for (const ex of examples) {
          for (const m of ex.matchAll(/(?:^|\s)--([a-z0-9][a-z0-9-]*)/g)) {
            if (!known.has(m[1] ?? '')) problems.push(`example "${ex}" uses unknown flag --${m[1]}`);
          }
        }
        return problems;
      }),
    ).toEqual([]);
  });

  test('help names the wire operation (API: <service> <operation>)', () => {
    expect(
      check((op) => {
        const cls = describedOperationCommand(op) as unknown as { description?: string; summary?: string; examples?: string[] };
        if (!cls.description?.includes(`API: ${op.service.name} ${op.name}`)) return 'description lacks the API line';
        if (!cls.examples?.length) return 'no help example';
        return undefined;
      }),
    ).toEqual([]);
  });

  test('command ids and aliases are unique and do not collide with hand-written commands', () => {
    const seen = new Map<string, string>();
    const problems: string[] = [];
    for (const id of HANDWRITTEN) seen.set(id, 'hand-written');
    for (const op of ops) {
      const who = `${op.service.name} ${op.name}`;
      if (!op.commandId.startsWith(`${op.service.topic} `)) problems.push(`${who}: ${op.commandId} is outside its topic`);
      for (const id of new Set([op.commandId, op.aliasId])) {
        const prev = seen.get(id);
        if (prev && prev !== who) problems.push(`${id}: both ${prev} and ${who}`);
        seen.set(id, who);
      }
      if (!/^[a-z0-9]+( [a-z0-9-]+)+$/.test(op.commandId)) problems.push(`${who}: "${op.commandId}" is not lower-case kebab words`);
    }
    expect(problems).toEqual([]);
  });

  test('resource topics under a service have a description', () => {
    expect(
      check((op) => {
        const words = op.cli.command.split(' ');
        if (words.length < 2) return undefined;
        const topic = words.slice(0, -1).join(':');
        return Object.hasOwn(op.service.def.topics, topic) ? undefined : `topic "${topic.replace(/:/g, ' ')}" has no description`;
      }),
    ).toEqual([]);
  });

  test('no operation flag shadows a global flag (aws-cli shadowing test)', () => {
    expect(
      check((op) => {
        const problems: string[] = [];
        const names = new Map<string, string>();
        for (const f of op.service.requestFields(op)) {
          const name = kebab(f.name);
          // Paging flags exist only on paged operations; elsewhere a field may own the name (ml getLogs pageSize).
          const paging = Object.hasOwn(pagingFlags, name);
          if (SHARED_FLAGS.has(name) && (paging ? op.paging && f.name !== op.paging.inputToken && f.name !== op.paging.pageSize : true))
            problems.push(`--${name} (from ${f.name}) shadows a global flag`);
          const t = op.service.shapes.resolve(f.type);
          if (t.kind === 'boolean' && SHARED_FLAGS.has(`no-${name}`)) problems.push(`--no-${name} (from ${f.name}) shadows a global flag`);
          if (GLOBAL_FLAG_ARITY[`--${name}`] !== undefined && !problems.length) problems.push(`--${name} is hoisted as a global flag`);
          const prev = names.get(name);
          if (prev) problems.push(`--${name} comes from both ${prev} and ${f.name}`);
          names.set(name, f.name);
        }
        for (const f of Object.values(operationFlags(op))) {
          const c = (f as { char?: string }).char;
          if (c && !SHARED_CHARS.has(c)) problems.push(`-${c} is an operation short flag`);
        }
        return problems;
      }),
    ).toEqual([]);
  });

  test('fieldHelp and rules name request fields', () => {
    expect(
      check((op) => {
        const fields = op.service.requestShape(op).byName;
        const problems: string[] = [];
        for (const k of Object.keys(op.cli.fieldHelp ?? {})) if (!fields.has(k)) problems.push(`fieldHelp for unknown field ${k}`);
        for (const r of op.cli.rules ?? []) {
          const named = 'fields' in r ? r.fields : 'needs' in r ? [r.field, r.needs] : [r.field];
          for (const k of named) if (!fields.has(k)) problems.push(`${r.kind} rule names unknown field ${k}`);
        }
        if (op.cli.upload && !fields.has(op.cli.upload.fileField)) problems.push(`upload file field ${op.cli.upload.fileField} is unknown`);
        for (const k of Object.keys(op.cli.upload?.headers ?? {})) if (!fields.has(k)) problems.push(`upload header field ${k} is unknown`);
        return problems;
      }),
    ).toEqual([]);
  });

  test("each service's facts are its own", () => {
    const problems = services
      .filter((s) => s.def.facts.name !== s.name)
      .map((s) => `${s.topic}: facts of ${s.def.facts.name}, not ${s.name}`);
    expect(problems).toEqual([]);
  });

  test('every operation flag says what it is, in our words', () => {
    expect(
      check((op) =>
        flagFields(op)
          .filter((f) => !op.service.fieldHelp(op, f.name)?.trim())
          .map((f) => `--${kebab(f.name)} (${f.name}) has no description`),
      ),
    ).toEqual([]);
  });

  test("a service's fieldHelp names a request field of one of its operations", () => {
    const problems = services.flatMap((s) => {
      const taken = new Set(s.operations().flatMap((op) => s.requestFields(op).map((f) => f.name)));
      return Object.keys(s.def.fieldHelp ?? {})
        .filter((k) => !taken.has(k))
        .map((k) => `${s.topic}: fieldHelp for ${k}, which no operation takes`);
    });
    expect(problems).toEqual([]);
  });

  test('deprecated operations name a replacement command that exists', () => {
    expect(
      check((op) => {
        // The replacement may carry flags: `secrets rotate --secret-types SALT_PASSWORD`.
        const command = op.cli.replacement?.split(/\s+--/)[0]?.trim();
        if (command && !op.service.findByCommand(`${op.service.topic} ${command}`)) return `replacement "${command}" is not a command`;
        return undefined;
      }),
    ).toEqual([]);
  });

  test('paging specs name request and response fields that exist', () => {
    expect(
      check((op) => {
        const p = op.paging;
        if (!p) return undefined;
        const req = op.service.requestShape(op).byName;
        const res = op.service.shapes.get(op.output);
        const problems: string[] = [];
        if (!req.has(p.inputToken)) problems.push(`paging input token ${p.inputToken} is not a request field`);
        if (!req.has(p.pageSize)) problems.push(`paging page size ${p.pageSize} is not a request field`);
        if (res.kind !== 'struct') return [...problems, `response ${op.output} is not a structure`];
        if (!res.byName.has(p.outputToken)) problems.push(`paging output token ${p.outputToken} is not a response field`);
        const result = res.byName.get(p.result);
        if (!result) problems.push(`paging result ${p.result} is not a response field`);
        else if (op.service.shapes.resolve(result.type).kind !== 'list') problems.push(`paging result ${p.result} is not a list`);
        if (!(p.defaultMaxItems > 0)) problems.push('paging defaultMaxItems is not positive');
        return problems;
      }),
    ).toEqual([]);
  });

  test('waiters poll an existing operation with its required fields, and their expressions compile', async () => {
    const problems: string[] = [];
    for (const op of ops) {
      const w = op.cli.wait;
      if (!w) continue;
      const who = `${op.commandId}`;
      const pollService = w.service ? services.find((s) => s.name === w.service) : op.service;
      if (!pollService?.has(w.poll)) {
        problems.push(`${who}: waiter polls unknown operation ${w.service ?? op.service.name} ${w.poll}`);
        continue;
      }
      const poll = pollService.operation(w.poll);
      const pollFields = pollService.requestShape(poll).byName;
      for (const k of Object.keys(w.input)) if (!pollFields.has(k)) problems.push(`${who}: waiter input ${k} is not a field of ${w.poll}`);
      for (const f of pollFields.values())
        if (f.required && !(f.name in w.input)) problems.push(`${who}: waiter leaves ${w.poll} ${f.name} out`);
      if (w.success.length === 0) problems.push(`${who}: waiter has no success state`);
      // A label is a path to a field of the poll's answer: a typo would leave the wait named by its id.
      if (w.label !== undefined) {
        let type: Type | undefined = { kind: 'ref', ref: poll.output };
        for (const part of w.label.split('.')) type = type && pollService.shapes.struct(type)?.byName.get(part)?.type;
        if (!type) problems.push(`${who}: waiter label ${w.label} is no field of ${poll.output}`);
      }
      for (const expr of [w.state, w.reason, w.result, w.label, ...Object.values(w.input)]) {
        if (expr === undefined) continue;
        try {
          await compileQuery(expr);
        } catch (err) {
          problems.push(`${who}: ${(err as Error).message}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
