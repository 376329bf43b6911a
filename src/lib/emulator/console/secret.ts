/**
 * The console's sign-in secret, on the model of Jupyter's token: made when
 * the emulator starts, kept in its pid file (emulator.json, 0600 in the
 * data directory), printed to the user who started it, and carried in every
 * link to the console the emulator gives out: the profile's `login_url` and
 * `device_login_url` (so `cdpctl login` and `cdp login` keep working), the
 * device flow's verification address, and the console link `emulator start`
 * prints.
 *
 * Without it, any local process (on a shared CI runner, other users' too)
 * could walk deviceAuthorization -> device -> approve -> deviceAccessKey and
 * come away with an account admin's key, then drive the clock and the
 * faults from the console. Now every page and form of the sign-in pages and
 * the console asks for the secret: as `?token=` in a link, or as the cookie
 * a page opened through such a link sets (HttpOnly, SameSite=Strict, one
 * name per port: cookies on localhost are shared by every port). Only the
 * CLI's poll for a device's key goes without: it carries the device code,
 * which only a caller with the secret was given.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The query parameter that carries the secret in a link. */
export const TOKEN_PARAM = 'token';

/** A console address with the secret: `${base}${path}?token=...` (base without a trailing slash, path from `/`). */
export function consoleLink(base: string, path: string, token: string): string {
  const url = new URL(path, base);
  url.searchParams.set(TOKEN_PARAM, token);
  return url.href;
}

/** Whether `given` is the secret, compared in constant time. */
export function same(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A request's cookie of that name. */
export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/** Checks requests for the secret and says how a browser keeps it. */
export class ConsoleGate {
  constructor(private readonly token: string) {
    if (!token) throw new Error('the console needs its secret');
  }

  /** The cookie's name: one per port, since cookies on localhost are shared by every port. */
  private static cookieName(req: IncomingMessage): string {
    return `cdpctl_console_key_${req.socket.localPort ?? 0}`;
  }

  /**
   * Whether a request carries the secret; when it came in the link, a
   * Set-Cookie goes on the answer, so that the pages and forms that follow
   * carry it. A request without it is refused with NO_SECRET (http.ts).
   */
  admits(req: IncomingMessage, url: URL, res: ServerResponse): boolean {
    if (same(url.searchParams.get(TOKEN_PARAM) ?? undefined, this.token)) {
      res.setHeader('set-cookie', `${ConsoleGate.cookieName(req)}=${this.token}; Path=/; HttpOnly; SameSite=Strict`);
      return true;
    }
    return same(cookieOf(req, ConsoleGate.cookieName(req)), this.token);
  }
}

/** What a request without the secret is told (a 403 page, or JSON). */
export const NO_SECRET = {
  title: 'Open the console from its link',
  message:
    'The emulator’s console and sign-in pages ask for the secret their links carry. Open the link {{cdpctl emulator start}} printed, or sign in with {{cdpctl login --profile emulator}}; the secret is also consoleToken in the data directory’s emulator.json.',
} as const;
