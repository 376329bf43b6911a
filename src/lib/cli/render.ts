/**
 * The one place results are written: --query, then the chosen format's
 * formatter (output.ts), for a single answer and a paged listing alike.
 * Paged listings stream in json, jsonl, tsv and table when no --query is
 * given (a table takes its layout from the first page); yaml and text, like
 * the official CLI's, need the whole merged result first (text's columns are
 * the union of every item's keys). An empty answer (`{}`) prints nothing, as
 * the official CLI does. What reaches a terminal shows control characters
 * escaped (IO.write; tables always); pipes and files get the bytes as sent.
 */
import type { Page } from '../core/client.js';
import { cdpError } from '../core/errors.js';
import type { ShapeIndex } from '../model/shapes.js';
import type { PagingSpec } from '../model/types.js';
import type { Columns } from './cells.js';
import type { IO, PagedWriter } from './io.js';
import { formatParts, formatterFor, slices, type OutputFormat } from './output.js';
import type { Query } from './query.js';

export interface RenderOptions {
  readonly format: OutputFormat;
  /** --query, compiled before anything was sent. */
  readonly query?: Query;
  readonly columns?: Columns;
  readonly listKey?: string;
  /** Base64 fields (dotted paths, `[]` for lists) to show decoded. */
  readonly decode?: readonly string[];
  /** The response's shape: text output reads the response by it, as the official CLI's parser does. */
  readonly shape?: { readonly shapes: ShapeIndex; readonly name: string };
  /** --ensure-ascii: JSON with every non-ASCII character escaped. */
  readonly ascii?: boolean;
}

/** How a listing was asked for: its token is printed with --no-paginate, and after --max-items stopped it. */
export interface ListingMode {
  readonly noPaginate: boolean;
  readonly maxItems?: number;
}

/** A line said on stderr once a command's result is written. */
export type Note = { readonly info: string } | { readonly warn: string };

/**
 * What a command has to show. Commands return it and their caller renders
 * it (show): an answer or a paged listing in the chosen format, the
 * command's own text, or lines as they come; then the notes on stderr.
 */
export type Output = (
  | {
      readonly kind: 'answer';
      readonly value: unknown;
      readonly render: RenderOptions;
      /** Thrown once the answer is shown: the work it started has already failed. */
      readonly failure?: Error;
    }
  | {
      readonly kind: 'listing';
      readonly pages: AsyncIterable<Page>;
      readonly paging: PagingSpec;
      readonly mode: ListingMode;
      readonly render: RenderOptions;
    }
  | {
      readonly kind: 'text';
      readonly text: string;
      /** Carries cdpctl's own styling: written as it is, its data already made visible. */
      readonly styled?: boolean;
    }
  | { readonly kind: 'lines'; readonly lines: AsyncIterable<string> }
  | { readonly kind: 'nothing' }
) & {
  readonly notes?: readonly Note[];
  /** The exit code of a command that shows its result and still does not end ok (`auth status` of a key that fails). */
  readonly exitCode?: number;
};

/** Nothing on stdout; perhaps a few lines on stderr. */
export const nothing = (...notes: Note[]): Output => ({ kind: 'nothing', notes });

/** Renders what a command returned; resolves with the exit code it asks for (0 unless it says). */
export async function show(io: IO, output: Output): Promise<number> {
  switch (output.kind) {
    case 'answer':
      await render(io, output.value, output.render);
      if (output.failure) throw output.failure;
      break;
    case 'listing':
      await streamPages(io, output.pages, output.paging, output.render, output.mode);
      break;
    case 'text':
      await (output.styled ? io.writeStyled(output.text) : io.write(output.text));
      break;
    case 'lines':
      for await (const line of output.lines) await io.write(line);
      break;
    case 'nothing':
      break;
  }
  for (const note of output.notes ?? []) {
    if ('warn' in note) io.warn(note.warn);
    else io.info(note.info);
  }
  return output.exitCode ?? 0;
}

/** The formatter options of a render: a --query result has no model columns or list key. */
const formatOptions = (io: IO, opts: RenderOptions, queried: boolean) => ({
  columns: queried ? undefined : opts.columns,
  listKey: queried ? undefined : opts.listKey,
  ascii: opts.ascii,
  width: io.columns,
  color: io.colorOn(),
});

/** Where a format writes: tables through the pager (as styled text), the rest through IO.write. */
function sinkFor(io: IO, styled: boolean): PagedWriter {
  return styled ? io.pagedWriter() : { write: (text) => io.write(text), end: async () => undefined };
}

/** Writes formatted text where its format goes, a part at a time, then what the formatter has to say on stderr. */
async function emit(io: IO, formatted: { parts: Iterable<string>; notes: readonly string[] }, styled: boolean): Promise<void> {
  const out = sinkFor(io, styled);
  try {
    for (const part of formatted.parts) if (part) await out.write(part);
  } finally {
    await out.end();
  }
  for (const note of formatted.notes) io.info(note);
}

/** An answer with nothing in it: `{}`. */
const isEmpty = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;

export async function render(io: IO, value: unknown, opts: RenderOptions): Promise<void> {
  let v = value;
  if (isEmpty(v) && !opts.query) return;
  if (opts.decode?.length && opts.format !== 'json') v = decodeFields(v, opts.decode);
  if (opts.format === 'text' && opts.shape) {
    const { textView } = await import('./text.js');
    v = textView(opts.shape.shapes, { kind: 'ref', ref: opts.shape.name }, v);
  }
  const styled = opts.format === 'table';
  let queried = false;
  if (opts.query) {
    try {
      v = opts.query(v);
      queried = true;
    } catch (err) {
      // Nothing on stdout: `x=$(cdpctl ... --query ...)` must not capture a document it did not ask for.
      // The response is not lost: it rides in the error, and --debug shows it (a one-time secret included).
      throw cdpError({
        kind: 'usage',
        code: 'INVALID_QUERY',
        message: `--query "${opts.query.expression}" failed on the response: ${(err as Error).message}`,
        details: ['Nothing was printed; --debug shows the response (the call was made).'],
        debugText: JSON.stringify(value, null, 2),
      });
    }
  }
  if (isEmpty(v)) return;
  await emit(io, await formatParts(v, opts.format, formatOptions(io, opts, queried)), styled);
}

/** Replaces base64 text at the given paths with its UTF-8 decoding. */
export function decodeFields(value: unknown, paths: readonly string[]): unknown {
  const copy = structuredClone(value);
  const walk = (node: unknown, parts: string[]): void => {
    if (node === null || typeof node !== 'object') return;
    const [head, ...rest] = parts;
    if (head === undefined) return;
    const isList = head.endsWith('[]');
    const key = isList ? head.slice(0, -2) : head;
    const obj = node as Record<string, unknown>;
    if (isList) {
      const arr = obj[key];
      if (Array.isArray(arr)) for (const item of arr) walk(item, rest);
      return;
    }
    if (rest.length === 0) {
      const v = obj[key];
      if (typeof v === 'string') obj[key] = Buffer.from(v, 'base64').toString('utf8');
      return;
    }
    walk(obj[key], rest);
  };
  for (const p of paths) walk(copy, p.split('.'));
  return copy;
}

/**
 * The token printed with a listing: with --no-paginate the page's own, as the
 * service sent it (an empty one too); after --max-items the one to resume from.
 */
function endToken(last: Page | undefined, paging: PagingSpec, mode: ListingMode): string | undefined {
  if (!last) return undefined;
  if (mode.noPaginate) {
    const sent = last.response[paging.outputToken];
    return typeof sent === 'string' ? sent : undefined;
  }
  return mode.maxItems !== undefined ? last.nextToken : undefined;
}

/**
 * Writes a paged listing: page by page where the format can (memory stays
 * flat, and long output on a terminal goes through the pager as it comes),
 * else merged into one answer first.
 */
export async function streamPages(
  io: IO,
  pages: AsyncIterable<Page>,
  paging: PagingSpec,
  opts: RenderOptions,
  mode: ListingMode,
): Promise<void> {
  const formatter = opts.query ? undefined : await formatterFor(opts.format, formatOptions(io, opts, false));
  const listing = formatter?.listing;
  if (!formatter || !listing) {
    const items: unknown[] = [];
    let last: Page | undefined;
    for await (const page of pages) {
      // A loop, not push(...items): a page of 200,000 items must not overflow the stack.
      for (const item of page.items) items.push(item);
      last = page;
    }
    const merged: Record<string, unknown> = { ...(last?.response ?? {}) };
    delete merged[paging.outputToken];
    merged[paging.result] = items;
    const token = endToken(last, paging, mode);
    if (token !== undefined) merged[paging.outputToken] = token;
    return render(io, merged, opts);
  }
  const out = sinkFor(io, formatter.styled);
  let last: Page | undefined;
  try {
    for await (const page of pages) {
      let text = last ? '' : listing.begin(paging.result);
      listing.page?.(page.items);
      last = page;
      // A slice at a time (output.ts SLICE): a huge page never becomes one string.
      for (const slice of slices(page.items)) {
        text += listing.items(slice);
        if (text) await out.write(text);
        text = '';
      }
      if (text) await out.write(text);
    }
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(last?.response ?? {})) if (k !== paging.result && k !== paging.outputToken) fields[k] = v;
    const close = listing.end(fields, { field: paging.outputToken, token: endToken(last, paging, mode) });
    await out.write((last ? '' : listing.begin(paging.result)) + close);
  } finally {
    await out.end();
  }
  for (const note of formatter.notes) io.info(note);
}
