/**
 * The options of the library's calls that are not a request: how to page,
 * how to wait. Kept apart from client.ts so that the generated service
 * types (./services/) can name them without importing the client.
 */

/** How a paginator walks the pages (the CLI's --max-items, --page-size, --starting-token). */
export interface PaginateOptions {
  /** Stop after this many items. */
  readonly maxItems?: number;
  /** Items asked for per page; default the operation's own default, as `cdp` asks. */
  readonly pageSize?: number;
  /** Resume where an earlier listing's `nextToken` left off. */
  readonly startingToken?: string;
}

/** How a waiter waits (the CLI's --wait-timeout, --poll-interval). */
export interface WaitOptions<Response = Record<string, unknown>> {
  /** Give up after this many seconds (WaitTimeoutError); default the operation's own, else an hour. */
  readonly timeoutSeconds?: number;
  /** Poll at this fixed interval; default: quickly at first, backing off to the operation's interval. */
  readonly intervalSeconds?: number;
  /** Told each new state as it is seen, with the time waited so far. */
  readonly onState?: (state: string, elapsedMs: number) => void;
  /** Stops waiting (InterruptedError); the work goes on. */
  readonly signal?: AbortSignal;
  /** The answer of a call already made: wait on it instead of sending the request again. */
  readonly response?: Response;
}

/** How a wait ended. */
export interface WaitResult {
  /** What the CLI prints after `--wait`: the resource in its final state (the poll's answer, or the part of it the waiter picks). */
  readonly final: Record<string, unknown>;
  /** The state it ended in (`AVAILABLE`, `DELETED`...). */
  readonly state: string;
  /** The first call's answer. */
  readonly response: Record<string, unknown>;
  readonly polls: number;
  readonly elapsedMs: number;
}
