/**
 * How df's listings take their requests: `sorts` as `field:asc|desc`,
 * `filters` as `type:value` (the types and values `df filter-options list`
 * and `df projects filter-options` show), and a search term on names.
 */
import { invalid } from '../../errors.js';
import { strings } from '../../values.js';

export type SortKeys<T> = Readonly<Record<string, (x: T) => string | number>>;

/** Orders items by `field:asc|desc` entries (the first one given decides first). */
export function sorted<T>(items: readonly T[], sorts: unknown, keys: SortKeys<T>): T[] {
  const order = strings(sorts)
    .map((s) => {
      const [field = '', dir = 'asc'] = s.split(':');
      const key = keys[field];
      if (!key) throw invalid(`cannot sort by "${field}"; sort by ${Object.keys(keys).join(', ')}`);
      if (!/^(asc|desc)$/i.test(dir)) throw invalid(`sort "${s}": the direction is asc or desc`);
      return { key, sign: dir.toLowerCase() === 'desc' ? -1 : 1 };
    })
    .reverse();
  let out = [...items];
  for (const { key, sign } of order) out = [...out].sort((a, b) => (key(a) < key(b) ? -sign : key(a) > key(b) ? sign : 0));
  return out;
}

/** What each filter type reads of an item (one value or several). */
export type FilterKeys<T> = Readonly<Record<string, (x: T) => string | readonly string[] | undefined>>;

/** The items every filter type passes: `type:value` entries, values of one type being alternatives. */
export function filtered<T>(items: readonly T[], filters: unknown, keys: FilterKeys<T>): T[] {
  const wanted = new Map<string, Set<string>>();
  for (const f of strings(filters)) {
    const at = f.indexOf(':');
    const type = at < 0 ? f : f.slice(0, at);
    if (!keys[type] || at < 0)
      throw invalid(`filter "${f.slice(0, 200)}" is not type:value; the filter types are ${Object.keys(keys).join(', ')}`);
    const values = wanted.get(type) ?? new Set<string>();
    values.add(f.slice(at + 1).toLowerCase());
    wanted.set(type, values);
  }
  if (wanted.size === 0) return [...items];
  return items.filter((x) =>
    [...wanted].every(([type, values]) => {
      const v = keys[type]?.(x);
      const have = (v === undefined ? [] : typeof v === 'string' ? [v] : v).map((s) => s.toLowerCase());
      return have.some((h) => values.has(h));
    }),
  );
}

/** The items whose name contains the term (any case); all of them without one. */
export function searched<T>(items: readonly T[], term: unknown, name: (x: T) => string | readonly string[]): T[] {
  const t = typeof term === 'string' ? term.trim().toLowerCase() : '';
  if (!t) return [...items];
  return items.filter((x) => {
    const n = name(x);
    return (typeof n === 'string' ? [n] : n).some((s) => s.toLowerCase().includes(t));
  });
}
