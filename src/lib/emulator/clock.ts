/**
 * The emulator's clock. Long operations are timelines in emulated time;
 * --time-scale X makes it run X times faster, so a 10-minute data lake
 * creation takes 600 ms at 1000. Emulated time never runs backwards across
 * restarts: it resumes from the last time stored.
 */
export class Clock {
  private readonly wallStart = Date.now();
  private readonly base: number;

  constructor(
    readonly scale: number = 1,
    resumeFrom = 0,
  ) {
    this.base = Math.max(Date.now(), resumeFrom);
  }

  now(): number {
    return this.base + (Date.now() - this.wallStart) * this.scale;
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

/** One step of a timeline: after `afterMs` of emulated time, the state becomes `state`. */
export interface Step {
  readonly afterMs: number;
  readonly state: string;
}

export interface Timeline {
  readonly startedAt: number;
  readonly steps: readonly Step[];
}

/** The state a timeline has reached, and whether it has finished. */
export function stateAt(tl: Timeline, now: number): { state: string; index: number; done: boolean } {
  let index = 0;
  for (let i = 0; i < tl.steps.length; i++) {
    const step = tl.steps[i];
    if (step && now - tl.startedAt >= step.afterMs) index = i;
  }
  return { state: tl.steps[index]?.state ?? '', index, done: index === tl.steps.length - 1 };
}

/** Builds a timeline from [state, minutes] pairs: each state lasts its minutes. */
export function timeline(startedAt: number, phases: ReadonlyArray<readonly [string, number]>): Timeline {
  let t = 0;
  const steps: Step[] = [];
  for (const [state, minutes] of phases) {
    steps.push({ afterMs: t, state });
    t += minutes * 60_000;
  }
  return { startedAt, steps };
}
