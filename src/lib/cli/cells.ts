/**
 * The values of rows: which list an answer holds, which columns its items
 * have, and how one value reads in a cell (tables show wire times in the
 * user's zone). Shared by the tsv and table formats.
 */

/** Table columns as the model gives them: header -> dotted path of an item. */
export type Columns = Readonly<Record<string, string>>;

/** The list a result holds: the named key, the only array field, or the value itself. */
export function listOf(value: unknown, listKey?: string): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const obj = value as Record<string, unknown>;
  if (listKey && Array.isArray(obj[listKey])) return obj[listKey] as unknown[];
  const arrays = Object.values(obj).filter(Array.isArray);
  const scalars = Object.entries(obj).filter(([k, v]) => !Array.isArray(v) && k !== 'nextToken' && k !== 'nextPageToken');
  return arrays.length === 1 && scalars.length === 0 ? (arrays[0] as unknown[]) : undefined;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone: making one costs far more than using it. */
function timeFormat(timeZone?: string): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let f = timeFormats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    timeFormats.set(key, f);
  }
  return f;
}

/**
 * A wire time in the user's time zone ($TZ, else the system's) for people:
 * `2026-11-22 11:00:00 GMT+1`. Sortable, fixed width, and says which zone.
 */
export function localTime(iso: string, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const parts = Object.fromEntries(
    timeFormat(timeZone)
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} ${parts.timeZoneName ?? ''}`.trimEnd();
}

/** Field names that hold a moment in time (`created`, `creationTime`, `expiresAt`). */
const TIME_KEY =
  /^(created|updated|modified|deleted|started|ended|timestamp|time|date|expiration|expiry|expires)$|[a-z](Time|Timestamp|Date|At|From|Until|Expiry|Expiration|Created|Updated|Modified)$/;

/** An epoch number in a time field as an ISO time: seconds (2001..2286) or milliseconds. */
function epoch(v: number, key: string | undefined): string | undefined {
  if (!key || !Number.isFinite(v) || !TIME_KEY.test(key.slice(key.lastIndexOf('.') + 1))) return undefined;
  if (v >= 1e9 && v < 1e10) return new Date(v * 1000).toISOString();
  if (v >= 1e12 && v < 1e13) return new Date(v).toISOString();
  return undefined;
}

/**
 * A cell: scalars as they are, objects as compact JSON. With `localTimes`
 * (tables), wire times are shown in the user's zone, and so are epoch
 * numbers in a time field (`key` is the field's name or dotted path); json,
 * yaml, jsonl and text keep the wire value.
 */
export function cell(v: unknown, localTimes: boolean | { timeZone?: string } = false, key?: string): string {
  if (v === undefined || v === null) return '';
  const zone = typeof localTimes === 'object' ? localTimes.timeZone : undefined;
  if (typeof v === 'string') {
    if (localTimes && ISO.test(v)) return localTime(v, zone);
    return v;
  }
  if (typeof v === 'number') {
    const iso = localTimes ? epoch(v, key) : undefined;
    return iso ? localTime(iso, zone) : String(v);
  }
  if (typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** A table or tsv column: its header, the dotted path it shows (when it is one) and how to get the value. */
export interface Column {
  readonly header: string;
  readonly path?: string;
  readonly get: (item: unknown) => unknown;
}

/** Column set for items: the model's columns, else the scalar fields of the first items. */
export function columnsFor(items: readonly unknown[], columns?: Columns): Column[] {
  if (columns) {
    return Object.entries(columns).map(([header, path]) => ({ header, path, get: (item: unknown) => pick(item, path) }));
  }
  // Rows of a query like `users[].[userId, email]`: one column per position.
  if (items.length > 0 && items.every(Array.isArray)) {
    const n = Math.max(...items.slice(0, 50).map((i) => (i as unknown[]).length));
    return Array.from({ length: n }, (_, i) => ({ header: `[${i}]`, get: (item: unknown) => (item as unknown[])[i] }));
  }
  const keys = new Set<string>();
  for (const item of items.slice(0, 50)) {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      for (const [k, v] of Object.entries(item)) if (v === null || typeof v !== 'object') keys.add(k);
    }
  }
  if (keys.size === 0) return [{ header: 'value', get: (item: unknown) => item }];
  return [...keys].map((k) => ({ header: k, path: k, get: (item: unknown) => (item as Record<string, unknown>)[k] }));
}

/** Dotted path lookup (columns use simple paths; --query is the full language). */
export function pick(item: unknown, path: string): unknown {
  let cur: unknown = item;
  for (const part of path.split('.')) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** The resource a response holds when it holds nothing else. */
export function unwrapped(value: Record<string, unknown>): Record<string, unknown> {
  const entries = Object.entries(value);
  const only = entries.length === 1 ? entries[0]?.[1] : undefined;
  return typeof only === 'object' && only !== null && !Array.isArray(only) ? (only as Record<string, unknown>) : value;
}
