/**
 * First start: an account, an account-admin user and an Ed25519 access key
 * (and, with `empty`, nothing else: no pre-created environments).
 * Every start: the instance's profile (`emulator` unless the data directory
 * was started with another, instances.ts) in the user's credentials and
 * config files points at this server with a working key, and names the
 * account and the console sign-in addresses for `login`; other profiles are
 * left as they are. What the profile held before the instance first took it
 * is remembered, to be given back when it stops.
 */
import { type Env } from '../core/config.js';
import { consoleLink } from './console/secret.js';
import { EMPTY_ACCOUNT } from './shared/pre-created.js';
import { uuid } from './ids.js';
import { DEFAULT_PROFILE, endpointOf, loopbackPort, profileSections, readInstance, writeInstance, writeProfile } from './instances.js';
import type { Emulator } from './server.js';
import type { Identities } from './world/contracts.js';

export interface BootstrapOptions {
  /** The profile to write; default: the one the data directory remembers, else `emulator`. */
  readonly profile?: string;
  /** A new account gets only its admin user. */
  readonly empty?: boolean;
  /** The data directory, where the instance's profile is remembered. */
  readonly dataDir?: string;
}

export interface BootstrapResult extends Omit<Account, 'fresh'> {
  readonly keyCreated: boolean;
  readonly profile: string;
}

/** The account's users and keys, as iam keeps them (the world's `identities`). */
const identitiesOf = (emu: Emulator): Identities => emu.worldView.in({ store: emu.store, clock: emu.clock, info: emu.info }).identities;

/** Creates an access key of the admin and returns its private key. */
export function createAdminKey(emu: Emulator, adminCrn: string): { accessKeyId: string; privateKey: string } {
  return identitiesOf(emu).issueAccessKey(adminCrn);
}

/** The account of a store: made on its first start (an admin user, and nothing else when `empty`). */
export interface Account {
  readonly accountId: string;
  readonly adminCrn: string;
  /** Made by this call. */
  readonly fresh: boolean;
  /** The account holds only what was made in it. */
  readonly empty: boolean;
}

/**
 * The account of the emulator's store, made on its first start: an account
 * id and its admin user; with `empty`, a mark that nothing is to be
 * pre-created in it. A store whose account holds more than that refuses
 * `empty` (StartRefusal): pre-created resources, or anything made in it since. Touches no file outside the store.
 */
export function ensureAccount(emu: Emulator, opts: { readonly empty?: boolean } = {}): Account {
  const store = emu.store;
  let accountId = store.meta('accountId');
  let adminCrn = store.meta('adminCrn');
  const fresh = !accountId || !adminCrn;
  if (!accountId || !adminCrn) {
    const id = (accountId = uuid());
    emu.setAccount(id);
    adminCrn = store.transaction(() => {
      const c = identitiesOf(emu).createAdmin(uuid()).crn;
      store.setMeta('accountId', id);
      store.setMeta('adminCrn', c);
      if (opts.empty) store.setMeta(EMPTY_ACCOUNT, '1');
      return c;
    });
  }
  emu.setAccount(accountId);
  const empty = store.meta(EMPTY_ACCOUNT) === '1';
  if (opts.empty && !fresh) {
    const ways = 'use another --data-dir, or `cdpctl emulator reset` first';
    if (!empty)
      throw new StartRefusal(
        `this data directory already holds an account with pre-created resources; --empty makes a new account only: ${ways}`,
      );
    const made = madeInAccount(emu);
    if (made.length > 0)
      throw new StartRefusal(
        `the account of this data directory is no longer empty: it holds ${made.join(', ')}; --empty starts from a clean account only: start without --empty to keep what it holds, ${ways}`,
      );
  }
  return { accountId, adminCrn, fresh, empty };
}

/**
 * What was made in an account beyond what its first start made: its admin
 * user and the admin's access keys (which a start or a console sign-in adds),
 * as `N <kind>` by kind.
 */
function madeInAccount(emu: Emulator): string[] {
  const counts = emu.store.kindCounts();
  const KIND = identitiesOf(emu).firstStartKinds();
  const users = counts[KIND.user] ?? 0;
  return Object.entries(counts)
    .map(([kind, n]): [string, number] => [kind, kind === KIND.user ? n - 1 : kind === KIND.accessKey && users <= 1 ? 0 : n])
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`);
}

export async function bootstrap(emu: Emulator, env: Env = process.env, opts: BootstrapOptions = {}): Promise<BootstrapResult> {
  const { accountId, adminCrn, empty } = ensureAccount(emu, opts);
  const inst = opts.dataDir ? readInstance(opts.dataDir) : undefined;
  const profile = opts.profile ?? inst?.profile ?? DEFAULT_PROFILE;
  const before = profileSections(profile, env);
  // Remember what the profile held before this instance took it (once, until it is given back at stop).
  if (opts.dataDir) {
    const taken = inst !== undefined && inst.profile === profile && 'previous' in inst;
    const mine = loopbackPort(before) === emu.port;
    writeInstance(opts.dataDir, {
      profile,
      ...(empty ? { empty } : {}),
      previous: taken ? inst.previous : mine ? null : before.config || before.credentials ? before : null,
    });
  }
  const { keyCreated } = await writeEmulatorProfile(emu, profile, adminCrn, env);
  return { accountId, adminCrn, keyCreated, profile, empty };
}

/** A start refused over what the data directory holds (exit 2, nothing started). */
export class StartRefusal extends Error {}

/**
 * Points a profile at this emulator: its endpoint for every service, and a
 * working admin key (the profile's own when the emulator still knows it and
 * it is active, else a new one).
 */
export async function writeEmulatorProfile(emu: Emulator, profile: string, adminCrn: string, env: Env): Promise<{ keyCreated: boolean }> {
  const before = profileSections(profile, env);
  const keyId = before.credentials?.cdp_access_key_id;
  const known = keyId ? identitiesOf(emu).accessKey(keyId) : undefined;
  const usable = Boolean(known && known.status === 'ACTIVE' && known.actorCrn === adminCrn && before.credentials?.cdp_private_key);
  let credentials = usable ? before.credentials : undefined;
  if (!credentials) {
    const key = emu.store.transaction(() => createAdminKey(emu, adminCrn));
    credentials = { cdp_access_key_id: key.accessKeyId, cdp_private_key: key.privateKey };
  }
  const url = endpointOf(emu.port);
  await writeProfile(
    profile,
    {
      credentials,
      config: {
        ...(before.config ?? {}),
        // Both endpoint keys, as the official CLI reads them: endpoint_url for iam, cdp_endpoint_url for the CDP-only services.
        endpoint_url: url,
        cdp_endpoint_url: url,
        cdp_region: emu.region,
        // `cdp login` / `cdpctl login --profile NAME` sign in on the emulator's own console pages,
        // whose links carry its secret (console/secret.ts; both CLIs keep the parameters a login address carries).
        account_id: emu.account,
        login_url: consoleLink(url, '/consoleauth/login', emu.consoleToken),
        device_login_url: consoleLink(url, '/consoleauth/deviceAuthorization', emu.consoleToken),
      },
    },
    env,
  );
  return { keyCreated: !usable };
}
