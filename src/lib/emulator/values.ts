/**
 * Reading request values and writing response values, shared by every
 * service module. Requests have been checked against the model before a
 * handler runs, so these only pick the value out in the type it has.
 */
import { createHash } from 'node:crypto';
import type { Doc } from './engine/context.js';

/** A non-empty string, or undefined. */
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** A string field the model requires (its text, '' when absent). */
export const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** true only for true. */
export const bool = (v: unknown): boolean => v === true;

/** A boolean when one is given, else undefined. */
export const optBool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);

export const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/** A list of objects ([] when absent). */
export const docs = (v: unknown): Doc[] => (Array.isArray(v) ? (v as Doc[]) : []);

/** The strings of a list ([] when absent). */
export const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** An object ({} when absent or not an object). */
export const obj = (v: unknown): Doc => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Doc) : {});

/** A string map ({} when absent). */
export const stringMap = (v: unknown): Record<string, string> => obj(v) as Record<string, string>;

export const uniq = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

/** An ISO-8601 time of emulated ms. */
export const iso = (ms: number): string => new Date(ms).toISOString();

export const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

/** The first `n` hex digits of sha256(seed): stable made-up ids. */
export const hex = (seed: string, n: number): string => createHash('sha256').update(seed).digest('hex').slice(0, n);

/** Drops undefined fields (the wire leaves absent fields out). */
export function compact(d: Doc): Doc {
  const out: Doc = {};
  for (const [k, v] of Object.entries(d)) if (v !== undefined) out[k] = v;
  return out;
}
