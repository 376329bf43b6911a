/**
 * Who a profile's key signs as, and whether it works: one signed
 * `iam getUser` (a machine user's key gets NOT_FOUND there, and one
 * `iam getAccessKey` then names its owner). Used by `auth status` and by
 * `login` to confirm the key it saved.
 */
import { loadService } from '../model/index.js';
import type { OperationClient } from './client.js';
import { CdpError } from './errors.js';
import { parsePrivateKey } from './signing.js';

/** Access key generations as the API names them, by signing method. */
const KEY_TYPES: Readonly<Record<string, { type: string; algorithm: string }>> = {
  ed25519v1: { type: 'V2', algorithm: 'Ed25519' },
  ecdsav1: { type: 'V3', algorithm: 'ECDSA' },
  rsav1: { type: 'V1', algorithm: 'RSA' },
};

export interface KeyInfo {
  readonly accessKeyId: string;
  /** V1, V2 or V3. */
  readonly type: string;
  readonly algorithm: string;
  readonly authMethod: string;
  /** "environment" or the credentials file's path. */
  readonly source: string;
}

export interface Identity {
  readonly kind: 'user' | 'machineUser';
  readonly crn: string;
  readonly accountId: string;
  /** The user's email, or the machine user's name. */
  readonly name: string;
  readonly accountAdmin?: boolean;
}

/** The key the client would sign with; throws NO_CREDENTIALS or INVALID_PRIVATE_KEY (exit 3). */
export function keyInfo(client: OperationClient): KeyInfo {
  const creds = client.credentials();
  const key = parsePrivateKey(creds.accessKeyId, creds.privateKey);
  const kind = KEY_TYPES[key.method] ?? { type: 'unknown', algorithm: key.method };
  return {
    accessKeyId: creds.accessKeyId,
    type: kind.type,
    algorithm: kind.algorithm,
    authMethod: key.method,
    source: creds.source === 'environment' ? 'environment' : client.profile.paths.credentials,
  };
}

/** The account of a CRN: `crn:<partition>:<service>:<region>:<account>:<type>:<id>`. */
export function crnAccount(crn: string): string {
  return crn.split(':')[4] ?? '';
}

/** The resource name in a machine user's CRN (`…:machineUser:<name>/<id>`). */
function machineUserName(crn: string): string {
  const resource = crn.split(':').slice(6).join(':');
  return resource.split('/')[0] ?? resource;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Signs `iam getUser` with the client's key; errors are the call's (401/403: exit 3, network: exit 4). */
export async function whoAmI(client: OperationClient): Promise<Identity> {
  const iam = await loadService('iam');
  try {
    const res = await client.call(iam.operation('getUser'), {});
    const user = (res.user ?? {}) as Record<string, unknown>;
    const crn = text(user.crn);
    return {
      kind: 'user',
      crn,
      accountId: crnAccount(crn),
      name: text(user.email) || text(user.userId),
      accountAdmin: user.accountAdmin === true,
    };
  } catch (err) {
    // Authenticated, but not as a user: a machine user's key.
    if (!(err instanceof CdpError) || err.code !== 'NOT_FOUND') throw err;
    const key = keyInfo(client);
    const res = await client.call(iam.operation('getAccessKey'), { accessKeyId: key.accessKeyId });
    const crn = text((res.accessKey as Record<string, unknown> | undefined)?.actorCrn);
    return { kind: 'machineUser', crn, accountId: crnAccount(crn), name: machineUserName(crn) };
  }
}
