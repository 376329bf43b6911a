/**
 * What service modules build their handlers with: a backend made for each
 * request (it holds the request's context), handed to a function that
 * unpacks the wire request, calls it, and builds the wire answer.
 */
import type { BackendContext, Doc, Handler, RequestContext } from './types.js';

export type Operation<B> = (b: B, req: Doc, ctx: RequestContext) => Doc;

/** `const op = perRequest((ctx) => new MyBackend(ctx));` then `myOperation: op((b, req) => ({ ... }))`. */
export function perRequest<B>(make: (ctx: BackendContext) => B): (fn: Operation<B>) => Handler {
  return (fn) => (req, ctx) => fn(make(ctx), req, ctx);
}
