/**
 * Time as the client lives it: the moment (signatures are dated, waits are
 * measured), pauses between polls, and a steady tick for a spinner's clock.
 * One object so that tests can replace all three with a clock they drive.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Calls `tick` every `ms` until the returned function is called; never keeps the process alive. */
  every(ms: number, tick: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      // One listener per sleep, removed when the sleep ends: long waits must not pile them up.
      const onAbort = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
  every(ms, tick) {
    const timer = setInterval(tick, ms);
    timer.unref?.();
    return () => clearInterval(timer);
  },
};
