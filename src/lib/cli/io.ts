/**
 * The one place that decides TTY, colour, terminal width, pager, prompts and
 * progress, and the one way commands reach the terminal: results through
 * write/page/pagedWriter on stdout, messages, warnings, prompts and spinners
 * on stderr. Commands never touch process.stdout or process.stderr directly.
 *
 * It is also where text from servers and stores is neutralised (visible.ts):
 * results written to a terminal, and everything said on stderr, show control
 * characters escaped; results written to a pipe or a file go byte for byte.
 * Text that carries cdpctl's own styling (tables, `auth status`) goes out
 * through writeStyled/pagedWriter, its data made visible by whoever built it.
 */
import { accessSync, constants, fstatSync, statSync, writeSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { isatty } from 'node:tty';
import { pauseThread, READ_LIMITS, readStreamBounded } from '../core/bounded-read.js';
import { visible } from '../core/visible.js';

export type ColorMode = 'on' | 'off' | 'auto';
export const COLOR_MODES: readonly ColorMode[] = ['on', 'off', 'auto'];

export interface IOOptions {
  readonly color?: ColorMode;
  readonly pager?: boolean;
  /** --no-input: never ask. */
  readonly noInput?: boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export type Terminal = Writable & { isTTY?: boolean; columns?: number; rows?: number };

/** A question for IO.ask (enquirer's prompt options; `name` is filled in). */
export type Question = Record<string, unknown>;

/** SGR codes used for colour. */
export const STYLE = { red: 31, green: 32, yellow: 33, magenta: 35, cyan: 36, grey: 90 } as const;

/** Enquirer's `format` for a confirm: the answer shown as it reads, yes or no (never true or false), once given. */
export function yesNo(this: { value?: unknown; state?: { submitted?: boolean } }, value?: unknown): string {
  if (!this.state?.submitted) return '';
  const v = value ?? this.value;
  return v === true ? 'yes' : 'no';
}

/** A word as a shell reads it back: as it is when plain, else single-quoted. */
export const shellQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The terminals IO writes to and asks on: stdout, stderr, whether stdin is a terminal, who answers questions. */
export interface IOStreams {
  readonly out?: Terminal;
  readonly err?: Terminal;
  readonly stdinIsTTY?: boolean;
  /** Standard input, read by `--input -` (default the process's). */
  readonly in?: Readable;
  /** Answers a question in place of enquirer (tests). */
  readonly ask?: (q: Question) => Promise<unknown>;
}

/** A chunked writer for long output: direct, or through the pager once the text is taller than the screen. */
export interface PagedWriter {
  write(text: string): Promise<void>;
  end(): Promise<void>;
}

/** Where text is encoded on its way to a descriptor: one buffer, grown as needed, rather than a new one a write. */
let scratch: Buffer | undefined;

/**
 * Writes all of `data` to a file descriptor, synchronously, in order: a
 * descriptor left non-blocking by another process is waited on, a millisecond
 * at a time, rather than given up on.
 */
export function writeToDescriptor(fd: number, data: string | Uint8Array): void {
  let bytes: Uint8Array = data as Uint8Array;
  let length = data.length;
  if (typeof data === 'string') {
    length = Buffer.byteLength(data);
    if (!scratch || scratch.length < length) scratch = Buffer.allocUnsafeSlow(Math.max(length, 2 * (scratch?.length ?? 32 * 1024)));
    scratch.write(data, 0);
    bytes = scratch;
  }
  for (let at = 0; at < length;) {
    try {
      at += writeSync(fd, bytes, at, length - at);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      pauseThread(1);
    }
  }
}

/**
 * Whether a descriptor is a terminal. Only a character device other than
 * /dev/null can be one: asking fstat first spares a run whose input and
 * output are pipes, files or /dev/null (scripts, CI) loading node:tty, and
 * the node:net it loads, at all.
 */
export function isTerminal(fd: number): boolean {
  try {
    const st = fstatSync(fd);
    // /dev/null (stdin of CI jobs and cron) is a character device too, and no terminal.
    if (!st.isCharacterDevice() || st.rdev === statSync('/dev/null').rdev) return false;
  } catch {
    return false;
  }
  return isatty(fd);
}

let descriptorOut: Terminal | undefined;

/**
 * Where results go by default: process.stdout on a terminal, else
 * descriptor 1 itself. Creating process.stdout for a pipe costs a socket and
 * its stream machinery at every start (and makes the pipe non-blocking); the
 * bytes go out in order either way, and a slow reader holds the writer back
 * as it should. A reader that went away ends the run (endQuietly).
 */
function standardOut(): Terminal {
  if (isTerminal(1)) {
    endQuietlyOnClosedPipe();
    return process.stdout;
  }
  if (!descriptorOut) {
    // Made here, not where the module loads: a run that writes nothing through IO (help) loads no node:stream.
    class DescriptorOut extends Writable {
      readonly isTTY = false;
      readonly fd = 1;

      override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
        try {
          writeToDescriptor(this.fd, chunk);
        } catch (err) {
          endQuietly(err as NodeJS.ErrnoException);
        }
        done();
      }
    }
    descriptorOut = new DescriptorOut({ decodeStrings: false });
  }
  return descriptorOut;
}

export class IO {
  readonly out: Terminal;
  readonly stdinIsTTY: boolean;
  private readonly env: Readonly<Record<string, string | undefined>>;
  private asker?: (q: Question) => Promise<unknown>;
  private errStream?: Terminal;

  constructor(
    private readonly opts: IOOptions = {},
    streams: IOStreams = {},
  ) {
    this.out = streams.out ?? standardOut();
    this.errStream = streams.err;
    this.stdinIsTTY = streams.stdinIsTTY ?? Boolean(process.stdin.isTTY);
    this.env = opts.env ?? process.env;
    this.asker = streams.ask;
    this.input = streams.in;
  }

  private readonly input?: Readable;

  /** Where messages go: process.stderr, made when first written to (most runs say nothing there). */
  get err(): Terminal {
    return (this.errStream ??= process.stderr);
  }

  /** All of standard input (`--input -`), within the request cap. */
  readInput(): Promise<Buffer> {
    return readStreamBounded(this.input ?? process.stdin, { label: '--input', name: 'stdin', maxBytes: READ_LIMITS.request });
  }

  get stdoutIsTTY(): boolean {
    return Boolean(this.out.isTTY);
  }

  get stderrIsTTY(): boolean {
    return Boolean(this.err.isTTY);
  }

  /** Width tables fit: $COLUMNS, else the terminal's, else 100. */
  get columns(): number {
    return Number(this.env.COLUMNS) || this.out.columns || 100;
  }

  /** Width of the terminal stderr writes to (spinner lines must not wrap). */
  get errColumns(): number {
    return this.err.columns || Number(this.env.COLUMNS) || 80;
  }

  /** Colour only on a terminal and never with NO_COLOR, unless forced on. */
  colorOn(stream: 'out' | 'err' = 'out'): boolean {
    if (this.opts.color === 'on') return true;
    if (this.opts.color === 'off' || this.env.NO_COLOR !== undefined) return false;
    if (this.env.FORCE_COLOR && this.env.FORCE_COLOR !== '0') return true;
    return stream === 'out' ? this.stdoutIsTTY : this.stderrIsTTY;
  }

  /** Text in a colour when the stream gets colour, else as it is. */
  paint(stream: 'out' | 'err', code: number, text: string): string {
    return this.colorOn(stream) ? `\u001b[${code}m${text}\u001b[39m` : text;
  }

  /** A person is there to answer: both ends are terminals, and nobody said not to ask. */
  get canPrompt(): boolean {
    if (this.opts.noInput) return false;
    if (this.env.CI && this.env.CI !== 'false' && this.env.CI !== '0') return false;
    return this.stdinIsTTY && this.stdoutIsTTY;
  }

  /** A spinner is for a person watching stderr. */
  get spinnerWanted(): boolean {
    return this.stderrIsTTY;
  }

  /** Paging only for a person at a terminal, and not with --no-pager. */
  get pagerWanted(): boolean {
    return this.opts.pager !== false && this.stdoutIsTTY;
  }

  /**
   * Asks one question on stderr (so stdout only ever carries results) and
   * returns the answer. Rejects when the person cancels (Ctrl-C, Esc).
   * Only call when canPrompt says someone is there.
   */
  async ask(question: Question): Promise<unknown> {
    if (!this.asker) {
      const { default: Enquirer } = await import('enquirer');
      const err = this.err;
      this.asker = async (q) => {
        const answers = (await Enquirer.prompt({ ...q, name: 'v', stdin: process.stdin, stdout: err } as never)) as { v: unknown };
        return answers.v;
      };
    }
    const message = question.message;
    return this.asker(typeof message === 'string' ? { ...question, message: visible(message) } : question);
  }

  /** Writes a result to stdout (control characters escaped on a terminal) and waits for the stream to drain. */
  async write(text: string): Promise<void> {
    await this.writeStyled(this.stdoutIsTTY ? visible(text) : text);
  }

  /** Writes text with cdpctl's own styling as it is; its data must already be visible (visibleValue). */
  async writeStyled(text: string): Promise<void> {
    if (!this.out.write(text)) await new Promise<void>((r) => this.out.once('drain', () => r()));
  }

  warn(message: string): void {
    this.err.write(`${this.paint('err', STYLE.yellow, 'warning')}: ${visible(message)}\n`);
  }

  info(message: string): void {
    this.err.write(`${visible(message)}\n`);
  }

  /** One --debug line on stderr. */
  debug(line: string): void {
    this.err.write(`debug: ${visible(line)}\n`);
  }

  /** Terminal height (rows) of stdout; 40 when unknown. */
  get rows(): number {
    return this.out.rows ?? (Number(this.env.LINES) || 40);
  }

  /**
   * The pager command: $CDPCTL_PAGER, then $PAGER, then `less` if it is
   * installed. Undefined when there is none, or it is set to "" or "cat".
   */
  pagerCommand(): string | undefined {
    const given = this.env.CDPCTL_PAGER ?? this.env.PAGER;
    if (given === undefined) return onPath('less', this.env.PATH) ? 'less' : undefined;
    const cmd = given.trim();
    if (cmd === '' || cmd === 'cat') return undefined;
    // A plain command name that is not installed is no pager (a shell line is left to the shell).
    return /^[\w.+-]+(\s|$)/.test(cmd) && !onPath(cmd.split(/\s/)[0] ?? '', this.env.PATH) ? undefined : given;
  }

  /** Shows styled text through the pager when it is taller than the screen (see pagedWriter). */
  async page(text: string): Promise<void> {
    const w = this.pagedWriter();
    await w.write(text);
    await w.end();
  }

  /**
   * Output that may be long, written in chunks: held back until it is taller
   * than the screen, then sent through the pager (when stdout is a terminal
   * and paging is wanted), else written as it comes. `less` gets LESS=FRX
   * (quit if one screen, keep colours, leave the text on screen) unless the
   * user set LESS. A pager that cannot start falls back to writing. The text
   * is written as it is (writeStyled): its data must already be visible.
   */
  pagedWriter(): PagedWriter {
    const pager = this.pagerWanted ? this.pagerCommand() : undefined;
    if (!pager) return { write: (t) => this.writeStyled(t), end: async () => undefined };
    let held: string[] = [];
    let lines = 0;
    let sink: PagedWriter | undefined;
    const limit = this.rows;
    return {
      write: async (text) => {
        if (sink) return sink.write(text);
        held.push(text);
        for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
        if (lines < limit) return;
        sink = await this.startPager(pager);
        const first = held.join('');
        held = [];
        await sink.write(first);
      },
      end: async () => {
        if (sink) return sink.end();
        await this.writeStyled(held.join(''));
      },
    };
  }

  /** A running pager as a writer; if it cannot start, stdout. */
  private async startPager(pager: string): Promise<PagedWriter> {
    const { spawn } = await import('node:child_process');
    const env: Record<string, string | undefined> = { ...this.env, LESS: this.env.LESS ?? 'FRX', LV: this.env.LV ?? '-c' };
    const child = spawn(pager, { shell: true, env: env as NodeJS.ProcessEnv, stdio: ['pipe', this.pagerStdout(), 'inherit'] });
    const stdin = child.stdin;
    if (!stdin) return { write: (t) => this.writeStyled(t), end: async () => undefined };
    let failed = false;
    let quit = false;
    const closed = new Promise<void>((resolve) => {
      child.on('error', () => {
        failed = true;
        resolve();
      });
      // 127/126: the shell could not find or run the pager; nothing was shown.
      child.on('close', (code) => {
        if (code === 127 || code === 126) failed = true;
        quit = true;
        resolve();
      });
    });
    stdin.on('error', () => undefined);
    // What went to a pager that then turns out not to run is written out
    // instead. A pipe holds 64 KB, so a pager that never ran took little more;
    // past 1 MB it certainly runs and nothing more is kept.
    let sent: string[] | undefined = [];
    let kept = 0;
    const direct = (): Promise<void> => this.writeStyled((sent ?? []).join(''));
    return {
      write: async (text) => {
        if (failed) return this.writeStyled(text);
        if (quit) return; // The person quit the pager: the rest is not wanted.
        if (sent) {
          sent.push(text);
          kept += text.length;
          if (kept > 1 << 20) sent = undefined;
        }
        if (!stdin.write(text)) await Promise.race([new Promise<void>((r) => stdin.once('drain', () => r())), closed]);
      },
      end: async () => {
        stdin.end();
        await closed;
        if (failed) await direct();
      },
    };
  }

  /** The pager writes straight to our stdout's descriptor when it has one. */
  private pagerStdout(): 'inherit' | number {
    const fd = (this.out as { fd?: unknown }).fd;
    return this.out === process.stdout ? 'inherit' : typeof fd === 'number' ? fd : 'inherit';
  }
}

let pipesWatched = false;

/**
 * A reader that goes away before the output ends (`| head -1`) is the
 * reader's choice, not a failure: stdout's EPIPE ends the run at once with
 * exit 0 and nothing more said, in every output format. Without a listener
 * node would throw it as an unhandled 'error' event with a stack trace.
 * stderr going away (`2>&1 | head`) only silences it. Installed once.
 */
function endQuietlyOnClosedPipe(): void {
  if (pipesWatched) return;
  pipesWatched = true;
  process.stdout.on('error', endQuietly);
  process.stderr.on('error', () => undefined);
}

/** The end of a run whose output cannot be written: quiet (exit 0) when the reader went away, else said. */
function endQuietly(err: NodeJS.ErrnoException): never {
  if (err.code === 'EPIPE') process.exit(0);
  process.stderr.on('error', () => undefined);
  process.stderr.write(`cdpctl: cannot write the output: ${err.code ?? err.message}\n`);
  process.exit(1);
}

/** The --color value on a command line (`--color off`, `--color=off`), for errors reported before flags are parsed. */
export function colorModeOf(argv: readonly string[]): ColorMode | undefined {
  let mode: ColorMode | undefined;
  argv.forEach((a, i) => {
    const v = a === '--color' ? argv[i + 1] : a.startsWith('--color=') ? a.slice('--color='.length) : undefined;
    if (v !== undefined && (COLOR_MODES as readonly string[]).includes(v)) mode = v as ColorMode;
  });
  return mode;
}

/**
 * The IO of a command line before any run context exists (oclif's parse
 * errors, a mistyped command): colour as its --color says, else only on a
 * terminal and never with NO_COLOR; no questions with --no-input.
 */
export function ioForArgv(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): IO {
  return new IO({ color: colorModeOf(argv), noInput: argv.includes('--no-input'), env });
}

/** Whether a command name is an executable on PATH. */
function onPath(name: string, path = ''): boolean {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      // keep looking
    }
  }
  return false;
}
