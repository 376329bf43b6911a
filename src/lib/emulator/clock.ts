/**
 * The emulator's clock. Long-running work is laid out in emulated time and
 * read off this clock (lifecycle.ts), so nothing runs in the background.
 *
 * The clock runs `scale` times faster than the wall clock (--time-scale), and
 * can be driven: paused (emulated time stands still, so every resource stays
 * in the state it is in), advanced by any amount (paused or not), and
 * resumed. Emulated time never runs backwards, across restarts included: the
 * server stores the time it has reached, and whether the clock is paused,
 * with every change (see ClockState and Emulator).
 */

/** What the store keeps of a clock: the time reached and whether it stands still. */
export interface ClockState {
  readonly now: number;
  readonly paused: boolean;
}

export class Clock {
  /** Emulated time at `anchorWall` (or the frozen time while paused). */
  private anchorEmu: number;
  private anchorWall: number;
  private stopped: boolean;

  constructor(
    readonly scale: number = 1,
    resume: Partial<ClockState> = {},
    private readonly wall: () => number = Date.now,
  ) {
    this.anchorWall = wall();
    this.stopped = resume.paused === true;
    // A running clock never starts behind the wall clock; a paused one resumes exactly where it stood.
    this.anchorEmu = this.stopped && resume.now !== undefined ? resume.now : Math.max(this.anchorWall, resume.now ?? 0);
  }

  now(): number {
    return this.stopped ? this.anchorEmu : this.anchorEmu + (this.wall() - this.anchorWall) * this.scale;
  }

  get paused(): boolean {
    return this.stopped;
  }

  /** Stops emulated time where it is. */
  pause(): void {
    if (this.stopped) return;
    this.anchorEmu = this.now();
    this.stopped = true;
  }

  /** Lets emulated time run again from where it stood. */
  resume(): void {
    if (!this.stopped) return;
    this.anchorWall = this.wall();
    this.stopped = false;
  }

  /** Moves emulated time forward by `ms` (paused or running). */
  advance(ms: number): void {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`the clock moves forward only; got ${ms} ms`);
    this.anchorEmu += ms;
  }

  /** Puts the clock at a time (an imported state's), running or paused as given; it may go back. */
  set(state: ClockState): void {
    this.anchorEmu = state.now;
    this.anchorWall = this.wall();
    this.stopped = state.paused;
  }

  state(): ClockState {
    return { now: this.now(), paused: this.stopped };
  }

  iso(at: number = this.now()): string {
    return new Date(at).toISOString();
  }

  /**
   * This clock stopped at one instant. A request sees a single "now": at
   * high time scales a millisecond of work is seconds of emulated time, and
   * records made in one request must not drift apart.
   */
  frozen(): Clock {
    const at = this.now();
    const view = Object.create(this) as Clock;
    view.now = () => at;
    return view;
  }
}

/** `15m`, `2h30m`, `90s`, `1d`, `500ms` -> milliseconds; undefined when it is not a duration. */
export function parseDuration(text: string): number | undefined {
  const units: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const t = text.trim().toLowerCase();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d))+$/.test(t)) return undefined;
  let total = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)) total += Number(m[1]) * (units[m[2] ?? ''] ?? 0);
  return Math.round(total);
}

/** A duration for people: `1d 2h 3m 4s` (whole seconds; `0s` for less). */
export function formatDuration(ms: number): string {
  const parts: string[] = [];
  let s = Math.floor(Math.abs(ms) / 1000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
  ] as const) {
    if (s >= size) {
      parts.push(`${Math.floor(s / size)}${unit}`);
      s %= size;
    }
  }
  if (s > 0 || parts.length === 0) parts.push(`${s}s`);
  return `${ms < 0 ? '-' : ''}${parts.join(' ')}`;
}
