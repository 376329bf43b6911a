/**
 * The Cloudera Runtime versions of the emulated control plane, written once
 * for every service that offers or checks one (data lakes, Data Hubs,
 * operational databases, Data Engineering, Replication Manager, Data
 * Warehouse's CDH versions, the image catalog): each with its Cloudera
 * Manager version and the Java versions it runs (the first its default),
 * oldest first; the default a new cluster gets; and the upgrade path.
 */

export interface Runtime {
  readonly version: string;
  /** Its Cloudera Manager version. */
  readonly cm: string;
  /** The Java versions it runs; the first is its default. */
  readonly java: readonly number[];
}

export const RUNTIMES: readonly Runtime[] = [
  { version: '7.2.16', cm: '7.9.0', java: [8, 11] },
  { version: '7.2.17', cm: '7.11.3', java: [8, 11] },
  { version: '7.2.18', cm: '7.12.0', java: [8, 11, 17] },
  { version: '7.3.1', cm: '7.13.1', java: [17, 11] },
];

/** What a new data lake, Data Hub or database runs when the request names no runtime. */
export const DEFAULT_RUNTIME = '7.2.18';

/**
 * Compares versions as their parts read: runs of digits as numbers, the rest
 * as text (7.2.9 < 7.2.18 < 7.3.1; 2.0.49-b11 < 2.0.50-b58), a version before
 * the longer ones it begins (7.2 < 7.2.1). Written out rather than
 * `localeCompare(..., { numeric: true })`, whose collator's first use costs
 * the emulator's start several milliseconds (opdb reads its runtimes as it
 * loads).
 */
export function compareVersions(a: string, b: string): number {
  const x = a.match(/\d+|\D+/g) ?? [];
  const y = b.match(/\d+|\D+/g) ?? [];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i] ?? '';
    const q = y[i] ?? '';
    if (p === q) continue;
    const pDigits = /^\d/.test(p);
    const qDigits = /^\d/.test(q);
    if (pDigits && qDigits) return Number(p) - Number(q) || (p < q ? -1 : 1);
    // Digits sort after punctuation and before letters, as a numeric collation has them.
    if (pDigits !== qDigits) {
      const other = pDigits ? q : p;
      const digitsFirst = /^[A-Za-z]/.test(other);
      return pDigits === digitsFirst ? -1 : 1;
    }
    return p < q ? -1 : 1;
  }
  return x.length - y.length;
}

/** A runtime by its version. */
export const runtimeOf = (version: string): Runtime | undefined => RUNTIMES.find((r) => r.version === version);

/** The runtimes from `since` on (what a service offers), oldest first. */
export const runtimesFrom = (since: string): readonly Runtime[] => RUNTIMES.filter((r) => compareVersions(r.version, since) >= 0);

/** The versions of `among` newer than `version`, oldest first. */
export const newerRuntimes = (version: string, among: readonly Runtime[] = RUNTIMES): string[] =>
  among.filter((r) => compareVersions(r.version, version) > 0).map((r) => r.version);

/** Where a runtime may be upgraded to: the next one, never back, never two steps at once. */
export const upgradeOf = (version: string): string | undefined => newerRuntimes(version)[0];
