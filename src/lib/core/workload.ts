/**
 * Workload bearer tokens, cached per profile and environment until shortly
 * before they expire. The cache file is 0600 and its content never logged.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { READ_LIMITS, readBounded } from './bounded-read.js';
import { writeFileAtomic, type Env } from './config.js';

interface Entry {
  origin: string;
  token: string;
  expireAt: number;
}

/** Tokens are refreshed this long before they expire. */
const MARGIN_MS = 60_000;

export class WorkloadTokens {
  private readonly path: string;
  private data?: Record<string, Entry>;

  constructor(env: Env) {
    this.path = env.CDPCTL_TOKEN_CACHE || join(env.HOME || homedir(), '.cdpctl', 'cache', 'workload-tokens.json');
  }

  private load(): Record<string, Entry> {
    if (!this.data) {
      try {
        const text = readBounded(this.path, { label: 'the token cache', maxBytes: READ_LIMITS.settings }).toString('utf8');
        this.data = JSON.parse(text) as Record<string, Entry>;
      } catch {
        // A cache that cannot be read (missing, garbled, not a file, too big) is no cache: tokens are asked for again.
        this.data = {};
      }
    }
    return this.data;
  }

  get(profile: string, env: string): { origin: string; token: string } | undefined {
    const e = this.load()[`${profile} ${env}`];
    if (!e || e.expireAt - MARGIN_MS <= Date.now()) return undefined;
    return { origin: e.origin, token: e.token };
  }

  put(profile: string, env: string, entry: Entry): void {
    const data = this.load();
    const now = Date.now();
    for (const [k, v] of Object.entries(data)) if (v.expireAt <= now) delete data[k];
    data[`${profile} ${env}`] = entry;
    writeFileAtomic(this.path, JSON.stringify(data));
  }

  forget(profile: string, env: string): void {
    const data = this.load();
    delete data[`${profile} ${env}`];
    writeFileAtomic(this.path, JSON.stringify(data));
  }
}
