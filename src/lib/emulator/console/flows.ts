/**
 * The console's sign-in rules, apart from HTTP and HTML: which sign-ins and
 * device codes are pending, what is refused, and the access key each
 * sign-in makes through the iam backend. Pending sign-ins live in memory
 * (they hold private keys until collected) and expire in real time, whatever
 * the emulator's time scale: a person is at the browser.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { sameState } from '../../core/login.js';
import type { Clock } from '../clock.js';
import { ApiError } from '../errors.js';
import { isCrn } from '../ids.js';
import type { WorldAccess } from '../engine/context.js';
import type { ActorView, Identities } from '../world/contracts.js';
import type { Store } from '../store.js';
import type { Doc, EmulatorInfo } from '../types.js';
import { consoleLink } from './secret.js';

/** What the console needs of the emulator. */
export interface ConsoleHost {
  readonly store: Store;
  readonly clock: Clock;
  readonly info: EmulatorInfo;
  /** The secret every page asks for (secret.ts); a host without one serves no pages (the flows' unit tests). */
  readonly consoleToken?: string;
  /** The world, whose `identities` (iam) the sign-ins read and make keys through. */
  readonly worldView: WorldAccess;
}

/**
 * A refusal: the HTTP status, a short title for the page and the reason.
 * `{{…}}` in the reason marks a value the page shows as code (JSON answers
 * drop the marks).
 */
export class Refusal extends ApiError {
  constructor(
    status: number,
    code: string,
    readonly title: string,
    message: string,
    headers: Readonly<Record<string, string>> = {},
  ) {
    super(status, code, message, headers);
  }
}

/** The usual refusals: a title for the page and the reason. */
export const refuse = {
  invalid: (title: string, message: string): Refusal => new Refusal(400, 'INVALID_ARGUMENT', title, message),
  denied: (title: string, message: string): Refusal => new Refusal(403, 'PERMISSION_DENIED', title, message),
  notFound: (title: string, message: string): Refusal => new Refusal(404, 'NOT_FOUND', title, message),
  expired: (title: string, message: string): Refusal => new Refusal(410, 'EXPIRED', title, message),
};

/** How long a sign-in page or a device code stays usable. */
export const DEFAULT_TTL_MS = 10 * 60_000;
/** Seconds the CLI should wait between polls of the access key address. */
export const DEVICE_POLL_INTERVAL_S = 1;
/** Most pending sign-ins kept; the oldest go first. */
const MAX_PENDING = 1000;
/** Users listed on a page; beyond that the page asks for an email, user ID or CRN. */
export const LISTED_USERS = 100;
/**
 * Guessing user codes (RFC 8628 section 5.1): each client (remote address)
 * may enter this many codes a minute, and this many wrong codes within
 * LOCK_MS lock it out for LOCK_MS. A person mistypes a few times; a script
 * trying 300 codes a second gets five.
 */
export const CODE_ENTRIES_PER_MINUTE = 10;
export const MISSES_BEFORE_LOCK = 5;
export const LOCK_MS = 15 * 60_000;
/**
 * The same limits for every client together, since a local process has the
 * whole of 127.0.0.0/8 to send from: all clients may enter this many codes a
 * minute, and this many wrong codes within LOCK_MS lock code entry for
 * everyone for LOCK_MS.
 */
export const ALL_CODE_ENTRIES_PER_MINUTE = 30;
export const ALL_MISSES_BEFORE_LOCK = 20;
/**
 * And by the code guessed: a code that has seen this many wrong entries
 * (from anyone) while it waited is withdrawn, so the guesses a code can
 * ever face are bounded whatever the throttles above allow.
 */
export const MISSES_PER_CODE = 10;
/** A sign-in's state as a client may send it: URL-safe text of reasonable length. */
const STATE = /^[A-Za-z0-9._~-]{1,512}$/;

export interface SignInRequest {
  readonly id: string;
  readonly accountId: string;
  readonly idpCrn?: string;
  readonly returnUrl: URL;
  /** The client's state, sent back with the key (or the error). */
  readonly state?: string;
  readonly expiresAt: number;
}

export interface DeviceSignIn {
  readonly deviceCode: string;
  /** As shown: XXXX-XXXX. */
  readonly userCode: string;
  readonly clientId: string;
  readonly accountId: string;
  readonly idpCrn?: string;
  /** The client's state: its polls must carry it, and the key is answered with it. */
  readonly clientState?: string;
  readonly expiresAt: number;
  state: 'pending' | 'approved' | 'denied' | 'withdrawn';
  /** Wrong codes entered (by anyone) while this one waited (MISSES_PER_CODE). */
  missesSeen: number;
  userCrn?: string;
  key?: { accessKeyId: string; privateKey: string };
}

/** Consonants only (no words, no 0/O or 1/I look-alikes), as RFC 8628 advises for user codes. */
const CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

/** A user code as typed: any case, with or without the dash or spaces. */
export function normalizeUserCode(typed: string): string {
  const plain = typed.toUpperCase().replace(/[\s-]/g, '');
  return plain.length === 8 ? `${plain.slice(0, 4)}-${plain.slice(4)}` : plain;
}

/**
 * Where the console may send a key: `http://localhost:<port>/…` or
 * `http://127.0.0.1:<port>/…` and nowhere else, so that the emulator can
 * never be used to hand a key to another host. Checked on the text as given
 * and on the parsed URL (which would quietly turn `127.1` into `127.0.0.1`).
 */
export function checkReturnUrl(given: string | null): URL {
  const refused = (why: string): never => {
    throw refuse.invalid('This return address is not allowed', why);
  };
  if (!given) return refused('The sign-in request names no returnUrl to send the access key to.');
  const m = /^http:\/\/(localhost|127\.0\.0\.1):([0-9]{1,5})\//.exec(given);
  let url: URL | undefined;
  try {
    url = new URL(given);
  } catch {
    url = undefined;
  }
  const port = Number(m?.[2]);
  if (!m || !url || url.protocol !== 'http:' || url.hostname !== m[1] || url.port !== String(port) || port < 1 || port > 65535)
    return refused(
      `The console sends access keys only to {{http://localhost:<port>/…}} or {{http://127.0.0.1:<port>/…}} on this computer; this request asked for {{${given.slice(0, 100)}}}.`,
    );
  if (url.username || url.password) return refused('The return address must not carry a user name or password.');
  return url;
}

const token = (bytes: number): string => randomBytes(bytes).toString('base64url');

/** A client's state, checked for form (it is echoed into a redirect); none is fine (`cdp login` sends none). */
function clientState(given: string | null): string | undefined {
  if (given === null || given === '') return undefined;
  if (!STATE.test(given)) throw refuse.invalid('This sign-in is not valid', 'The state must be 1 to 512 URL-safe characters.');
  return given;
}

/** Code entries of one client: when they came, when it missed, until when it is locked out. */
interface Attempts {
  entries: number[];
  misses: number[];
  lockedUntil: number;
}

export class ConsoleFlows {
  private readonly signIns = new Map<string, SignInRequest>();
  private readonly devices = new Map<string, DeviceSignIn>();
  /** User code -> device code. */
  private readonly byUserCode = new Map<string, string>();
  /** Code entries by client (remote address). */
  private readonly attempts = new Map<string, Attempts>();
  /** Code entries of every client together. */
  private readonly everyone: Attempts = { entries: [], misses: [], lockedUntil: 0 };

  constructor(
    private readonly host: ConsoleHost,
    readonly ttlMs: number = DEFAULT_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  private get accountId(): string {
    return this.host.info.accountId;
  }

  /** The account's users and keys as iam keeps them; a sign-in acts on the user's own behalf. */
  private iam(actorCrn: string): Identities {
    const { store, info } = this.host;
    const scope = { store, clock: this.host.clock.frozen(), info, caller: { accountId: this.accountId, actorCrn, kind: 'user' as const } };
    return this.host.worldView.in(scope).identities;
  }

  private checkAccount(accountId: string | null): string {
    if (!accountId) throw refuse.invalid('No account named', 'The sign-in request names no accountId.');
    if (accountId !== this.accountId)
      throw refuse.notFound(
        'Unknown account',
        `There is no account {{${accountId}}} here; this emulator serves account {{${this.accountId}}}.`,
      );
    return accountId;
  }

  /** The identity provider's CRN, or undefined when none is named. */
  private identityProvider(idp: string | null): string | undefined {
    if (!idp) return undefined;
    try {
      return this.host.store.transaction(() => this.iam('').identityProvider(idp), { readOnly: true });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404)
        throw refuse.notFound('Unknown identity provider', `The account has no identity provider {{${idp}}}.`);
      throw err;
    }
  }

  private static trim<T>(map: Map<string, T>): void {
    while (map.size >= MAX_PENDING) map.delete(map.keys().next().value ?? '');
  }

  /** Active users who may sign in (of the identity provider, when one is named): admins first, then by email. */
  users(idpCrn?: string): { listed: ActorView[]; total: number } {
    const all = this.iam('')
      .users()
      .filter((u) => u.status === 'ACTIVE' && (!idpCrn || u.identityProviderCrn === idpCrn))
      .sort((a, b) => Number(b.accountAdmin) - Number(a.accountAdmin) || (a.email ?? '').localeCompare(b.email ?? ''));
    return { listed: all.slice(0, LISTED_USERS), total: all.length };
  }

  /** A user by CRN, user ID or email, who must be active and of the provider when one was named. */
  chosenUser(ref: string | null, idpCrn?: string): ActorView {
    const wanted = (ref ?? '').trim();
    if (!wanted) throw refuse.invalid('No user chosen', 'Choose the user to sign in as.');
    const iam = this.iam('');
    let user: ActorView | undefined;
    if (isCrn(wanted)) {
      const found = iam.actor(wanted);
      user = found?.kind === 'user' ? found : undefined;
    } else user = iam.users().find((u) => u.id === wanted || u.email?.toLowerCase() === wanted.toLowerCase());
    if (!user || (idpCrn && user.identityProviderCrn !== idpCrn))
      throw refuse.notFound('Unknown user', `The account has no user ${wanted}${idpCrn ? ' at this identity provider' : ''}.`);
    if (user.status !== 'ACTIVE')
      throw refuse.denied('This user cannot sign in', `${user.email ?? user.id} cannot sign in: the user is ${user.status}.`);
    return user;
  }

  /** A new access key for the user, made in one transaction. */
  private issueKey(user: ActorView): { accessKeyId: string; privateKey: string } {
    return this.host.store.transaction(() => this.iam(user.crn).issueAccessKey(user.crn, { signIn: true }));
  }

  // ---------------------------------------------------------------- browser flow

  /** Opens a sign-in from the login page's query; refused for another account, provider or return address. */
  beginSignIn(q: URLSearchParams): SignInRequest {
    const accountId = this.checkAccount(q.get('accountId'));
    const idpCrn = this.identityProvider(q.get('idp'));
    const returnUrl = checkReturnUrl(q.get('returnUrl'));
    const state = clientState(q.get('state'));
    ConsoleFlows.trim(this.signIns);
    const req: SignInRequest = { id: token(24), accountId, idpCrn, returnUrl, state, expiresAt: this.now() + this.ttlMs };
    this.signIns.set(req.id, req);
    return req;
  }

  private takeSignIn(id: string | null): SignInRequest {
    const req = id ? this.signIns.get(id) : undefined;
    if (!req)
      throw refuse.notFound('This sign-in is not pending', 'Start again from your terminal: this sign-in was used already or never began.');
    this.signIns.delete(req.id);
    if (req.expiresAt <= this.now())
      throw refuse.expired('This sign-in has expired', 'The page was open too long. Start again from your terminal.');
    return req;
  }

  /** The form's answer: a new key for the chosen user, sent to the return address. */
  completeSignIn(id: string | null, userRef: string | null): { location: URL; user: ActorView } {
    const req = this.takeSignIn(id);
    let user: ActorView;
    try {
      user = this.chosenUser(userRef, req.idpCrn);
    } catch (err) {
      // A wrong choice may be corrected: the sign-in stays open.
      this.signIns.set(req.id, req);
      throw err;
    }
    const key = this.issueKey(user);
    const location = ConsoleFlows.answerTo(req);
    location.searchParams.set('accessKeyId', key.accessKeyId);
    location.searchParams.set('privateKey', key.privateKey);
    return { location, user };
  }

  /** Cancel: the return address hears `error`, and no key is made. */
  cancelSignIn(id: string | null): URL {
    const req = this.takeSignIn(id);
    const location = ConsoleFlows.answerTo(req);
    location.searchParams.set('error', 'access_denied: the sign-in was cancelled in the browser');
    return location;
  }

  /** The return address with the client's state, to which the answer's own parameters are added. */
  private static answerTo(req: SignInRequest): URL {
    const location = new URL(req.returnUrl.href);
    if (req.state !== undefined) location.searchParams.set('state', req.state);
    return location;
  }

  // ---------------------------------------------------------------- device flow

  /** The device authorization's JSON answer, with a new code pair. */
  authorizeDevice(q: URLSearchParams): Doc {
    const accountId = this.checkAccount(q.get('accountId'));
    const idpCrn = this.identityProvider(q.get('idp'));
    const clientId = q.get('clientId');
    if (!clientId) throw refuse.invalid('No client', 'The device sign-in request names no clientId.');
    const stateOfClient = clientState(q.get('state'));
    ConsoleFlows.trim(this.devices);
    let userCode: string;
    do {
      let plain = '';
      for (let i = 0; i < 8; i++) plain += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
      userCode = normalizeUserCode(plain);
    } while (this.byUserCode.has(userCode));
    const rec: DeviceSignIn = {
      deviceCode: token(32),
      userCode,
      clientId,
      accountId,
      idpCrn,
      clientState: stateOfClient,
      expiresAt: this.now() + this.ttlMs,
      state: 'pending',
      missesSeen: 0,
    };
    this.devices.set(rec.deviceCode, rec);
    this.byUserCode.set(userCode, rec.deviceCode);
    const base = this.host.info.baseUrl;
    return {
      deviceCode: rec.deviceCode,
      userCode,
      // Rounded up: a client that waits this long never gives up on a code that still works.
      expiresIn: { low: Math.ceil(this.ttlMs / 1000), high: 0, unsigned: false },
      // The page to enter the code asks for the console's secret: the address carries it (secret.ts).
      verificationUrl: this.host.consoleToken
        ? consoleLink(base, '/consoleauth/device', this.host.consoleToken)
        : `${base}/consoleauth/device`,
      accessKeyUrl: `${base}/consoleauth/deviceAccessKey`,
      interval: DEVICE_POLL_INTERVAL_S,
    };
  }

  private forget(rec: DeviceSignIn): void {
    this.devices.delete(rec.deviceCode);
    this.byUserCode.delete(rec.userCode);
  }

  /**
   * Counts one code entry of a client, refused with 429 (and how long to
   * wait) when it comes too fast or the client is locked out after missing,
   * from there or from everywhere together.
   */
  private admit(client: string): Attempts {
    const now = this.now();
    let a = this.attempts.get(client);
    if (!a) {
      ConsoleFlows.trim(this.attempts);
      a = { entries: [], misses: [], lockedUntil: 0 };
      this.attempts.set(client, a);
    }
    const tooMany = (until: number, why: string): never => {
      throw new Refusal(429, 'TOO_MANY_ATTEMPTS', 'Too many attempts', why, {
        'retry-after': String(Math.max(1, Math.ceil((until - now) / 1000))),
      });
    };
    const all = this.everyone;
    if (all.lockedUntil > now) tooMany(all.lockedUntil, 'Too many wrong codes were entered. Wait, then run the sign-in command again.');
    if (a.lockedUntil > now)
      tooMany(a.lockedUntil, 'Too many wrong codes were entered from here. Wait, then run the sign-in command again.');
    all.entries = all.entries.filter((t) => t > now - 60_000);
    a.entries = a.entries.filter((t) => t > now - 60_000);
    if (all.entries.length >= ALL_CODE_ENTRIES_PER_MINUTE)
      tooMany((all.entries[0] ?? now) + 60_000, 'Codes are entered too fast. Wait a minute.');
    if (a.entries.length >= CODE_ENTRIES_PER_MINUTE)
      tooMany((a.entries[0] ?? now) + 60_000, 'Codes are entered too fast from here. Wait a minute.');
    all.entries.push(now);
    a.entries.push(now);
    return a;
  }

  /**
   * A wrong code: counted against the client, against everyone together
   * (each locked out once it has missed too often) and against every code
   * waiting (each withdrawn once it has seen too many).
   */
  private missed(a: Attempts): void {
    const now = this.now();
    for (const [who, limit] of [
      [a, MISSES_BEFORE_LOCK],
      [this.everyone, ALL_MISSES_BEFORE_LOCK],
    ] as const) {
      who.misses = [...who.misses.filter((t) => t > now - LOCK_MS), now];
      if (who.misses.length >= limit) {
        who.lockedUntil = now + LOCK_MS;
        who.misses = [];
      }
    }
    for (const rec of this.devices.values()) {
      if (rec.state !== 'pending' || rec.expiresAt <= now) continue;
      rec.missesSeen++;
      if (rec.missesSeen >= MISSES_PER_CODE) rec.state = 'withdrawn';
    }
  }

  /**
   * The pending device sign-in a typed code names; refused when unknown,
   * expired or already answered. Entries from a `client` (the browser's
   * address) are throttled (admit).
   */
  deviceByUserCode(typed: string | null, client?: string): DeviceSignIn {
    const attempts = client === undefined ? undefined : this.admit(client);
    const code = normalizeUserCode(typed ?? '');
    const deviceCode = code ? this.byUserCode.get(code) : undefined;
    const rec = deviceCode ? this.devices.get(deviceCode) : undefined;
    if (!rec || rec.state !== 'pending') {
      if (attempts) this.missed(attempts);
      throw refuse.notFound(
        'Unknown code',
        `No sign-in is waiting for the code {{${code || '(empty)'}}}. Check the code in your terminal.`,
      );
    }
    if (rec.expiresAt <= this.now())
      throw refuse.expired('This code has expired', `The code {{${code}}} has expired. Run the sign-in command again for a new one.`);
    return rec;
  }

  /** The user approved the code as the chosen user: the key waits for the CLI to collect it. */
  approveDevice(typed: string | null, userRef: string | null, client?: string): { rec: DeviceSignIn; user: ActorView } {
    const rec = this.deviceByUserCode(typed, client);
    const user = this.chosenUser(userRef, rec.idpCrn);
    rec.key = this.issueKey(user);
    rec.userCrn = user.crn;
    rec.state = 'approved';
    return { rec, user };
  }

  denyDevice(typed: string | null, client?: string): DeviceSignIn {
    const rec = this.deviceByUserCode(typed, client);
    rec.state = 'denied';
    return rec;
  }

  /**
   * The CLI's poll (form fields clientId, deviceCode, userCode): 401 while
   * pending, the key once approved (then forgotten), 403 when denied or for
   * another client, 410 once expired, 404 for a code never issued.
   */
  collectDeviceKey(form: URLSearchParams): Doc {
    const deviceCode = form.get('deviceCode');
    const rec = deviceCode ? this.devices.get(deviceCode) : undefined;
    if (!rec) throw refuse.notFound('Unknown device code', 'No device sign-in has this device code.');
    if (form.get('clientId') !== rec.clientId || normalizeUserCode(form.get('userCode') ?? '') !== rec.userCode)
      throw refuse.denied('Wrong client', 'The client ID or user code does not match this device code.');
    if (rec.clientState !== undefined && !sameState(form.get('state'), rec.clientState))
      throw refuse.denied('Wrong client', 'The state does not match the one this device sign-in began with.');
    if (rec.state === 'approved' && rec.key) {
      this.forget(rec);
      return { ...rec.key, ...(rec.clientState !== undefined ? { state: rec.clientState } : {}) };
    }
    if (rec.state === 'denied' || rec.state === 'withdrawn') {
      this.forget(rec);
      throw rec.state === 'denied'
        ? new Refusal(403, 'ACCESS_DENIED', 'Denied', 'The sign-in was denied in the browser.')
        : new Refusal(
            403,
            'ACCESS_DENIED',
            'Withdrawn',
            `Too many wrong codes were entered while the code ${rec.userCode} waited, so it was withdrawn; run the sign-in again.`,
          );
    }
    // Kept until pushed out (MAX_PENDING), so that the page can still say the code expired.
    if (rec.expiresAt <= this.now()) throw refuse.expired('Expired', `The code ${rec.userCode} expired before anyone signed in with it.`);
    throw new Refusal(401, 'AUTHORIZATION_PENDING', 'Pending', 'Nobody has entered the code yet.');
  }
}
