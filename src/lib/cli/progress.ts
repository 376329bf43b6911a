/**
 * Progress on stderr. On a terminal: a spinner whose line is redrawn in
 * place, its clock ticking every second, replaced at the end by one line that
 * says how it ended. Elsewhere (a file, a pipe, CI logs): one line per change,
 * never a control character.
 */
import { systemClock, type Clock } from '../core/clock.js';
import { clock, duration } from '../core/duration.js';
import { oneLine } from '../core/visible.js';
import { STYLE, type IO } from './io.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TICK_MS = 100;

/** A spinner line on a terminal: `⠋ text (12s)`. */
class Spinner {
  private stopTicking?: () => void;
  private frame = 0;
  private drawn = false;
  private stopped = false;
  private startedAt: number;

  constructor(
    private readonly io: IO,
    private text: string,
    private readonly time: Clock,
  ) {
    this.startedAt = time.now();
  }

  start(): void {
    this.draw();
    // The clock's ticks never keep the process alive.
    this.stopTicking = this.time.every(TICK_MS, () => this.draw());
  }

  /** Counts elapsed time from this many milliseconds ago. */
  since(elapsedMs: number): void {
    this.startedAt = this.time.now() - elapsedMs;
  }

  update(text: string): void {
    this.text = text;
    this.draw();
  }

  /** Removes the spinner line and writes the closing line, if any. Nothing is drawn after this. */
  stop(closing?: string): void {
    if (this.stopped) return;
    this.stopped = true;
    this.stopTicking?.();
    if (this.drawn) this.io.err.write('\r\u001b[2K');
    if (closing !== undefined) this.io.err.write(`${closing}\n`);
  }

  private draw(): void {
    if (this.stopped) return;
    const frame = this.io.paint('err', STYLE.magenta, FRAMES[this.frame++ % FRAMES.length] ?? '');
    // The text may hold a state the server named: one line, its control characters escaped.
    const line = `${oneLine(this.text)} (${clock(this.time.now() - this.startedAt)})`;
    // One terminal line, never wrapped: a wrapped line could not be redrawn in place.
    const room = Math.max(10, this.io.errColumns - 3);
    const fitted = [...line].length > room ? `${[...line].slice(0, room - 1).join('')}…` : line;
    this.io.err.write(`\r\u001b[2K${frame} ${fitted}`);
    this.drawn = true;
  }
}

/** How a wait ended, for its closing line. */
export type WaitEnd =
  | { readonly kind: 'done'; readonly state: string }
  | { readonly kind: 'failed'; readonly state?: string }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'interrupted' };

/** Progress of a --wait: the state and a ticking clock, then how it ended. */
export class WaitProgress {
  private spinner?: Spinner;
  private state = '';
  private elapsedMs = 0;

  constructor(
    private readonly io: IO,
    private label: string,
    private readonly time: Clock = systemClock,
  ) {}

  /** Calls the work by a better name from now on (the poll named it). */
  rename(label: string): void {
    this.label = label;
  }

  /** A new state after `elapsedMs` of waiting. */
  update(state: string, elapsedMs: number): void {
    this.state = state;
    this.elapsedMs = elapsedMs;
    if (!this.io.spinnerWanted) {
      this.io.info(`${this.label}: ${oneLine(state)} after ${duration(elapsedMs)}`);
      return;
    }
    const text = `Waiting for ${this.label}: ${state}`;
    if (!this.spinner) {
      this.spinner = new Spinner(this.io, text, this.time);
      this.spinner.since(elapsedMs);
      this.spinner.start();
    } else {
      this.spinner.since(elapsedMs);
      this.spinner.update(text);
    }
  }

  /** Ends the spinner with one line saying how the wait ended; called before anything else is printed. */
  end(how: WaitEnd, elapsedMs = this.elapsedMs): void {
    if (!this.spinner) return;
    const took = duration(elapsedMs);
    const ok = (text: string): string => `${this.io.paint('err', STYLE.green, '✓')} ${text}`;
    const bad = (text: string): string => `${this.io.paint('err', STYLE.red, '✗')} ${text}`;
    const state = oneLine(this.state);
    const at = state ? ` at ${state}` : '';
    let line: string;
    switch (how.kind) {
      case 'done':
        line = ok(`${this.label}: ${oneLine(how.state)} after ${took}`);
        break;
      case 'failed':
        line = bad(`${this.label}: failed${how.state ? ` (${oneLine(how.state)})` : ''} after ${took}`);
        break;
      case 'timeout':
        line = bad(`${this.label}: gave up waiting${at} after ${took}`);
        break;
      case 'interrupted':
        line = bad(`${this.label}: stopped waiting${at} after ${took}`);
        break;
    }
    this.spinner.stop(line);
  }
}

/**
 * A spinner with a message while something is awaited, on a terminal;
 * elsewhere the message is written once. The returned function stops it
 * with a closing word ("done", "cancelled"), once.
 */
export function startSpinner(io: IO, message: string, time: Clock = systemClock): (result: string) => void {
  if (!io.spinnerWanted) {
    io.info(`${message}…`);
    return () => undefined;
  }
  const spinner = new Spinner(io, message, time);
  spinner.start();
  return (result) => spinner.stop(oneLine(`${message}... ${result}`));
}
