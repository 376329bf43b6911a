/**
 * The one place that decides TTY, colour, terminal width, pager, prompts and
 * progress. Commands never touch process.stdout directly.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
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
  readonly out: Writable & { isTTY?: boolean; columns?: number; rows?: number };
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

  /** Width tables fit: $COLUMNS, else the terminal's, else 100. */
  get columns(): number {
    return Number(this.env.COLUMNS) || this.out.columns || 100;
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

  /** Paging only for a person at a terminal, and not with --no-pager. */
  get pagerWanted(): boolean {
    return this.opts.pager !== false && this.stdoutIsTTY;
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
    if (given !== undefined) return given.trim() === '' || given.trim() === 'cat' ? undefined : given;
    return onPath('less', this.env.PATH) ? 'less' : undefined;
  }

  /**
   * Shows text through the pager when stdout is a terminal, paging is wanted
   * and the text is taller than the screen; otherwise writes it. `less` gets
   * LESS=FRX (quit if one screen, keep colours, leave the text on screen)
   * unless the user set LESS. A pager that cannot start falls back to writing.
   */
  async page(text: string): Promise<void> {
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    const pager = this.pagerWanted && lines >= this.rows ? this.pagerCommand() : undefined;
    if (!pager) return this.write(text);
    const { spawn } = await import('node:child_process');
    const env: Record<string, string | undefined> = { ...this.env, LESS: this.env.LESS ?? 'FRX', LV: this.env.LV ?? '-c' };
    const ok = await new Promise<boolean>((resolve) => {
      const child = spawn(pager, { shell: true, env: env as NodeJS.ProcessEnv, stdio: ['pipe', this.pagerStdout(), 'inherit'] });
      child.on('error', () => resolve(false));
      child.stdin?.on('error', () => undefined);
      // 127/126: the shell could not find or run the pager; nothing was shown.
      child.on('close', (code) => resolve(code !== 127 && code !== 126));
      child.stdin?.end(text);
    });
    if (!ok) await this.write(text);
  }

  /** The pager writes straight to our stdout's descriptor when it has one. */
  private pagerStdout(): 'inherit' | number {
    const fd = (this.out as { fd?: unknown }).fd;
    return this.out === process.stdout ? 'inherit' : typeof fd === 'number' ? fd : 'inherit';
  }
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
