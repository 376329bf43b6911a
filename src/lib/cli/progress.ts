/**
 * Progress of a --wait on stderr: a spinner with state and elapsed time on a
 * terminal (oclif's ux.action), one line per state change otherwise.
 */
import type { IO } from './io.js';

const secs = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;

export class Progress {
  private spinner?: { start: (a: string, s?: string) => void; set status(s: string); stop: (m?: string) => void };
  private started = false;

  constructor(
    private readonly io: IO,
    private readonly label: string,
  ) {}

  private async ensureSpinner(): Promise<void> {
    if (this.spinner || !this.io.stderrIsTTY) return;
    const { ux } = await import('@oclif/core');
    this.spinner = ux.action as unknown as Progress['spinner'];
  }

  update(state: string, elapsedMs: number): void {
    if (this.io.stderrIsTTY) {
      void this.ensureSpinner().then(() => {
        if (!this.spinner) return;
        if (!this.started) {
          this.spinner.start(`Waiting for ${this.label}`, `${state} (${secs(elapsedMs)})`);
          this.started = true;
        } else this.spinner.status = `${state} (${secs(elapsedMs)})`;
      });
      return;
    }
    this.io.err.write(`${this.label}: ${state} after ${secs(elapsedMs)}\n`);
  }

  done(state: string, elapsedMs: number): void {
    if (this.spinner && this.started) this.spinner.stop(`${state} after ${secs(elapsedMs)}`);
  }

  fail(): void {
    if (this.spinner && this.started) this.spinner.stop('stopped');
  }
}

/**
 * A spinner with a message on stderr while something is awaited (oclif's
 * ux.action) on a terminal; elsewhere the message is written once. The
 * returned function stops it with a closing word ("done", "cancelled").
 */
export async function startSpinner(io: IO, message: string): Promise<(result: string) => void> {
  if (!io.stderrIsTTY) {
    io.info(`${message}…`);
    return () => undefined;
  }
  const { ux } = await import('@oclif/core');
  ux.action.start(message);
  let stopped = false;
  return (result) => {
    if (stopped) return;
    stopped = true;
    ux.action.stop(result);
  };
}
