/** The proof `emulator stop` asks of whatever answers on a pid file's port (identity.ts). */
import { describe, expect, test } from '@jest/globals';
import { newChallenge, proofOf, proves } from '../../../src/lib/emulator/identity.js';

describe("stop's proof", () => {
  test('holds for the token and pid it was made with, and for no other', () => {
    const challenge = newChallenge();
    const proof = proofOf('token', challenge, 42);
    expect(proves(proof, 'token', challenge, 42)).toBe(true);
    expect(proves(proof, 'other', challenge, 42)).toBe(false);
    expect(proves(proof, 'token', challenge, 43)).toBe(false);
    expect(proves(proof, 'token', newChallenge(), 42)).toBe(false);
    expect(proves(undefined, 'token', challenge, 42)).toBe(false);
    expect(proofOf('token', 'short', 42)).toBeUndefined();
  });
});
