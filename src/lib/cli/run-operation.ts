/**
 * Runs one API operation from parsed flags: builds and validates the
 * request, calls (paging, uploading, waiting as the model says) and renders
 * the result. Knows no oclif, so tests can drive it directly.
 */
import { isatty } from 'node:tty';
import { CdpClient, type ClientSettings, type Doc } from '../core/client.js';
import { openUpload } from '../core/files.js';
import { CdpError, usageError } from '../core/errors.js';
import { printable, validateRequest } from '../core/validate.js';
import { firstFailure, waitFor } from '../core/waiter.js';
import { customizationOf } from '../customizations/index.js';
import { kebab } from '../model/names.js';
import type { Operation } from '../model/index.js';
import { convertFlag, expandFiles, inputFlagOf, loadInputDocument, readAllStdin, skeleton, withoutPlaceholders } from './input.js';
import { IO, shellQuote } from './io.js';
import { flagFields } from './flag-spec.js';
import { compileQuery, OUTPUT_FORMATS, type OutputFormat } from './output.js';
import { render, streamPages, type RenderOptions } from './render.js';
import { asFlags, confirm, issueText, promptMissing } from './prompt.js';
import { WaitProgress } from './progress.js';
import { GLOBAL_FLAG_SPECS } from './flag-spec.js';

export type ParsedFlags = Readonly<Record<string, unknown>>;

function num(flags: ParsedFlags, name: string, opts: { min?: number; integer?: boolean } = {}): number | undefined {
  const raw = flags[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (
    typeof raw !== 'string' ||
    raw.trim() === '' ||
    !Number.isFinite(n) ||
    (opts.integer && !Number.isInteger(n)) ||
    (opts.min !== undefined && n < opts.min)
  ) {
    throw usageError(
      `--${name} must be ${opts.integer ? 'an integer' : 'a number'}${opts.min !== undefined ? ` of at least ${opts.min}` : ''}; got "${printable(String(raw), 40)}"`,
    );
  }
  return n;
}

export function ioFor(flags: ParsedFlags, env: Readonly<Record<string, string | undefined>>): IO {
  return new IO(
    {
      color: (flags.color as 'on' | 'off' | 'auto' | undefined) ?? 'auto',
      pager: !flags['no-pager'],
      noInput: Boolean(flags['no-input']),
      env,
    },
    // Asked of the descriptor: the first touch of process.stdin builds a stream (loading fs streams
    // and fs/promises, 3-10 ms of every call) that a call without --input - never reads.
    { stdinIsTTY: isatty(0) },
  );
}

/** A client for the call flags describe; `extra` settings (a key to check) go with them. */
export function clientFor(
  flags: ParsedFlags,
  env: Readonly<Record<string, string | undefined>>,
  io: IO,
  extra: Pick<ClientSettings, 'credentials'> = {},
): CdpClient {
  const read = num(flags, 'cli-read-timeout', { min: 0 });
  const connect = num(flags, 'cli-connect-timeout', { min: 0 });
  return new CdpClient({
    ...extra,
    profile: flags.profile as string | undefined,
    endpointUrl: flags['endpoint-url'] as string | undefined,
    region: flags['cdp-region'] as string | undefined,
    formFactor: flags['form-factor'] as string | undefined,
    authConfig: flags['auth-config'] as string | undefined,
    env,
    accessToken: flags['access-token'] as string | undefined,
    http: {
      ...(flags['force-ipv4'] ? { ipv4Only: true } : {}),
      ...(read !== undefined ? { readTimeoutMs: read === 0 ? 2 ** 31 - 1 : read * 1000 } : {}),
      ...(connect !== undefined ? { connectTimeoutMs: connect === 0 ? 2 ** 31 - 1 : connect * 1000 } : {}),
      verifyTls: !flags['no-verify-tls'],
      caBundle: flags['ca-bundle'] as string | undefined,
      ...(env.CDPCTL_MAX_ATTEMPTS ? { maxAttempts: Math.max(1, Number(env.CDPCTL_MAX_ATTEMPTS) || 1) } : {}),
    },
    debug: flags.debug ? (line) => io.debug(line) : undefined,
    warn: (line) => io.warn(line),
  });
}

/**
 * Request from --input and flags (flags win), converted by field type; file
 * references in string fields at any depth are read (unless
 * --no-parameter-expansion), as the official CLI does.
 */
export async function buildRequest(op: Operation, flags: ParsedFlags): Promise<Doc> {
  const shapes = op.service.shapes;
  // An edited --generate-skeleton under --input: what was left as a placeholder is not sent
  // (under cdp's --cli-input-json, everything is, as cdp sends it).
  const inputFlag = inputFlagOf(process.argv);
  const document = flags.input ? await loadInputDocument(String(flags.input), readAllStdin, inputFlag) : {};
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
  const size = num(flags, 'page-size', { min: 1, integer: true });
  if (size !== undefined) request[paging.pageSize] = size;
  const token = flags['starting-token'];
  if (typeof token === 'string') request[paging.inputToken] = token;
}

export interface RunContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly io?: IO;
  /** The binary's name, for hints. */
  readonly bin: string;
  /** A request already built (the api command); flags then only steer output. */
  readonly request?: Doc;
}

export async function runOperation(op: Operation, flags: ParsedFlags, ctx: RunContext): Promise<void> {
  const io = ctx.io ?? ioFor(flags, ctx.env);
  const skeletonOf = flags['generate-skeleton'];
  if (skeletonOf) {
    const shape = skeletonOf === 'output' ? op.output : op.input;
    await io.write(JSON.stringify(skeleton(op.service.shapes, shape), null, 2) + '\n');
    return;
  }
  // A bad expression is found before anything is sent.
  const query = typeof flags.query === 'string' ? await compileQuery(flags.query) : undefined;
  if (op.wire.deprecated) {
    io.warn(`${op.commandId} is deprecated${op.cli.replacement ? `; use ${ctx.bin} ${op.service.topic} ${op.cli.replacement}` : ''}.`);
  }
  const noPaginate = Boolean(flags['no-paginate']);
  const request = ctx.request ?? (await buildRequest(op, flags));
  // A raw request (the api command) goes as it is; otherwise it is completed as the official CLI does.
  if (!ctx.request) {
    if (noPaginate) onePage(op, request, flags);
    op.cli.prepare?.(request);
  }
  await promptMissing(op, request, io);
  checkRequest(op, request);
  // Operations the official CLI runs as steps of its own (src/lib/customizations).
  const custom = await customizationOf(op)?.();
  const client = clientFor(flags, ctx.env, io);
  const renderOpts: RenderOptions = {
    format: resolveOutput(flags, ctx, client),
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
      throw new CdpError({
        kind: 'usage',
        code: 'NOT_CONFIRMED',
        message: 'not confirmed; nothing was sent (use --yes to skip the question)',
      });
  }
  try {
    const upload = op.cli.upload ? openUpload(op, request) : undefined;
    if (op.cli.assetUploads && !ctx.request) {
      const { uploadAssetReferences } = await import('./asset-uploads.js');
      await uploadAssetReferences(client, op, request, { open: openUpload, check: checkRequest });
    }
    if (op.paging && !flags.wait && !custom) {
      const maxItems = num(flags, 'max-items', { min: 1, integer: true });
      const pageSize = noPaginate ? undefined : num(flags, 'page-size', { min: 1, integer: true });
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
      });
      await streamPages(io, pages, op.paging, renderOpts, { noPaginate, maxItems });
      return;
    }
    const response = custom
      ? await custom.run({ client, op, request, warn: (line) => io.warn(line) })
      : await client.call(op, request, upload);
    if (flags.wait && op.cli.wait) {
      // The answer may already say the work failed (a create refused by its validation): show it, poll nothing.
      const failed = await firstFailure(op, response);
      if (failed) {
        await render(io, response, renderOpts);
        throw failed;
      }
      const progress = new WaitProgress(io, op.commandId);
      const controller = new AbortController();
      const onSigint = (): void => controller.abort();
      process.once('SIGINT', onSigint);
      try {
        const outcome = await waitFor(client, op, request, response, {
          timeoutSec: num(flags, 'wait-timeout', { min: 0 }),
          intervalSec: num(flags, 'poll-interval', { min: 0 }),
          onState: (state, elapsed) => progress.update(state, elapsed),
          signal: controller.signal,
        });
        // The spinner ends before the result is written, never after.
        progress.end({ kind: 'done', state: outcome.state }, outcome.elapsedMs);
        const shape = outcome.shape ? { shapes: op.service.shapes, name: outcome.shape } : undefined;
        await render(io, outcome.final, { ...renderOpts, shape });
      } catch (err) {
        const e = err instanceof CdpError ? err : undefined;
        if (e?.kind === 'interrupted') {
          progress.end({ kind: 'interrupted' });
          throw new CdpError({
            kind: 'interrupted',
            code: 'INTERRUPTED',
            message: 'stopped waiting; the operation goes on',
            details: [await resumeHint(ctx.bin, op, request, response, flags)],
          });
        }
        if (e?.kind === 'waitTimeout') {
          progress.end({ kind: 'timeout' });
          throw new CdpError({
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
        process.removeListener('SIGINT', onSigint);
      }
      return;
    }
    await render(io, response, renderOpts);
  } finally {
    client.close();
  }
}

/** --output, else CDP_DEFAULT_OUTPUT, else the profile's `output` (read once, through the client that makes the call). */
function resolveOutput(flags: ParsedFlags, ctx: RunContext, client: CdpClient): RenderOptions['format'] {
  const given = (flags.output as string | undefined) ?? ctx.env.CDP_DEFAULT_OUTPUT;
  if (given) return given as RenderOptions['format'];
  try {
    const out = client.profile.values.output;
    if (out && (OUTPUT_FORMATS as readonly string[]).includes(out)) return out as OutputFormat;
  } catch {
    // The call itself reports profile problems.
  }
  return 'json';
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
  const { pollOperation, pollRequest } = await import('../core/waiter.js');
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
