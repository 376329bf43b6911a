/**
 * The one place results are written: --query, then the chosen format.
 * Paged listings stream in json, jsonl and text when no --query is given.
 */
import type { Page } from '../core/client.js';
import type { PagingSpec } from '../model/types.js';
import type { IO } from './io.js';
import {
  columnsFor,
  compileQuery,
  formatJson,
  formatJsonl,
  formatTable,
  formatYaml,
  listOf,
  textObject,
  textRows,
  cell,
  type Columns,
  type OutputFormat,
} from './output.js';

export interface RenderOptions {
  readonly format: OutputFormat;
  readonly query?: string;
  readonly columns?: Columns;
  readonly listKey?: string;
  /** Base64 fields (dotted paths, `[]` for lists) to show decoded. */
  readonly decode?: readonly string[];
}

export async function render(io: IO, value: unknown, opts: RenderOptions): Promise<void> {
  let v = value;
  if (opts.decode?.length && opts.format !== 'json') v = decodeFields(v, opts.decode);
  if (opts.query) v = (await compileQuery(opts.query))(v);
  const columns = opts.query ? undefined : opts.columns;
  const listKey = opts.query ? undefined : opts.listKey;
  switch (opts.format) {
    case 'json':
      return io.write(formatJson(v));
    case 'jsonl':
      return io.write(formatJsonl(v, listKey));
    case 'yaml':
      return io.write(await formatYaml(v));
    case 'text': {
      const items = listOf(v, listKey);
      return io.write(items ? textRows(items, columns) : textObject(v));
    }
    case 'table':
      return io.page(await formatTable(v, { columns, listKey, width: io.columns, color: io.colorOn() }));
  }
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

/** Writes a paged listing; streams where the format allows so memory stays flat. */
export async function streamPages(
  io: IO,
  pages: AsyncGenerator<Page>,
  paging: PagingSpec,
  opts: RenderOptions,
  mode: { noPaginate: boolean; maxItems?: number },
): Promise<void> {
  const streaming = !opts.query && (opts.format === 'jsonl' || opts.format === 'text' || opts.format === 'json');
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
    if (last?.nextToken && (mode.noPaginate || mode.maxItems !== undefined)) merged[paging.outputToken] = last.nextToken;
    return render(io, merged, opts);
  }
  let count = 0;
  let last: Page | undefined;
  let columns: Array<[string, (item: unknown) => unknown]> | undefined;
  // The JSON opening goes out with the first page: a call that fails before any
  // page arrives leaves stdout empty rather than holding half a document.
  const opening = `{\n  ${JSON.stringify(paging.result)}: [`;
  for await (const page of pages) {
    let chunk = opts.format === 'json' && !last ? opening : '';
    last = page;
    for (const item of page.items) {
      if (opts.format === 'jsonl') chunk += JSON.stringify(item) + '\n';
      else if (opts.format === 'text') {
        columns ??= columnsFor(page.items, opts.columns);
        chunk += columns.map(([, get]) => cell(get(item)).replace(/[\t\n]/g, ' ')).join('\t') + '\n';
      } else chunk += (count > 0 ? ',' : '') + '\n    ' + JSON.stringify(item, null, 2).replace(/\n/g, '\n    ');
      count++;
    }
    if (chunk) await io.write(chunk);
  }
  const token = last?.nextToken && (mode.noPaginate || mode.maxItems !== undefined) ? last.nextToken : undefined;
  if (opts.format === 'json') {
    let tail = (last ? '' : opening) + (count > 0 ? '\n  ]' : ']');
    for (const [k, v] of Object.entries(last?.response ?? {})) {
      if (k === paging.result || k === paging.outputToken) continue;
      tail += `,\n  ${JSON.stringify(k)}: ${JSON.stringify(v, null, 2).replace(/\n/g, '\n  ')}`;
    }
    if (token) tail += `,\n  ${JSON.stringify(paging.outputToken)}: ${JSON.stringify(token)}`;
    await io.write(tail + '\n}\n');
  } else if (token) {
    io.info(`${paging.outputToken}: ${token}  (resume with --starting-token ${token})`);
  }
}
