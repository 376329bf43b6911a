/**
 * Drives every operation of a service against an emulator in this process,
 * the way a script that only knows the model would: each request is the
 * operation's skeleton filled with plausible values, and values the
 * emulator answered earlier (ids, names, CRNs) are used again for the
 * fields of the same name, so that describes, updates and deletes find what
 * the creates made; an example's made-up CRN gives way to one of the same
 * type the emulator made. Operations run creates first, then reads and
 * changes, deletes last. Each answer is checked against the model's
 * response shape.
 */
import { convertFlag } from '../../src/lib/cli/input.js';
import { validateRequest } from '../../src/lib/core/validate.js';
import { ApiError } from '../../src/lib/emulator/errors.js';
import type { Emulator } from '../../src/lib/emulator/server.js';
import type { Doc } from '../../src/lib/emulator/types.js';
import type { Operation, Service } from '../../src/lib/model/service.js';
import { kebab } from '../../src/lib/model/names.js';
import type { Field, Type } from '../../src/lib/model/shapes.js';

export interface OperationOutcome {
  readonly operation: string;
  readonly request: Doc;
  /** 200, or the error's HTTP status. */
  readonly status: number;
  readonly code?: string;
  readonly message?: string;
  /** Where the answer breaks its response shape. */
  readonly shapeIssues: readonly string[];
}

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The order operations run in: what makes things first, what removes them last. */
function rank(name: string): number {
  if (/^(create|add|register|import|enable|activate|set|initialize|collect|backup|grant|generate|upload|put)/.test(name)) return 0;
  if (/^(delete|drop|remove|disable|deregister|revoke|terminate|cancel|reset|unassign|purge)/.test(name)) return 3;
  if (/^(list|describe|get)/.test(name)) return 1;
  return 2;
}

/** The resource type a CRN names (`crn:cdp:ml:<region>:<account>:workspace:<id>` -> workspace). */

/**
 * Resource types whose resources are also of another type: df's flow
 * definitions added from a ReadyFlow are named `readyFlow` (the ones this
 * harness can make: an imported flow takes a file), yet are flow definitions
 * every `flowCrn` takes.
 */
const ALSO_OF_TYPE: Readonly<Record<string, readonly string[]>> = { 'df:flow': ['readyFlow'] };

/** Values seen in answers, by field name (newest last), to fill later requests with. */
export class ValuePool {
  private readonly byField = new Map<string, unknown[]>();
  /** Every CRN seen, newest last. */
  private readonly crns: string[] = [];

  add(field: string, v: unknown): void {
    if (v === undefined || v === null || v === '') return;
    if (typeof v === 'string' && v.startsWith('crn:')) this.crns.push(v);
    const list = this.byField.get(field) ?? [];
    list.push(v);
    if (list.length > 20) list.shift();
    this.byField.set(field, list);
  }

  get(field: string): unknown {
    for (const name of [field, `${field}Name`, `${field}Id`, `${field}Crn`]) {
      const list = this.byField.get(name);
      if (list && list.length > 0) return list[list.length - 1];
    }
    return undefined;
  }

  /** Whether a value was seen under exactly this field name. */
  has(field: string): boolean {
    return (this.byField.get(field)?.length ?? 0) > 0;
  }

  /** A CRN the emulator made to stand for an example's (of the same service and resource type, or one that is also of that type). */
  crnLike(example: string): string | undefined {
    if (!example.startsWith('crn:')) return undefined;
    const [, , service = '', , , type = ''] = example.split(':');
    return this.crnOf(service, type) ?? ALSO_OF_TYPE[`${service}:${type}`]?.map((t) => this.crnOf(service, t)).find((c) => c);
  }

  /** The newest CRN seen of a resource type of a service (`datahub`, `cluster`), in any field. */
  crnOf(service: string, type: string): string | undefined {
    for (let i = this.crns.length - 1; i >= 0; i--) {
      const [, , svc, , , t] = (this.crns[i] ?? '').split(':');
      if (svc === service && t === type) return this.crns[i];
    }
    return undefined;
  }

  /** Collects the values of an answer: `{vw: {id}}` also gives `vwId`, `{cluster: {crn}}` `clusterCrn`. */
  collect(doc: unknown, parent = ''): void {
    if (Array.isArray(doc)) {
      for (const x of doc.slice(0, 3)) {
        if (typeof x === 'string' && x.startsWith('crn:')) this.crns.push(x);
        else this.collect(x, parent);
      }
      return;
    }
    if (!isObject(doc)) return;
    for (const [k, v] of Object.entries(doc)) {
      if (typeof v === 'string' || typeof v === 'number') {
        this.add(k, v);
        if (parent && /^(id|name|crn)$/.test(k)) this.add(`${singular(parent)}${k.charAt(0).toUpperCase()}${k.slice(1)}`, v);
      } else this.collect(v, k);
    }
  }
}

const singular = (s: string): string => (s.endsWith('ies') ? `${s.slice(0, -3)}y` : s.endsWith('s') ? s.slice(0, -1) : s);

/** A plausible value for a request field: one seen before under its name, else one its name and type suggest. */
function valueFor(svc: Service, f: Field, type: Type, pool: ValuePool, op: string, depth: number, env: Doc): unknown {
  const t = svc.shapes.resolve(type);
  const seen = pool.get(f.name);
  if (t.kind === 'string' && !t.enum) {
    const inEnv = envValue(f.name, env);
    if (inEnv !== undefined) return inEnv;
    if (typeof seen === 'string') return seen;
    if (/Crn$|^crn$/.test(f.name)) return `crn:cdp:${svc.name}:us-west-1:acct:thing:${op}`;
    if (/(Time|Date|Timestamp)$/i.test(f.name)) return new Date().toISOString();
    if (/(Url|Uri|Endpoint)$/i.test(f.name)) return 'https://example.com/x';
    return `t-${op.toLowerCase().slice(0, 20)}`;
  }
  switch (t.kind) {
    case 'string':
      return t.enum?.[0];
    case 'datetime':
      return new Date().toISOString();
    case 'bytes':
      return Buffer.from('x').toString('base64');
    case 'int32':
    case 'int64':
      return typeof seen === 'number' ? seen : (f.min ?? 1);
    case 'double':
      return f.min ?? 1;
    case 'boolean':
      return false;
    case 'object':
    case 'map':
      return {};
    case 'list': {
      const of = t.of ?? { kind: 'string' as const };
      const item = valueFor(svc, { ...f, min: undefined }, of, pool, op, depth + 1, env);
      return f.required && item !== undefined ? [item] : [];
    }
    case 'ref':
      return depth > 6 ? {} : fill(svc, t.ref ?? '', pool, op, depth + 1, env, false);
  }
}

/** A request of a shape: required fields, and optional ones the pool has values for. */
function fill(svc: Service, shape: string, pool: ValuePool, op: string, depth: number, env: Doc, top: boolean): Doc {
  const s = svc.shapes.get(shape);
  if (s.kind !== 'struct') return {};
  const out: Doc = {};
  for (const f of s.fields) {
    if (f.deprecated && !f.required) continue;
    const seen = pool.get(f.name);
    // An optional field is filled with what another service answered only when it names an environment: a CRN of
    // another service under the same field name is most often something else (a Data Hub's clusterCrn is no compute cluster).
    const foreign =
      typeof seen === 'string' && seen.startsWith('crn:') && seen.split(':')[2] !== svc.name && envValue(f.name, env) === undefined;
    const known = top && seen !== undefined && !foreign && /(Id|ID|Name|Crn|CRN|^id|^name|^crn)$/.test(f.name);
    if (!f.required && !known) continue;
    const v = valueFor(svc, f, f.type, pool, op, depth, env);
    if (v !== undefined) out[f.name] = v;
  }
  return out;
}

/** Splits an example's flags into words as a shell would (single and double quotes). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)) out.push(m[1] ?? m[2]?.replace(/\\(.)/g, '$1') ?? m[3] ?? '');
  return out;
}

/** The request the operation's first example gives (its flags converted as the CLI converts them), or {}. */
function fromExample(svc: Service, op: Operation): Doc {
  const example = op.cli.examples?.find((e) => e.trim() !== '');
  if (!example) return {};
  const fields = new Map(svc.requestFields(op).map((f) => [kebab(f.name), f]));
  const out: Doc = {};
  const ws = words(example);
  for (let i = 0; i < ws.length; i++) {
    const flag = (ws[i] ?? '').replace(/^--/, '');
    const f = fields.get(flag.replace(/^no-/, ''));
    if (!(ws[i] ?? '').startsWith('--') || !f) continue;
    const values: string[] = [];
    while (i + 1 < ws.length && !(ws[i + 1] ?? '').startsWith('--')) values.push(ws[++i] ?? '');
    try {
      out[f.name] = values.length === 0 ? !flag.startsWith('no-') : convertFlag(values, f, svc.shapes, flag, false);
    } catch {
      // An example value this harness cannot convert (a file://): the filler gives one.
    }
  }
  return out;
}

/** The environment's name or CRN for a field that names an environment. */
function envValue(field: string, env: Doc): unknown {
  if (/^(environmentName|environment|env|envName|targetEnvironmentName)$/.test(field)) return env.name;
  if (/^(environmentCrn|envCrn|targetEnvironmentCrn)$/.test(field)) return env.crn;
  return undefined;
}

/** Whether a request field names something (an id, name or CRN, or an environment). */
const naming = (field: string): boolean => /(Id|ID|Name|Crn|CRN|^id|^name|^crn|^environment|^database|^cluster)$/.test(field);

/**
 * The field whose values a request field takes, where the model's help says
 * so: `serviceId`, "Id of the service (clusterId in `de services list`)",
 * takes the clusterId values seen.
 */
const sourceOf = (svc: Service, op: Operation, field: string): string | undefined =>
  /\((\w+) in `[^`]+`\)/.exec(svc.fieldHelp(op, field) ?? '')?.[1];

/**
 * An example's value inside a request, made to name what this emulator has:
 * fields that name an environment name the harness's, and a CRN stands for
 * one of the same resource type the emulator answered with (examples name
 * resources of their own).
 */
function localised(v: unknown, env: Doc, pool: ValuePool): unknown {
  if (typeof v === 'string') return pool.crnLike(v) ?? v;
  if (Array.isArray(v)) return v.map((x) => localised(x, env, pool));
  if (!isObject(v)) return v;
  const out: Doc = {};
  for (const [k, x] of Object.entries(v)) out[k] = envValue(k, env) ?? localised(x, env, pool);
  return out;
}

/**
 * The request a script that knows only the model would send: the skeleton's
 * required fields filled (the operation's example where it has one), and the
 * fields that name things taken from what the emulator has answered.
 */
export function plausibleRequest(svc: Service, op: Operation, pool: ValuePool, env: Doc): Doc {
  const filled = fill(svc, op.input, pool, op.name, 0, env, true);
  const example = fromExample(svc, op);
  const out: Doc = { ...example, ...filled };
  for (const [k, v] of Object.entries(example)) {
    const seen = pool.get(k);
    const inEnv = envValue(k, env);
    // An example's CRN names a made-up resource: a script uses one of that type the emulator made.
    const made = typeof v === 'string' ? pool.crnLike(v) : undefined;
    // A field named after a thing the emulator answered with (`credential`, with `credentialCrn` seen) names one too.
    const names = naming(k) || ['Name', 'Crn', 'Id'].some((s) => pool.has(`${k}${s}`));
    // A field whose help says it names the new thing (`Name of the new catalog`) keeps the example's name: it is not one seen before.
    const newName = /\bnew\b/i.test(svc.fieldHelp(op, k) ?? '');
    if (inEnv !== undefined) out[k] = inEnv;
    else if (newName) out[k] = v;
    else if (made !== undefined) out[k] = made;
    else if (!names || seen === undefined) out[k] = localised(v, env, pool);
  }
  for (const f of svc.requestFields(op)) {
    const from = f.name in out && pool.get(f.name) === undefined ? sourceOf(svc, op, f.name) : undefined;
    const seen = from ? pool.get(from) : undefined;
    if (seen !== undefined && typeof seen === typeof out[f.name]) out[f.name] = seen;
  }
  return out;
}

const HOUR = 3_600_000;

/**
 * Runs every operation of a service (those a request can reach: not
 * composed, taking no file) in rounds three hours apart (on the emulator's
 * clock), as a script that waits would: creates; the creates that were
 * refused (what they need now exists); reads and changes; the creates and
 * then the reads and changes refused before; all of those once more
 * (work refused while other work ran); deletes last. An operation's
 * outcome is that of its last try.
 */
export function exerciseService(
  em: Emulator,
  svc: Service,
  env: { name: string; crn: string },
  world: ReadonlyArray<{ service: Service; operation: string }> = [],
): OperationOutcome[] {
  const pool = new ValuePool();
  // What the service's operations refer to in other services (a data lake, a Data Hub): made first, as a script would.
  for (const w of world) attempt(em, w.service, w.service.operation(w.operation), pool, env);
  if (world.length > 0) em.driveClock({ advanceMs: 3 * HOUR });
  // A file cannot be given in this process: operations that take one (an upload, or a redirected upload) are left out.
  const ops = svc.operations().filter((op) => !op.composed && !em.takesFile(svc.name, op.name));
  const byRank = (n: number): Operation[] => ops.filter((op) => rank(op.name) === n).sort((a, b) => a.name.localeCompare(b.name));
  const outcomes = new Map<string, OperationOutcome>();
  const failed = (list: Operation[]): Operation[] => list.filter((op) => outcomes.get(op.name)?.status !== 200);
  const round = (list: Operation[]): void => {
    for (const op of list) outcomes.set(op.name, attempt(em, svc, op, pool, env));
    em.driveClock({ advanceMs: 3 * HOUR });
  };
  round(byRank(0));
  // Creates that needed what others made are tried again once that has settled, and settle before they are used.
  round(failed(byRank(0)));
  round([...byRank(1), ...byRank(2)]);
  round(failed(byRank(0)));
  round(failed([...byRank(1), ...byRank(2)]));
  round(failed([...byRank(0), ...byRank(1), ...byRank(2)]));
  round(byRank(3));
  return ops.map((op) => outcomes.get(op.name)).filter((o): o is OperationOutcome => o !== undefined);
}

function attempt(em: Emulator, svc: Service, op: Operation, pool: ValuePool, env: Doc): OperationOutcome {
  {
    const request = plausibleRequest(svc, op, pool, env);
    try {
      const answer = em.call(svc.name, op.name, request);
      pool.collect(answer);
      pool.collect(request);
      const issues = validateRequest(svc.shapes, op.output, answer).map((i) => i.message);
      return { operation: op.name, request, status: 200, shapeIssues: issues };
    } catch (err) {
      if (err instanceof ApiError)
        return { operation: op.name, request, status: err.status, code: err.code, message: err.message, shapeIssues: [] };
      // What the server would answer 500 INTERNAL_ERROR: kept with its stack, for the test to show.
      return {
        operation: op.name,
        request,
        status: 500,
        code: 'INTERNAL_ERROR',
        message: (err as Error).stack ?? String(err),
        shapeIssues: [],
      };
    }
  }
}
