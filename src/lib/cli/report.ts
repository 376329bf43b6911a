/**
 * Turns any error into `code: message` (or a JSON error with --output json)
 * on stderr and the exit code of DESIGN "Exit codes". Never a stack trace
 * unless --debug. Each message is one line, its control characters escaped.
 * Free of oclif, so the fast path (fast-run.ts) can use it.
 */
import { CdpError, ExitCode, cdpError } from '../core/errors.js';
import { printable } from '../core/validate.js';
import { oneLine, visible } from '../core/visible.js';
import { ioForArgv, STYLE, type IO } from './io.js';

/**
 * What oclif's errors carry: an exit code under `oclif` (every CLIError, and
 * a flag's value its parser refused). Told by that rather than by class, as
 * this module loads without oclif.
 */
interface OclifishError extends Error {
  oclif?: { exit?: number };
  code?: string;
  /** Only on a parse error (CLIParseError), whose constructor appends a line pointing at --help. */
  parse?: unknown;
}

export function toCdpError(err: unknown): CdpError {
  if (err instanceof CdpError) return err;
  const e = err as OclifishError;
  // oclif's own errors that end the command (its parse errors among them) are usage errors.
  if (e && typeof e === 'object' && e.oclif && e.oclif.exit !== 0) {
    // A parse error's last line is the pointer to --help its constructor appends; our hints replace it.
    const message = e.parse !== undefined ? e.message.slice(0, Math.max(0, e.message.lastIndexOf('\n'))) || e.message : e.message;
    // oclif quotes what it could not parse; that may be a secret (a PEM key
    // taken for a flag), so PEM blocks are masked and the message kept short.
    const text = message.replace(/-----BEGIN [A-Z ]+-----[\s\S]*?(-----END [A-Z ]+-----|$)/g, '<PEM text>').trim();
    const [first = '', ...rest] = text.split('\n').map((l) => l.trim());
    return cdpError({
      kind: 'usage',
      code: 'INVALID_INPUT',
      message: printable(first, 300),
      details: rest.filter(Boolean).map((l) => printable(l, 300)),
    });
  }
  if (e && typeof e === 'object' && e.code === 'EPIPE') return cdpError({ kind: 'ok', code: 'EPIPE', message: '' });
  return cdpError({ kind: 'service', code: 'INTERNAL_ERROR', message: e instanceof Error ? e.message : String(e), cause: err });
}

/**
 * The IO errors are reported through when the caller has none: colour as
 * --color on the command line says (read from argv, as an error may come
 * before flags are parsed), else only on a terminal and never with NO_COLOR.
 */
export const errorIO = (argv: readonly string[] = process.argv.slice(2)): IO => ioForArgv(argv);

/** Whether error output is coloured (see errorIO). */
export const stderrColor = (): boolean => errorIO().colorOn('err');

export function reportError(err: unknown, opts: { json: boolean; debug: boolean; color?: boolean; io?: IO }): number {
  const e = toCdpError(err);
  if (e.code === 'EPIPE') return ExitCode.ok;
  const io = opts.io ?? errorIO();
  // Messages carry a server's words and names from its data: each line shows its control characters escaped.
  const write = (line: string): void => void io.err.write(visible(line) + '\n');
  const debugText = opts.debug ? e.debugText : undefined;
  if (opts.json) {
    const json = e.toJSON();
    write(JSON.stringify(debugText === undefined ? json : { error: { ...json.error, debug: debugText } }));
  } else {
    const color = opts.color ?? io.colorOn('err');
    const code = oneLine(e.code);
    io.err.write(`${color ? `\u001b[${STYLE.red}m${code}\u001b[39m` : code}: ${oneLine(e.message)}\n`);
    const context = e.context;
    if (context) write(`  ${oneLine(context)}`);
    for (const d of e.details) write(`  ${oneLine(d)}`);
    if (debugText !== undefined) for (const line of debugText.replace(/\n$/, '').split('\n')) write(`  ${line}`);
  }
  if (opts.debug && e.code === 'INTERNAL_ERROR') {
    const cause = (e as { cause?: unknown }).cause;
    if (cause instanceof Error && cause.stack) write(cause.stack);
  }
  return e.exitCode;
}
