/**
 * What the login tests need of a browser: a `$BROWSER` command that hands
 * the address cdpctl opens to the test, and Debian's chromium driven by
 * playwright-core (never a downloaded browser).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface UrlCatcher {
  /** The value for $BROWSER: a script that posts its argument to this test. */
  readonly browser: string;
  /** The next address handed over. */
  next(): Promise<string>;
  close(): Promise<void>;
}

/** A loopback server the $BROWSER script posts each address to; next() resolves with them in order. */
export async function urlCatcher(): Promise<UrlCatcher> {
  const waiting: Array<(url: string) => void> = [];
  const arrived: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      res.end('ok');
      const take = waiting.shift();
      if (take) take(body);
      else arrived.push(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  const dir = mkdtempSync(join(tmpdir(), 'cdpctl-browser-'));
  const script = join(dir, 'hand-url.mjs');
  writeFileSync(
    script,
    `import { request } from 'node:http';
const r = request({ host: '127.0.0.1', port: ${port}, method: 'POST', path: '/' }, (res) => res.resume());
r.on('error', () => process.exit(1));
r.end(process.argv[2] ?? '');
`,
  );
  return {
    // A command with arguments, quoted as a shell would: cdpctl splits it the same way.
    browser: `'${process.execPath}' '${script}'`,
    next: () => {
      const ready = arrived.shift();
      return ready !== undefined ? Promise.resolve(ready) : new Promise<string>((r) => waiting.push(r));
    },
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Visited {
  readonly status: number;
  readonly html: string;
  readonly location: string | null;
}

/**
 * Plain HTTP standing in for a browser, with the one thing of a browser the
 * console's pages need: the cookies a page sets are sent back (the console's
 * secret rides in one once a link carrying it was opened).
 */
export function plainBrowser(): {
  visit(url: string): Promise<Visited>;
  submit(url: string, form: Record<string, string>, follow?: boolean): Promise<Visited>;
} {
  const jar = new Map<string, string>();
  const go = async (url: string, init: RequestInit): Promise<Visited> => {
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { ...init, headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) } });
    for (const set of res.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const at = pair.indexOf('=');
      if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return { status: res.status, html: await res.text(), location: res.headers.get('location') };
  };
  return {
    visit: (url) => go(url, { redirect: 'manual' }),
    submit: (url, form, follow = true) =>
      go(url, {
        method: 'POST',
        body: new URLSearchParams(form).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        redirect: follow ? 'follow' : 'manual',
      }),
  };
}

/** Debian's chromium, or the one $CDPCTL_CHROMIUM names; undefined when there is none. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [env.CDPCTL_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p): p is string => Boolean(p) && existsSync(p as string));
}

/** The flags every run gets: headless, no sandbox (CI runs as root), nothing that reaches the network. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
