/**
 * Paging as the control plane does it, in one place for every service: the
 * operation's paging spec from the model names the request's page-size and
 * token fields and the response's result and next-token fields; one opaque
 * token format (`{"after": position}`, base64url) says where the next page
 * starts. The token is absent on the last page.
 */
import type { Operation } from '../../model/service.js';
import type { PagingSpec } from '../../model/types.js';
import { invalid } from '../errors.js';
import type { Store } from '../store.js';
import type { Doc, OperationRef } from './context.js';

/** An operation's paging as the emulator applies it: the model's spec, and the page size when a request gives none. */
export interface Paging extends PagingSpec {
  /** The page-size field's default in the model, else the spec's default item count. */
  readonly defaultSize: number;
}

/** The paging of a model operation, or undefined when it does not page. */
export function pagingOf(op: Operation): Paging | undefined {
  const spec = op.paging;
  if (!spec) return undefined;
  const field = op.service.requestFields(op).find((f) => f.name === spec.pageSize);
  const d = Number(field?.default);
  return { ...spec, defaultSize: Number.isInteger(d) && d > 0 ? d : spec.defaultMaxItems };
}

export interface Page<T> {
  readonly items: T[];
  readonly nextToken?: string;
}

/** Something to page through: up to `count` items after a position, each with its own position. */
export interface Listing<T> {
  read(after: number, count: number): Array<{ readonly item: T; readonly position: number }>;
}

/** An in-order list; positions are indexes. */
export function arrayListing<T>(all: readonly T[]): Listing<T> {
  return { read: (after, count) => all.slice(after, after + count).map((item, i) => ({ item, position: after + i + 1 })) };
}

/** The documents of a store kind in creation order; each page is one range scan by sequence. */
export function storeListing<T>(store: Store, kind: string): Listing<T> {
  return { read: (after, count) => store.list<T>(kind, after, count).map((r) => ({ item: r.doc, position: r.seq })) };
}

export const encodeToken = (position: number): string => Buffer.from(JSON.stringify({ after: position })).toString('base64url');

export function decodeToken(token: string): number {
  try {
    const v = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { after?: unknown };
    if (typeof v.after === 'number' && Number.isInteger(v.after) && v.after >= 0) return v.after;
  } catch {
    // falls through
  }
  throw invalid('the starting token is not valid');
}

/** The page a request asks for. */
export function page<T>(paging: Paging, request: Doc, source: readonly T[] | Listing<T>): Page<T> {
  const sizeRaw = request[paging.pageSize];
  const size = typeof sizeRaw === 'number' && Number.isInteger(sizeRaw) && sizeRaw > 0 ? sizeRaw : paging.defaultSize;
  const tokenRaw = request[paging.inputToken];
  const after = typeof tokenRaw === 'string' && tokenRaw !== '' ? decodeToken(tokenRaw) : 0;
  const listing = isListing(source) ? source : arrayListing(source);
  const rows = listing.read(after, size + 1);
  const items = rows.slice(0, size);
  const last = items[items.length - 1];
  return { items: items.map((r) => r.item), nextToken: rows.length > size && last ? encodeToken(last.position) : undefined };
}

const isListing = <T>(s: readonly T[] | Listing<T>): s is Listing<T> => !Array.isArray(s);

/** A page as the response carries it: the items under the result field, the token under the output field when there is more. */
export function pageResponse<T>(paging: Paging, p: Page<T>, view?: (item: T) => unknown): Doc {
  return { [paging.result]: view ? p.items.map(view) : p.items, ...(p.nextToken ? { [paging.outputToken]: p.nextToken } : {}) };
}

/** The paging of the operation a request is for (a handler of a listing that does not page is a mistake). */
export function pagingFor(ctx: { readonly op: OperationRef }): Paging {
  const paging = ctx.op.paging;
  if (!paging) throw new Error(`${ctx.op.service} ${ctx.op.name} does not page`);
  return paging;
}

/** The response of a paged listing: the page the request asks for, under the operation's own field names. */
export function paged<T>(
  ctx: { readonly op: OperationRef },
  request: Doc,
  source: readonly T[] | Listing<T>,
  view?: (item: T) => unknown,
): Doc {
  const paging = pagingFor(ctx);
  return pageResponse(paging, page(paging, request, source), view);
}
