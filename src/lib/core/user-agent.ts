/**
 * The User-Agent every request carries, as the official CLI's
 * `CDPCLI/<version> Python/<version> <system>/<release>` does:
 * `cdpctl/<version> node/<version> <os>/<release>`.
 */
import { readFileSync } from 'node:fs';
import { release, type } from 'node:os';

let cached: string | undefined;

/** The version the bundle of the fast path was built with (scripts/bundle.mjs defines it); the modules read package.json. */
declare const __CDPCTL_VERSION__: string | undefined;

/** cdpctl's version from its package.json: two levels above the bundle (dist/fast), three above the modules (dist/lib/core, src/lib/core). */
function version(): string {
  if (typeof __CDPCTL_VERSION__ === 'string') return __CDPCTL_VERSION__;
  for (const rel of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'cdpctl' && pkg.version) return pkg.version;
    } catch {
      // Not here: the other layout.
    }
  }
  return 'unknown';
}

export function userAgent(): string {
  cached ??= `cdpctl/${version()} node/${process.versions.node} ${type()}/${release()}`;
  return cached;
}
