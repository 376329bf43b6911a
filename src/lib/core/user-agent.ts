/**
 * The User-Agent every request carries, as the official CLI's
 * `CDPCLI/<version> Python/<version> <system>/<release>` does:
 * `cdpctl/<version> node/<version> <os>/<release>`.
 */
import { readFileSync } from 'node:fs';
import { release, type } from 'node:os';

let cached: string | undefined;

/** cdpctl's version from its package.json, found above this module (dist/lib/core or dist/fast). */
function version(): string {
  let dir = new URL('.', import.meta.url);
  for (let i = 0; i < 5; i++) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'cdpctl' && pkg.version) return pkg.version;
    } catch {
      // Not here: look one level up.
    }
    dir = new URL('..', dir);
  }
  return 'unknown';
}

export function userAgent(): string {
  cached ??= `cdpctl/${version()} node/${process.versions.node} ${type()}/${release()}`;
  return cached;
}
