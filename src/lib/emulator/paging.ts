/**
 * Paging as the control plane does it: pageSize and an opaque token naming
 * where the next page starts; nextToken is absent on the last page.
 */
import { invalid } from './errors.js';
import type { Doc } from './types.js';

export interface PageOf<T> {
  readonly items: T[];
  readonly nextToken?: string;
}

const encode = (offset: number): string => Buffer.from(JSON.stringify({ o: offset })).toString('base64url');

function decode(token: string): number {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof v.o === 'number' && Number.isInteger(v.o) && v.o >= 0) return v.o;
  } catch {
    // falls through
  }
  throw invalid('the starting token is not valid');
}

/** Pages an in-order list. Field names default to pageSize/startingToken. */
export function page<T>(
  all: readonly T[],
  request: Doc,
  opts: { sizeField?: string; tokenField?: string; defaultSize?: number; maxSize?: number } = {},
): PageOf<T> {
  const sizeRaw = request[opts.sizeField ?? 'pageSize'];
  const size = typeof sizeRaw === 'number' && sizeRaw > 0 ? Math.min(sizeRaw, opts.maxSize ?? 1000) : (opts.defaultSize ?? 100);
  const tokenRaw = request[opts.tokenField ?? 'startingToken'];
  const start = typeof tokenRaw === 'string' && tokenRaw ? decode(tokenRaw) : 0;
  const items = all.slice(start, start + size);
  return { items, nextToken: start + size < all.length ? encode(start + size) : undefined };
}
