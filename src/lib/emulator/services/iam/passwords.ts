/**
 * Workload password policy checks and password hashing. Plaintext passwords
 * are never stored: only a salted scrypt hash of each, newest first, as
 * many as the largest history size allowed needs.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { invalid } from '../../errors.js';

const defaults = {
  maxPasswordLifetimeDays: 0,
  minPasswordLength: 8,
  mustIncludeUpperCaseCharacters: false,
  mustIncludeLowerCaseCharacters: false,
  mustIncludeNumbers: false,
  mustIncludeSymbols: false,
  minPasswordLifetimeDays: 0,
  passwordHistorySize: 0,
};
export type Policy = typeof defaults;
export const DEFAULT_POLICY: Readonly<Policy> = defaults;

export const MAX_HISTORY = 20;
export const SYMBOLS = '#&*$%@^._!';

/** A policy from a request: fields left out take their defaults. */
export function policyFrom(input: Record<string, unknown>): Policy {
  const p: Policy = { ...DEFAULT_POLICY };
  for (const k of Object.keys(DEFAULT_POLICY) as Array<keyof Policy>) {
    const v = input[k];
    if (v !== undefined && typeof v === typeof DEFAULT_POLICY[k]) (p as unknown as Record<string, unknown>)[k] = v;
  }
  if (p.passwordHistorySize < 0 || p.passwordHistorySize > MAX_HISTORY) throw invalid('passwordHistorySize must be between 0 and 20');
  if (p.minPasswordLifetimeDays < 0 || p.maxPasswordLifetimeDays < 0) throw invalid('password lifetimes cannot be negative');
  if (p.maxPasswordLifetimeDays > 0 && p.minPasswordLifetimeDays > p.maxPasswordLifetimeDays) {
    throw invalid('minPasswordLifetimeDays cannot be more than maxPasswordLifetimeDays');
  }
  return p;
}

/** What the password lacks under the policy, as one message; undefined when it complies. */
export function policyViolation(password: string, p: Policy): string | undefined {
  const missing: string[] = [];
  if ([...password].length < p.minPasswordLength) missing.push(`at least ${p.minPasswordLength} characters`);
  if (p.mustIncludeUpperCaseCharacters && !/[A-Z]/.test(password)) missing.push('an upper-case letter');
  if (p.mustIncludeLowerCaseCharacters && !/[a-z]/.test(password)) missing.push('a lower-case letter');
  if (p.mustIncludeNumbers && !/[0-9]/.test(password)) missing.push('a digit');
  if (p.mustIncludeSymbols && ![...password].some((c) => SYMBOLS.includes(c)))
    missing.push(`one of the symbols ${SYMBOLS.split('').join(' ')}`);
  return missing.length ? `the password does not meet the workload password policy: it needs ${missing.join(', ')}` : undefined;
}

export interface StoredHash {
  readonly salt: string;
  readonly hash: string;
}

const derive = (password: string, salt: Buffer): Buffer => scryptSync(password, salt, 32, { N: 4096, r: 8, p: 1 });

export function hashPassword(password: string): StoredHash {
  const salt = randomBytes(16);
  return { salt: salt.toString('base64'), hash: derive(password, salt).toString('base64') };
}

export function matches(password: string, stored: StoredHash): boolean {
  const want = Buffer.from(stored.hash, 'base64');
  const got = derive(password, Buffer.from(stored.salt, 'base64'));
  return want.length === got.length && timingSafeEqual(want, got);
}
