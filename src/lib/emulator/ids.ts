/** Identifiers and CRNs as the control plane writes them. */
import { createHash, randomBytes, randomUUID } from 'node:crypto';

export const uuid = (): string => randomUUID();

/** `crn:<partition>:<service>:<region>:<account>:<type>:<id>` */
export function crn(service: string, region: string, account: string, type: string, id: string, partition = 'cdp'): string {
  return `crn:${partition}:${service}:${region}:${account}:${type}:${id}`;
}

/** The last segment of a CRN (its id); the text itself when it is not a CRN. */
export function crnId(value: string): string {
  return value.startsWith('crn:') ? (value.split(':').pop() ?? value) : value;
}

export const isCrn = (value: string): boolean => value.startsWith('crn:');

/** A UUID-shaped id derived from a seed: the same seed gives the same id (stable across restarts and resets). */
export function stableUuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const TOKEN_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `n` random lower-case letters and digits: the tail of ids that tell their kind (`liftie-6gqzwzb4`). */
export const randomToken = (n: number): string => Array.from(randomBytes(n), (b) => TOKEN_CHARS[b % TOKEN_CHARS.length]).join('');
