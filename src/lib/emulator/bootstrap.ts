/**
 * First start: an account, an account-admin user and an Ed25519 access key.
 * Every start: the profile `emulator` in the user's credentials and config
 * files points at this server with a working key, and names the account and
 * the console sign-in addresses for `login`; other profiles are left as they
 * are.
 */
import { readIni, sectionName, updateIni, configPaths, type Env } from '../core/config.js';
import { crn, uuid } from './ids.js';
import { issueKey } from './keys.js';
import type { Emulator } from './server.js';
import { KIND, type AccessKeyRecord, type UserRecord } from './services/iam/records.js';

export const PROFILE = 'emulator';

export interface BootstrapResult {
  readonly accountId: string;
  readonly adminCrn: string;
  readonly keyCreated: boolean;
}

/** Creates the admin's access key record and returns the private key. */
export function createAdminKey(emu: Emulator, adminCrn: string): { accessKeyId: string; privateKey: string } {
  const issued = issueKey('V2');
  const accessKeyId = uuid();
  const rec: AccessKeyRecord = {
    accessKeyId,
    crn: crn('iam', emu.region, emu.account, 'accessKey', accessKeyId, 'altus'),
    actorCrn: adminCrn,
    creationDate: emu.clock.iso(),
    status: 'ACTIVE',
    type: 'V2',
    publicKey: issued.publicKey,
  };
  emu.store.put(KIND.accessKey, accessKeyId, rec, { crn: rec.crn });
  return { accessKeyId, privateKey: issued.privateKey };
}

export async function bootstrap(emu: Emulator, env: Env = process.env): Promise<BootstrapResult> {
  const store = emu.store;
  let accountId = store.meta('accountId');
  let adminCrn = store.meta('adminCrn');
  if (!accountId || !adminCrn) {
    accountId = uuid();
    emu.setAccount(accountId);
    const userId = uuid();
    adminCrn = crn('iam', emu.region, accountId, 'user', userId, 'altus');
    const admin: UserRecord = {
      userId,
      crn: adminCrn,
      email: 'admin@example.com',
      firstName: 'Account',
      lastName: 'Admin',
      creationDate: emu.clock.iso(),
      accountAdmin: true,
      identityProviderCrn: crn('iam', emu.region, accountId, 'samlProvider', 'cdp-default', 'altus'),
      status: 'ACTIVE',
      workloadUsername: 'admin',
    };
    const a = accountId;
    const c = adminCrn;
    store.transaction(() => {
      store.put(KIND.user, userId, admin, { crn: c, name: userId });
      store.setMeta('accountId', a);
      store.setMeta('adminCrn', c);
    });
  }
  emu.setAccount(accountId);

  // Reuse the profile's key when the emulator still knows it and it works.
  const paths = configPaths(env);
  const existing = readIni(paths.credentials)[sectionName(PROFILE, 'credentials')] as Record<string, unknown> | undefined;
  const keyId = typeof existing?.cdp_access_key_id === 'string' ? existing.cdp_access_key_id : undefined;
  const known = keyId ? store.get<AccessKeyRecord>(KIND.accessKey, keyId) : undefined;
  const usable = Boolean(
    known && known.status === 'ACTIVE' && known.actorCrn === adminCrn && typeof existing?.cdp_private_key === 'string',
  );
  let keyCreated = false;
  if (!usable) {
    const c = adminCrn;
    const key = store.transaction(() => createAdminKey(emu, c));
    await updateIni(paths.credentials, (data) => {
      data[sectionName(PROFILE, 'credentials')] = { cdp_access_key_id: key.accessKeyId, cdp_private_key: key.privateKey };
    });
    keyCreated = true;
  }
  await updateIni(paths.config, (data) => {
    const name = sectionName(PROFILE, 'config');
    // Both endpoint keys, as the official CLI reads them: endpoint_url for iam, cdp_endpoint_url for the CDP-only services.
    data[name] = {
      ...(data[name] ?? {}),
      endpoint_url: `http://localhost:${emu.port}/`,
      cdp_endpoint_url: `http://localhost:${emu.port}/`,
      cdp_region: emu.region,
      // `cdp login` / `cdpctl login --profile emulator` sign in on the emulator's own console pages.
      account_id: emu.account,
      login_url: `http://localhost:${emu.port}/consoleauth/login`,
      device_login_url: `http://localhost:${emu.port}/consoleauth/deviceAuthorization`,
    };
  });
  return { accountId, adminCrn, keyCreated };
}
