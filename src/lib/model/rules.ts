/**
 * Small building blocks for the custom rules of the service models, so that
 * each service says only what is particular to it.
 */
import type { Rule } from './types.js';

/** A request (or a structure inside one) as a rule sees it. */
export type Req = Readonly<Record<string, unknown>>;

/** The value as a structure, or undefined when it is not one (a list, a scalar, nothing). */
export const asObject = (v: unknown): Req | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Req) : undefined;

/**
 * Whether the user gave a value: an unset flag, a null, an empty string and a
 * boolean flag left off (false) all count as not given.
 */
export const given = (v: unknown): boolean => v !== undefined && v !== null && v !== '' && v !== false;

/** A list flag that, when given, must hold at least one item. */
export const atLeastOne = (field: string, what: string): Rule => ({
  kind: 'custom',
  field,
  check: (r) => (Array.isArray(r[field]) && (r[field] as unknown[]).length === 0 ? `give at least one ${what}` : undefined),
});

/** A name of lower-case letters, digits and "-" (the length comes from the facts). */
export const lowerCaseName = (field: string, what: string): Rule => ({
  kind: 'pattern',
  field,
  pattern: /^[a-z0-9-]+$/,
  message: `${what} names use only lower-case letters, digits and "-"`,
});
