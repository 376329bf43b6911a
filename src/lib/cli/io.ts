/**
 * The one place that decides TTY, colour, terminal width, pager, prompts and
 * progress. Commands never touch process.stdout directly.
 */
import type { Writable } from 'node:stream';

export type ColorMode = 'on' | 'off' | 'auto';

export interface IOOptions {
  readonly color?: ColorMode;
  readonly pager?: boolean;
  /** --no-input: never ask. */
  readonly noInput?: boolean;
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export class IO {
  readonly out: Writable & { isTTY?: boolean; columns?: number };
  readonly err: Writable & { isTTY?: boolean };
  readonly stdinIsTTY: boolean;
  private readonly env: Readonly<Record<string, string | undefined>>;

  constructor(
    private readonly opts: IOOptions = {},
    streams: { out?: IO['out']; err?: IO['err']; stdinIsTTY?: boolean } = {},
  ) {
    this.out = streams.out ?? process.stdout;
    this.err = streams.err ?? process.stderr;
    this.stdinIsTTY = streams.stdinIsTTY ?? Boolean(process.stdin.isTTY);
    this.env = opts.env ?? process.env;
  }

  get stdoutIsTTY(): boolean {
    return Boolean(this.out.isTTY);
  }

  get stderrIsTTY(): boolean {
    return Boolean(this.err.isTTY);
  }

  get columns(): number {
    return this.out.columns ?? (Number(this.env.COLUMNS) || 100);
  }

  /** Colour only on a terminal and never with NO_COLOR, unless forced on. */
  colorOn(stream: 'out' | 'err' = 'out'): boolean {
    if (this.opts.color === 'on') return true;
    if (this.opts.color === 'off' || this.env.NO_COLOR !== undefined) return false;
    if (this.env.FORCE_COLOR && this.env.FORCE_COLOR !== '0') return true;
    return stream === 'out' ? this.stdoutIsTTY : this.stderrIsTTY;
  }

  /** A person is there to answer: both ends are terminals, and nobody said not to ask. */
  get canPrompt(): boolean {
    if (this.opts.noInput) return false;
    if (this.env.CI && this.env.CI !== 'false' && this.env.CI !== '0') return false;
    return this.stdinIsTTY && this.stdoutIsTTY;
  }

  get pagerWanted(): boolean {
    return this.opts.pager !== false && this.stdoutIsTTY && this.env.CDPCTL_PAGER !== '';
  }

  /** Writes to stdout and waits for the stream to drain (back-pressure for big listings). */
  async write(text: string): Promise<void> {
    if (!this.out.write(text)) await new Promise<void>((r) => this.out.once('drain', () => r()));
  }

  warn(message: string): void {
    this.err.write(`${this.colorOn('err') ? '\u001b[33mwarning\u001b[39m' : 'warning'}: ${message}\n`);
  }

  info(message: string): void {
    this.err.write(`${message}\n`);
  }

  /** Shows text through $PAGER (default `less -FRX`) when it is taller than the screen. */
  async page(text: string): Promise<void> {
    const rows = (process.stdout.rows ?? 40) - 1;
    if (!this.pagerWanted || text.split('\n').length <= rows) return this.write(text);
    const pager = this.env.CDPCTL_PAGER ?? this.env.PAGER ?? 'less -FRX';
    const { spawn } = await import('node:child_process');
    await new Promise<void>((resolve) => {
      const child = spawn(pager, { shell: true, stdio: ['pipe', 'inherit', 'inherit'] });
      child.on('error', () => {
        this.out.write(text);
        resolve();
      });
      child.stdin.on('error', () => undefined);
      child.on('close', () => resolve());
      child.stdin.end(text);
    });
  }
}
