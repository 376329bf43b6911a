/** Copies a document with every field the model marks secret replaced; a URL without the user name and password it carries. */
import type { ShapeIndex, Type } from '../model/shapes.js';

export const REDACTED = '<redacted>';

/** A URL as --debug shows it: user information (`http://user:password@host/`) replaced, the rest as it is. */
export function redactUrl(url: URL): string {
  if (url.username === '' && url.password === '') return url.href;
  return `${url.protocol}//${REDACTED}@${url.host}${url.pathname}${url.search}${url.hash}`;
}

export function redact(shapes: ShapeIndex, shapeName: string, value: unknown): unknown {
  if (!shapes.has(shapeName)) return value;
  return redactType(shapes, { kind: 'ref', ref: shapeName }, value, 0);
}

function redactType(shapes: ShapeIndex, type: Type, value: unknown, depth: number): unknown {
  if (depth > 40 || value === null || typeof value !== 'object') return value;
  if (type.kind === 'list' && Array.isArray(value))
    return value.map((v) => redactType(shapes, type.of ?? { kind: 'string' }, v, depth + 1));
  if (type.kind === 'map' && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactType(shapes, type.of ?? { kind: 'string' }, v, depth + 1)]));
  }
  const struct = shapes.struct(type);
  if (!struct || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const field = struct.byName.get(k);
    out[k] = field?.secret ? REDACTED : field ? redactType(shapes, field.type, v, depth + 1) : v;
  }
  return out;
}
