/**
 * Runs one API operation from parsed flags: builds and validates the
 * request, calls (paging, uploading, waiting as the model says) and returns
 * what there is to show. Knows no oclif: the fast path and the oclif
 * command call it alike, with the run context of their entry.
 */
import type { OperationClient, Doc } from '../core/client.js';
import { openUpload } from '../core/files.js';
import { CdpError, usageError, cdpError } from '../core/errors.js';
import { printable, validateRequest } from '../core/validate.js';
import { firstFailure, pollOperation, pollRequest, waitFor } from '../core/waiter.js';
import { customizationOf } from '../customizations/index.js';
import { kebab } from '../model/names.js';
import type { Operation } from '../model/index.js';
import { RunContext, type ContextDeps, type ParsedFlags } from './context.js';
import { GLOBAL_FLAG_SPECS, flagFields } from './flag-spec.js';
import {
  convertFlag,
  expandFiles,
  inputFlagOf,
  loadInputDocument,
  numberFlag,
  readAllStdin,
  skeleton,
  withoutPlaceholders,
} from './input.js';
import { shellQuote } from './io.js';
import { WaitProgress } from './progress.js';
import { asFlags, confirm, issueText, promptMissing } from './prompt.js';
import { compileQuery } from './query.js';
import { show, type Output, type RenderOptions } from './render.js';
import { reportError } from './report.js';

/** Where a request's words come from beyond its parsed flags: the command line as given, and standard input. */
export interface RequestSource {
  readonly argv: readonly string[];
  readonly readStdin: () => Promise<Buffer>;
}

const PROCESS_SOURCE: RequestSource = { argv: process.argv, readStdin: readAllStdin };

/**
 * Request from --input and flags (flags win), converted by field type; file
 * references in string fields at any depth are read (unless
 * --no-parameter-expansion), as the official CLI does.
 */
export async function buildRequest(op: Operation, flags: ParsedFlags, source: RequestSource = PROCESS_SOURCE): Promise<Doc> {
  const shapes = op.service.shapes;
  // An edited --generate-skeleton under --input: what was left as a placeholder is not sent
  // (under cdp's --cli-input-json, everything is, as cdp sends it).
  const inputFlag = inputFlagOf(source.argv);
  const document = flags.input ? await loadInputDocument(String(flags.input), source.readStdin, inputFlag) : {};
  const request: Doc = inputFlag === '--input' ? withoutPlaceholders(shapes, op.input, document) : document;
  const expand = !flags['no-parameter-expansion'];
  const fromFlags = new Set<string>();
  for (const field of flagFields(op)) {
    const name = kebab(field.name);
    const v = flags[name];
    if (v === undefined) continue;
    fromFlags.add(field.name);
    if (typeof v === 'boolean') request[field.name] = v;
    else request[field.name] = convertFlag(Array.isArray(v) ? v.map(String) : [String(v)], field, shapes, name, expand);
  }
  if (expand) {
    const fields = op.service.requestShape(op).byName;
    for (const [k, v] of Object.entries(request)) {
      const field = fields.get(k);
      if (field) request[k] = expandFiles(shapes, field.type, v, fromFlags.has(k) ? `--${kebab(k)}` : `${k} (--input)`);
    }
  }
  return request;
}

/** Every validation issue at once, as one usage error whose lines name the flags (`--group-name is required`). */
export function checkRequest(op: Operation, request: Doc): void {
  const issues = validateRequest(op.service.shapes, op.input, request, op.cli.rules);
  if (issues.length === 0) return;
  const [first, ...rest] = issues.map((i) => issueText(op, i));
  throw usageError(first ?? 'invalid request', rest);
}

/** With --no-paginate, --page-size and --starting-token are the request's own page size and token. */
function onePage(op: Operation, request: Doc, flags: ParsedFlags): void {
  const paging = op.paging;
  if (!paging) return;
  const size = numberFlag(flags, 'page-size', { min: 1, integer: true });
  if (size !== undefined) request[paging.pageSize] = size;
  const token = flags['starting-token'];
  if (typeof token === 'string') request[paging.inputToken] = token;
}

export interface RunOptions {
  /** A request already built (the api command); flags then only steer output. */
  readonly request?: Doc;
}

/**
 * Builds, checks and sends the request of an operation (paging, uploading
 * and waiting as the model says) and returns what there is to show; the
 * caller renders it (render.ts show). Progress, warnings and questions go
 * through the context's IO as the run goes.
 */
export async function runOperation(op: Operation, flags: ParsedFlags, ctx: RunContext, opts: RunOptions = {}): Promise<Output> {
  const io = ctx.io;
  const skeletonOf = flags['generate-skeleton'];
  if (skeletonOf) {
    const shape = skeletonOf === 'output' ? op.output : op.input;
    return { kind: 'text', text: JSON.stringify(skeleton(op.service.shapes, shape), null, 2) + '\n' };
  }
  // A bad expression is found before anything is sent.
  const query = typeof flags.query === 'string' ? await compileQuery(flags.query) : undefined;
  if (op.wire.deprecated) {
    io.warn(`${op.commandId} is deprecated${op.cli.replacement ? `; use ${ctx.bin} ${op.service.topic} ${op.cli.replacement}` : ''}.`);
  }
  const noPaginate = Boolean(flags['no-paginate']);
  const request = opts.request ?? (await buildRequest(op, flags, { argv: ctx.argv, readStdin: () => io.readInput() }));
  // A raw request (the api command) goes as it is; otherwise it is completed as the official CLI does.
  if (!opts.request) {
    if (noPaginate) onePage(op, request, flags);
    op.cli.prepare?.(request);
  }
  await promptMissing(op, request, io);
  checkRequest(op, request);
  // Operations the official CLI runs as steps of its own (src/lib/customizations).
  const custom = await customizationOf(op)?.();
  const client = ctx.client();
  const render: RenderOptions = {
    format: ctx.output,
    query,
    columns: op.cli.columns,
    listKey: op.paging?.result ?? op.cli.listKey,
    decode: flags.decode ? op.cli.decode : undefined,
    shape: custom?.freeForm ? undefined : { shapes: op.service.shapes, name: op.output },
    ascii: Boolean(flags['ensure-ascii']),
  };
  if (op.cli.destructive && !flags.yes) {
    const target = asFlags(op, request);
    const ok = await confirm(io, `${op.commandId}${target ? ` ${target}` : ''}: this cannot be undone. Continue?`);
    if (!ok)
      throw cdpError({
        kind: 'usage',
        code: 'NOT_CONFIRMED',
        message: 'not confirmed; nothing was sent (use --yes to skip the question)',
      });
  }
  const upload = op.cli.upload ? openUpload(op, request) : undefined;
  if (op.cli.assetUploads && !opts.request) {
    const { uploadAssetReferences } = await import('../core/asset-uploads.js');
    await uploadAssetReferences(client, op, request, { open: openUpload, check: checkRequest });
  }
  if (op.paging && !flags.wait && !custom) {
    const maxItems = numberFlag(flags, 'max-items', { min: 1, integer: true });
    const pageSize = noPaginate ? undefined : numberFlag(flags, 'page-size', { min: 1, integer: true });
    // The service's own page-size limits apply to --page-size as to the field.
    const limits = op.service.requestShape(op).byName.get(op.paging.pageSize);
    if (
      pageSize !== undefined &&
      limits &&
      ((limits.min !== undefined && pageSize < limits.min) || (limits.max !== undefined && pageSize > limits.max))
    ) {
      throw usageError(`--page-size must be between ${limits.min ?? 1} and ${limits.max ?? '∞'}; got ${pageSize}`);
    }
    const pages = client.pages(op, request, {
      maxItems,
      pageSize,
      startingToken: noPaginate ? undefined : (flags['starting-token'] as string | undefined),
      noPaginate,
      readAhead: true,
    });
    return { kind: 'listing', pages, paging: op.paging, mode: { noPaginate, maxItems }, render };
  }
  const response = custom
    ? await custom.run({ client, op, request, warn: (line) => io.warn(line) })
    : await client.call(op, request, upload);
  if (flags.wait && op.cli.wait) return waitUntilDone(op, flags, ctx, { client, request, response, render });
  return { kind: 'answer', value: response, render };
}

/**
 * An API command line from start to end, for the fast path: a context built
 * from its flags, the run, what it returns shown, and any error reported on
 * the context's stderr. Resolves with the exit code.
 */
export async function runToEnd(op: Operation, flags: ParsedFlags, deps: ContextDeps): Promise<number> {
  const ctx = new RunContext(flags, deps);
  try {
    return await show(ctx.io, await runOperation(op, flags, ctx));
  } catch (err) {
    return reportError(err, { json: flags.output === 'json', debug: Boolean(flags.debug), io: ctx.io });
  } finally {
    ctx.close();
  }
}

/**
 * --wait: polls the operation's waiter with a spinner (or a line a change)
 * on stderr, then the final state is the answer. The spinner ends before
 * the answer is shown, never after.
 */
async function waitUntilDone(
  op: Operation,
  flags: ParsedFlags,
  ctx: RunContext,
  call: { readonly client: OperationClient; readonly request: Doc; readonly response: Doc; readonly render: RenderOptions },
): Promise<Output> {
  const { client, request, response, render } = call;
  // The answer may already say the work failed (a create refused by its validation): show it, poll nothing.
  const failed = await firstFailure(op, response);
  if (failed) return { kind: 'answer', value: response, render, failure: failed };
  const progress = new WaitProgress(ctx.io, await waitLabel(op, request, response), ctx.clock);
  const controller = new AbortController();
  const stopListening = ctx.onInterrupt(() => controller.abort());
  try {
    const outcome = await waitFor(client, op, request, response, {
      timeoutSec: numberFlag(flags, 'wait-timeout', { min: 0 }),
      intervalSec: numberFlag(flags, 'poll-interval', { min: 0 }),
      onState: (state, elapsed) => progress.update(state, elapsed),
      onName: (name) => progress.rename(`${op.commandId} ${printable(name, 60)}`),
      signal: controller.signal,
      clock: ctx.clock,
    });
    progress.end({ kind: 'done', state: outcome.state }, outcome.elapsedMs);
    const shape = outcome.shape ? { shapes: op.service.shapes, name: outcome.shape } : undefined;
    return { kind: 'answer', value: outcome.final, render: { ...render, shape } };
  } catch (err) {
    const e = err instanceof CdpError ? err : undefined;
    if (e?.kind === 'interrupted') {
      progress.end({ kind: 'interrupted' });
      throw cdpError({
        kind: 'interrupted',
        code: 'INTERRUPTED',
        message: 'stopped waiting; the operation goes on',
        details: [await resumeHint(ctx.bin, op, request, response, flags)],
      });
    }
    if (e?.kind === 'waitTimeout') {
      progress.end({ kind: 'timeout' });
      throw cdpError({
        kind: e.kind,
        code: e.code,
        message: e.message,
        service: op.service.name,
        operation: op.name,
        details: [...e.details, await resumeHint(ctx.bin, op, request, response, flags)],
      });
    }
    progress.end({ kind: 'failed', state: e?.kind === 'waitFailed' ? failedState(e) : undefined });
    throw err;
  } finally {
    stopListening();
  }
}

/**
 * What a wait line calls the work until the first poll names it (the
 * waiter's `label`): the command and the thing it waits on, by the name the
 * poll asks for (`datahub clusters create aws repro-etl`), else the last part
 * of its CRN or id; of several ids, the last (`vcId` after the `clusterId`
 * of the service it is in). The environment names the thing only when
 * nothing else does (ml workspaces are polled by both).
 */
export async function waitLabel(op: Operation, request: Doc, response: Doc): Promise<string> {
  const req = op.cli.wait ? await pollRequest(op, request, response).catch(() => ({}) as Doc) : {};
  const fields = Object.entries(req).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '');
  const named = fields.filter(([k]) => /Name$/.test(k));
  const pick = named.find(([k]) => k !== 'environmentName') ?? fields.findLast(([k]) => /(Crn|Id)$/.test(k)) ?? named[0];
  if (!pick) return op.commandId;
  const value = pick[1].startsWith('crn:') ? (pick[1].split(/[:/]/).at(-1) ?? pick[1]) : pick[1];
  return `${op.commandId} ${printable(value, 60)}`;
}

/** The state a failed wait ended in, from its message (`createX ended in CREATE_FAILED: ...`). */
function failedState(e: CdpError): string | undefined {
  return /ended in ([A-Z0-9_]+)/.exec(e.message)?.[1];
}

/** Global flags that say nothing about where or how to call, left out of a resume hint. */
const NOT_FOR_RESUMING = new Set(['yes', 'no-paginate', 'deprecated', 'query']);

/**
 * The whole command that checks on the work again: the poll operation with
 * its request, and every global flag given on this command line (--profile,
 * --endpoint-url, ...), so it reaches the same place the same way.
 */
export async function resumeHint(bin: string, op: Operation, request: Doc, response: Doc, flags: ParsedFlags): Promise<string> {
  if (!op.cli.wait) return '';
  // The poll may be another service's (dataflow waits read df).
  const poll = await pollOperation(op);
  const req = await pollRequest(op, request, response);
  const args = Object.entries(req).map(
    ([k, v]) => `--${kebab(k)} ${typeof v === 'string' ? shellQuote(v) : shellQuote(JSON.stringify(v))}`,
  );
  for (const [name, spec] of Object.entries(GLOBAL_FLAG_SPECS)) {
    const v = flags[name];
    if (v === undefined || v === false || NOT_FOR_RESUMING.has(name)) continue;
    // A bearer token is not repeated on the screen.
    if (name === 'access-token') args.push(`--${name} "$CDP_ACCESS_TOKEN"`);
    else args.push(spec.type === 'boolean' ? `--${name}` : `--${name} ${shellQuote(String(v))}`);
  }
  return `Check on it with: ${[bin, poll.commandId, ...args].join(' ')}`;
}
