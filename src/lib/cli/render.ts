/**
 * The one place results are written: --query, then the chosen format.
 * Paged listings stream in json, jsonl, tsv and table when no --query is
 * given (a table takes its layout from the first page); text, like the
 * official CLI's, needs the whole merged result first (its columns are the
 * union of every item's keys). An empty answer (`{}`) prints nothing, as
 * the official CLI does. What reaches a terminal shows control characters
 * escaped (IO.write; tables always); pipes and files get the bytes as sent.
 */
import type { Page } from '../core/client.js';
import { CdpError } from '../core/errors.js';
import { visibleValue } from '../core/visible.js';
import type { ShapeIndex } from '../model/shapes.js';
import type { PagingSpec } from '../model/types.js';
import type { IO } from './io.js';
import {
  asciiJson,
  columnsFor,
  formatJson,
  formatJsonl,
  formatTable,
  formatYaml,
  listOf,
  textObject,
  textRows,
  cell,
  type Column,
  type Columns,
  type OutputFormat,
  type Query,
} from './output.js';

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

/** Says which columns a table left out to fit the terminal. */
const leftOutNote = (columns: readonly string[], width: number): string =>
  `(${columns.join(', ')} left out to fit ${width} columns; see ${columns.length > 1 ? 'them' : 'it'} with --output json or a wider terminal)`;

/** The formatted text of a value (after --query); `notes` collects what to say on stderr once it is written. */
async function formatted(io: IO, v: unknown, opts: RenderOptions, queried: boolean, notes: string[] = []): Promise<string> {
  const columns = queried ? undefined : opts.columns;
  const listKey = queried ? undefined : opts.listKey;
  const ascii = (text: string): string => (opts.ascii ? asciiJson(text) : text);
  switch (opts.format) {
    case 'json':
      return ascii(formatJson(v));
    case 'jsonl':
      return ascii(formatJsonl(v, listKey));
    case 'yaml':
      return formatYaml(v);
    case 'text':
      return (await import('./text.js')).formatText(v);
    case 'tsv': {
      const items = listOf(v, listKey);
      return items ? textRows(items, columns) : textObject(v);
    }
    case 'table':
      // Tables are for reading only, so their data is always shown visible (they carry cdpctl's colours).
      return formatTable(visibleValue(v), {
        columns,
        listKey,
        width: io.columns,
        color: io.colorOn(),
        onLeftOut: (cols) => notes.push(leftOutNote(cols, io.columns)),
      });
  }
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
  let queried = false;
  if (opts.query) {
    try {
      v = opts.query(v);
      queried = true;
    } catch (err) {
      // The response is never lost to a bad expression: all of it goes out, then the error.
      const whole = await formatted(io, v, opts, false);
      await (opts.format === 'table' ? io.page(whole) : io.write(whole));
      throw new CdpError({
        kind: 'usage',
        code: 'INVALID_QUERY',
        message: `--query "${opts.query.expression}" failed on the response: ${(err as Error).message}`,
        details: ['The whole response was printed instead.'],
      });
    }
  }
  if (isEmpty(v)) return;
  const notes: string[] = [];
  const text = await formatted(io, v, opts, queried, notes);
  await (opts.format === 'table' ? io.page(text) : io.write(text));
  for (const note of notes) io.info(note);
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
function endToken(last: Page | undefined, paging: PagingSpec, mode: { noPaginate: boolean; maxItems?: number }): string | undefined {
  if (!last) return undefined;
  if (mode.noPaginate) {
    const sent = last.response[paging.outputToken];
    return typeof sent === 'string' ? sent : undefined;
  }
  return mode.maxItems !== undefined ? last.nextToken : undefined;
}

/** Writes a paged listing; streams where the format allows so memory stays flat. */
export async function streamPages(
  io: IO,
  pages: AsyncGenerator<Page>,
  paging: PagingSpec,
  opts: RenderOptions,
  mode: { noPaginate: boolean; maxItems?: number },
): Promise<void> {
  const streaming = !opts.query && (opts.format === 'jsonl' || opts.format === 'tsv' || opts.format === 'json' || opts.format === 'table');
  if (streaming && opts.format === 'table') return streamTable(io, pages, paging, opts, mode);
  if (!streaming) {
    const items: unknown[] = [];
    let last: Page | undefined;
    for await (const page of pages) {
      items.push(...page.items);
      last = page;
    }
    const merged: Record<string, unknown> = { ...(last?.response ?? {}) };
    delete merged[paging.outputToken];
    merged[paging.result] = items;
    const token = endToken(last, paging, mode);
    if (token !== undefined) merged[paging.outputToken] = token;
    return render(io, merged, opts);
  }
  let count = 0;
  let last: Page | undefined;
  let columns: Column[] | undefined;
  // The JSON opening goes out with the first page: a call that fails before any
  // page arrives leaves stdout empty rather than holding half a document.
  const opening = `{\n  ${JSON.stringify(paging.result)}: [`;
  for await (const page of pages) {
    let chunk = opts.format === 'json' && !last ? opening : '';
    last = page;
    for (const item of page.items) {
      if (opts.format === 'jsonl') chunk += JSON.stringify(item) + '\n';
      else if (opts.format === 'tsv') {
        columns ??= columnsFor(page.items, opts.columns);
        chunk += columns.map((c) => cell(c.get(item)).replace(/[\t\n]/g, ' ')).join('\t') + '\n';
      } else chunk += (count > 0 ? ',' : '') + '\n    ' + JSON.stringify(item, null, 2).replace(/\n/g, '\n    ');
      count++;
    }
    if (chunk) await io.write(opts.ascii && opts.format !== 'tsv' ? asciiJson(chunk) : chunk);
  }
  const token = endToken(last, paging, mode);
  if (opts.format === 'json') {
    let tail = (last ? '' : opening) + (count > 0 ? '\n  ]' : ']');
    for (const [k, v] of Object.entries(last?.response ?? {})) {
      if (k === paging.result || k === paging.outputToken) continue;
      tail += `,\n  ${JSON.stringify(k)}: ${JSON.stringify(v, null, 2).replace(/\n/g, '\n  ')}`;
    }
    if (token !== undefined) tail += `,\n  ${JSON.stringify(paging.outputToken)}: ${JSON.stringify(token)}`;
    await io.write((opts.ascii ? asciiJson(tail) : tail) + '\n}\n');
  } else if (token) {
    io.info(`${paging.outputToken}: ${token}  (resume with --starting-token ${token})`);
  }
}

/**
 * A paged listing as a table, page by page: the first page lays it out (see
 * ListTable), so memory stays flat however long the listing. Long output on
 * a terminal goes through the pager as it comes.
 */
async function streamTable(
  io: IO,
  pages: AsyncGenerator<Page>,
  paging: PagingSpec,
  opts: RenderOptions,
  mode: { noPaginate: boolean; maxItems?: number },
): Promise<void> {
  const { ListTable } = await import('./table.js');
  const out = io.pagedWriter();
  let table: InstanceType<typeof ListTable> | undefined;
  let last: Page | undefined;
  try {
    for await (const page of pages) {
      last = page;
      if (page.items.length === 0) continue;
      const items = page.items.map(visibleValue);
      table ??= new ListTable(columnsFor(items, opts.columns), { width: io.columns, color: io.colorOn() });
      await out.write(table.page(items));
    }
    await out.write(table ? table.end() : '(no items)\n');
  } finally {
    await out.end();
  }
  if (table?.leftOut.length) io.info(leftOutNote(table.leftOut, io.columns));
  const token = endToken(last, paging, mode);
  if (token) io.info(`${paging.outputToken}: ${token}  (resume with --starting-token ${token})`);
}
