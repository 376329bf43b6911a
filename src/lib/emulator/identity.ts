/**
 * How an emulator proves it is the one a data directory's pid file names,
 * before `emulator stop` signals that pid or a start takes it for running:
 * the health answer alone is no proof (anything listening on the port can
 * claim any pid). The prober sends a fresh random challenge; the emulator
 * answers with an HMAC of it and its pid under the admin token, which only
 * the process that made it and the owner of the 0600 pid file know.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The request header carrying the challenge; the answer carries `proof`. */
export const CHALLENGE_HEADER = 'x-emulator-challenge';
const CHALLENGE = /^[A-Za-z0-9_-]{16,128}$/;

export const newChallenge = (): string => randomBytes(24).toString('base64url');

/** The proof of a challenge (undefined for a challenge not of the form a prober sends). */
export function proofOf(adminToken: string, challenge: string | undefined, pid: number): string | undefined {
  if (challenge === undefined || !CHALLENGE.test(challenge)) return undefined;
  return createHmac('sha256', adminToken).update(`${challenge}\n${pid}`).digest('hex');
}

/** Whether an answer proves the admin token for this challenge and pid (compared in constant time). */
export function proves(answer: unknown, adminToken: string, challenge: string, pid: number): boolean {
  const expected = proofOf(adminToken, challenge, pid);
  if (typeof answer !== 'string' || expected === undefined || answer.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(answer), Buffer.from(expected));
}
