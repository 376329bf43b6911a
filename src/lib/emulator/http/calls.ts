/**
 * What a checked call carries beyond its request: where it came from (for
 * the audit trail), the request as an observer may keep it (secrets left
 * out), and a workload token's scope.
 */
import type { IncomingMessage } from 'node:http';
import type { Operation } from '../../model/index.js';
import type { ShapeIndex, Type } from '../../model/shapes.js';
import { forbidden } from '../errors.js';
import type { Caller, Doc } from '../types.js';

/** Where a request came from, for the calls observed. */
export interface CallOrigin {
  readonly requestId: string;
  readonly sourceIp?: string;
  readonly userAgent?: string;
}

export function originOf(req: IncomingMessage, requestId: string): CallOrigin {
  const agent = req.headers['user-agent'];
  return { requestId, ...(req.socket.remoteAddress ? { sourceIp: req.socket.remoteAddress } : {}), ...(agent ? { userAgent: agent } : {}) };
}

/** A request as an observer may keep it: the fields the model marks secret left out, at any depth (a password inside a configuration object too). */
export function withoutSecrets(op: Operation, request: unknown): Doc {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return {};
  return stripSecrets(op.service.shapes, { kind: 'ref', ref: op.input }, request, 0) as Doc;
}

function stripSecrets(shapes: ShapeIndex, type: Type, value: unknown, depth: number): unknown {
  if (depth > 40 || typeof value !== 'object' || value === null) return value;
  const t = shapes.resolve(type);
  if (Array.isArray(value))
    return t.kind === 'list' ? value.map((v) => stripSecrets(shapes, t.of ?? { kind: 'string' }, v, depth + 1)) : value;
  if (t.kind === 'map')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, stripSecrets(shapes, t.of ?? { kind: 'string' }, v, depth + 1)]));
  const struct = shapes.struct(t);
  if (!struct) return value;
  const out: Doc = {};
  for (const [k, v] of Object.entries(value)) {
    const field = struct.byName.get(k);
    if (!field?.secret) out[k] = field ? stripSecrets(shapes, field.type, v, depth + 1) : v;
  }
  return out;
}

/** A workload token works only for the environment it was issued for. */
export function checkWorkloadScope(caller: Caller, request: unknown): void {
  const tokenEnv = caller.workload?.environmentCrn;
  if (!tokenEnv || typeof request !== 'object' || request === null) return;
  const asked = (request as Doc).environmentCrn;
  if (typeof asked === 'string' && asked !== '' && asked !== tokenEnv)
    throw forbidden(
      `the workload token was issued for environment ${tokenEnv}, not ${asked.slice(0, 200)}; get a token for that environment`,
    );
}
