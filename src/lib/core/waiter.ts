/**
 * Polls a long-running operation until its waiter (model data) says it is
 * done (DESIGN "Waiting"). Transient errors are survived; the interval backs
 * off unless the user fixed it, and shrinks by the time scale a local
 * emulator answers with (client.pace), so that a wait notices a state within
 * one emulated interval, and never waits more than a second between polls
 * of an emulator, whose clock may jump.
 */
import { loadService, type Operation } from '../model/index.js';
import type { OperationClient, Doc } from './client.js';
import { systemClock, type Clock } from './clock.js';
import { duration } from './duration.js';
import { CdpError, cdpError } from './errors.js';

export interface WaitOptions {
  readonly timeoutSec?: number;
  /** A fixed interval chosen by the user. */
  readonly intervalSec?: number;
  readonly onState?: (state: string, elapsedMs: number) => void;
  /** The waiter's `label` as the first poll that has it reads it: called once, before that poll's onState. */
  readonly onName?: (name: string) => void;
  readonly signal?: AbortSignal;
  /** Measures the wait and paces the polls; default the system's. */
  readonly clock?: Pick<Clock, 'now' | 'sleep'>;
}

export interface WaitOutcome {
  readonly final: Doc;
  readonly polls: number;
  readonly state: string;
  readonly elapsedMs: number;
  /** The shape of `final` when it is a whole poll response (the poll operation's output). */
  readonly shape?: string;
}

type Search = (expr: string, data: unknown) => unknown;

async function jmes(): Promise<Search> {
  const { search } = await import('@jmespath-community/jmespath');
  return (expr, data) => search(data as Parameters<typeof search>[0], expr);
}

/** Names a waiter expression may use for the first call (see WaiterSpec). */
const FIRST_CALL = /\$(?:request|response)\b/;

/**
 * Evaluates a waiter's `state`, `reason` or `result` over a poll response.
 * An expression that names `$request` or `$response` sees the first call's
 * request and response under those names (a JMESPath `let` over them);
 * others see the poll response alone, as they always have.
 */
function overPoll(search: Search, request: Doc, response: Doc): Search {
  return (expr, poll) =>
    FIRST_CALL.test(expr)
      ? search(`let $request = request, $response = response in poll | (${expr})`, { poll, request, response })
      : search(expr, poll);
}

/** The operation a waiter polls: of the operation's own service, or of the one it names. */
export async function pollOperation(op: Operation): Promise<Operation> {
  const waiter = op.cli.wait;
  if (!waiter) throw new Error(`${op.name} has no waiter`);
  if (!waiter.service || waiter.service === op.service.name) return op.service.operation(waiter.poll);
  return (await loadService(waiter.service)).operation(waiter.poll);
}

/** The poll operation's request, built from the first call. */
export async function pollRequest(op: Operation, request: Doc, response: Doc): Promise<Doc> {
  const waiter = op.cli.wait;
  if (!waiter) throw new Error(`${op.name} has no waiter`);
  const search = await jmes();
  const out: Doc = {};
  for (const [field, expr] of Object.entries(waiter.input)) {
    const v = search(expr, { request, response });
    if (v !== null && v !== undefined) out[field] = v;
  }
  return out;
}

/** Why a waited-for operation failed, from a JMESPath over a response: one reason, or one per item. */
function reasonsOf(search: Search, expr: string | undefined, res: Doc): string[] {
  const reason = expr ? search(expr, res) : undefined;
  return (Array.isArray(reason) ? reason : [reason]).filter((r) => r !== null && r !== undefined && r !== '').map(String);
}

function failure(op: Operation, state: string, reasons: readonly string[]): CdpError {
  return cdpError({
    kind: 'waitFailed',
    code: 'OPERATION_FAILED',
    message: `${op.name} ended in ${state}${reasons.length === 1 ? `: ${reasons[0]}` : ''}`,
    service: op.service.name,
    operation: op.name,
    details: reasons.length > 1 ? reasons : [],
  });
}

/**
 * The failure the first call's answer already reports (the waiter's `first`
 * state in its failure list), or undefined when there is work to wait for.
 */
export async function firstFailure(op: Operation, response: Doc): Promise<CdpError | undefined> {
  const first = op.cli.wait?.first;
  if (!first) return undefined;
  const search = await jmes();
  const state = search(first.state, response);
  if (typeof state !== 'string' || !op.cli.wait?.failure?.includes(state)) return undefined;
  return failure(op, state, reasonsOf(search, first.reason, response));
}

function summarize(state: unknown): string {
  if (Array.isArray(state)) {
    const counts = new Map<string, number>();
    for (const s of state) counts.set(String(s), (counts.get(String(s)) ?? 0) + 1);
    return [...counts].map(([s, n]) => (state.length > 1 ? `${s} x${n}` : s)).join(', ') || 'PENDING';
  }
  return state === null || state === undefined ? 'PENDING' : String(state);
}

/** The shortest pause between polls of a fast emulator. */
const MIN_PACED_MS = 50;
/**
 * The longest pause between polls of a local emulator: asking it costs
 * next to nothing, and its clock can be moved on at any moment (`emulator
 * clock advance`), so a wait notices what describe already shows within a second.
 */
const MAX_EMULATED_MS = 1000;

export async function waitFor(
  client: OperationClient,
  op: Operation,
  request: Doc,
  response: Doc,
  opts: WaitOptions = {},
): Promise<WaitOutcome> {
  const waiter = op.cli.wait;
  if (!waiter) throw new Error(`${op.name} has no waiter`);
  const pollOp = await pollOperation(op);
  const req = await pollRequest(op, request, response);
  const search = overPoll(await jmes(), request, response);
  const clock = opts.clock ?? systemClock;
  const now = (): number => clock.now();
  const start = now();
  const timeoutMs = (opts.timeoutSec ?? waiter.timeout ?? 3600) * 1000;
  // Without a user-fixed interval, the first checks come quickly (short work
  // ends early) and back off to the model's interval, then slowly beyond it.
  const modelInterval = (waiter.interval ?? 5) * 1000;
  let interval = opts.intervalSec !== undefined ? opts.intervalSec * 1000 : Math.min(1000, modelInterval);
  let polls = 0;
  let last = '';
  let named = false;
  for (;;) {
    if (opts.signal?.aborted) throw cdpError({ kind: 'interrupted', code: 'INTERRUPTED', message: 'stopped waiting' });
    let res: Doc | undefined;
    polls++;
    try {
      res = await client.call(pollOp, req);
    } catch (err) {
      if (err instanceof CdpError && waiter.goneIsSuccess && (err.code === 'NOT_FOUND' || err.status === 404)) {
        // Gone is the waiter's success state, in its words (DELETED, TERMINATED, ...).
        const gone = waiter.success[0] ?? 'DELETED';
        opts.onState?.(gone, now() - start);
        return { final: {}, polls, state: gone, elapsedMs: now() - start };
      }
      // Keep waiting through network trouble, throttling and server trouble; anything else
      // (a 501: the poll is not implemented there) is final.
      const transient =
        err instanceof CdpError && (err.kind === 'network' || err.status === 429 || ((err.status ?? 0) >= 500 && err.status !== 501));
      if (!transient) throw err;
    }
    if (res) {
      if (waiter.label && !named) {
        const name = search(waiter.label, res);
        if (typeof name === 'string' && name !== '') {
          named = true;
          opts.onName?.(name);
        }
      }
      const state = search(waiter.state, res);
      const shown = summarize(state);
      if (shown !== last) {
        last = shown;
        opts.onState?.(shown, now() - start);
      }
      const states = Array.isArray(state) ? state.map(String) : state === null || state === undefined ? [] : [String(state)];
      const failed = states.filter((s) => waiter.failure?.includes(s));
      if (failed.length > 0) throw failure(op, failed[0] ?? 'FAILED', reasonsOf(search, waiter.reason, res));
      const done = states.length > 0 && states.every((s) => waiter.success.includes(s));
      if (done) {
        const picked = waiter.result ? (search(waiter.result, res) as Doc | null) : null;
        const final = picked ?? res;
        return { final, polls, state: shown, elapsedMs: now() - start, ...(picked ? {} : { shape: pollOp.output }) };
      }
    }
    const elapsed = now() - start;
    if (elapsed >= timeoutMs) {
      throw cdpError({
        kind: 'waitTimeout',
        code: 'WAIT_TIMEOUT',
        message: `gave up waiting after ${duration(elapsed)}; last state ${last || 'unknown'}. The operation goes on.`,
        service: op.service.name,
        operation: op.name,
      });
    }
    // Against the local emulator, intervals are in its time: a clock running 60 times faster is polled 60 times as often.
    const chosen = opts.intervalSec !== undefined;
    const pace = chosen ? 1 : client.pace;
    const longest = !chosen && client.emulated ? MAX_EMULATED_MS : Infinity;
    await clock.sleep(Math.min(Math.max(MIN_PACED_MS, interval / pace), longest, timeoutMs - elapsed), opts.signal);
    if (opts.intervalSec === undefined)
      interval = interval < modelInterval ? Math.min(interval * 2, modelInterval) : Math.min(interval * 1.25, 30_000);
  }
}
