/**
 * Faults injected on purpose (`emulator start --faults`, the admin API), and
 * the count of each mutating request's arrivals they need: tests show with it
 * that a mutating request is never delivered again after an arrival that was
 * not answered with a retryable status (docs/reliability.md).
 */
import { createHash } from 'node:crypto';

export interface FaultSettings {
  /** Fraction (0..1) of API requests answered with a fault instead. */
  readonly rate: number;
  /** Extra milliseconds before every answer. */
  readonly latencyMs: number;
  /**
   * Which faults to draw from: 503, 429 (answered with Retry-After: 0), reset
   * (the request is read in full, then the connection is dropped without an
   * answer and without processing it: what a client sees when a server dies
   * mid-request). See docs/reliability.md.
   */
  readonly kinds: ReadonlyArray<'503' | '429' | 'reset'>;
}

export const NO_FAULTS: FaultSettings = { rate: 0, latencyMs: 0, kinds: [] };

/** The fault this request gets, drawn at the settings' rate; undefined for none. */
export function drawFault(f: FaultSettings): FaultSettings['kinds'][number] | undefined {
  if (f.rate <= 0 || f.kinds.length === 0 || Math.random() >= f.rate) return undefined;
  return f.kinds[Math.floor(Math.random() * f.kinds.length)];
}

/** Arrivals of one mutating request (path + exact body). */
export interface Delivery {
  readonly path: string;
  readonly sha256: string;
  /** Times it arrived in full. */
  received: number;
  /** Answered with an injected 503 or 429 (a client may send it again). */
  retryable: number;
  /** Dropped by an injected reset, unprocessed (a client must not send it again). */
  reset: number;
  /** Handed to validation and the handler. */
  processed: number;
}

/** How often each mutating JSON request arrived and how each arrival ended (GET /_emulator/deliveries). Bounded: the oldest are dropped. */
export class Deliveries {
  private readonly byContent = new Map<string, Delivery>();

  /** The entry of a request, by its path and exact body. */
  of(path: string, body: Buffer): Delivery {
    const key = createHash('sha256').update(path).update('\n').update(body).digest('hex');
    let d = this.byContent.get(key);
    if (!d) {
      if (this.byContent.size >= 10_000) this.byContent.delete(this.byContent.keys().next().value ?? '');
      d = { path, sha256: key, received: 0, retryable: 0, reset: 0, processed: 0 };
      this.byContent.set(key, d);
    }
    return d;
  }

  all(): Delivery[] {
    return [...this.byContent.values()];
  }
}
