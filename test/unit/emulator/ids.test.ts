/**
 * Identifiers and CRNs as the control plane writes them (ids.ts): CRNs of
 * seven colon-separated parts with the `cdp` partition unless another is
 * given (iam's are `altus`), their last part as the id, and ids derived
 * from a seed that stay the same for the same seed.
 */
import { describe, expect, test } from '@jest/globals';
import { crn, crnId, isCrn, stableUuid, uuid } from '../../../src/lib/emulator/ids.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('CRNs', () => {
  test('crn:<partition>:<service>:<region>:<account>:<type>:<id>, the partition cdp unless given', () => {
    expect(crn('datalake', 'us-west-1', 'acct', 'datalake', 'id-1')).toBe('crn:cdp:datalake:us-west-1:acct:datalake:id-1');
    expect(crn('iam', 'us-west-1', 'acct', 'user', 'u-1', 'altus')).toBe('crn:altus:iam:us-west-1:acct:user:u-1');
  });

  test("crnId is a CRN's last part, and the text itself when it is not a CRN", () => {
    expect(crnId('crn:altus:iam:us-west-1:acct:user:u-1')).toBe('u-1');
    expect(crnId('u-1')).toBe('u-1');
    expect(crnId('sales-env')).toBe('sales-env');
  });

  test('isCrn tells a CRN by its prefix', () => {
    expect(isCrn(crn('dw', 'us-west-1', 'acct', 'dbc', 'x'))).toBe(true);
    expect(isCrn('sales-env')).toBe(false);
    expect(isCrn('CRN:cdp:dw')).toBe(false);
  });
});

describe('ids', () => {
  test('uuid() is a new version-4 UUID each time', () => {
    const a = uuid();
    expect(a).toMatch(UUID);
    expect(a.charAt(14)).toBe('4');
    expect(uuid()).not.toBe(a);
  });

  test('stableUuid is UUID-shaped, the same for the same seed, another for another seed', () => {
    const a = stableUuid('acct/environments/sales-env');
    expect(a).toMatch(UUID);
    expect(a.charAt(14)).toBe('4');
    expect(a.charAt(19)).toBe('8');
    expect(stableUuid('acct/environments/sales-env')).toBe(a);
    expect(stableUuid('acct/environments/ops-env')).not.toBe(a);
    // sha256('') is e3b0c44298fc1c149afbf4c8996fb924...: the id is made of it, so it never changes across releases.
    expect(stableUuid('')).toBe('e3b0c442-98fc-4c14-8afb-f4c8996fb924');
  });
});
