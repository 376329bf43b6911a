/**
 * For unit tests that call an emulator service's handlers in this process:
 * what the server hands a handler about its operation (its paging, from the
 * model), so handlers run exactly as they do behind HTTP.
 */
import { loadService } from '../../src/lib/model/index.js';
import type { Clock } from '../../src/lib/emulator/clock.js';
import { ApiError } from '../../src/lib/emulator/errors.js';
import { pagingOf } from '../../src/lib/emulator/paging.js';
import type { OperationRef } from '../../src/lib/emulator/types.js';

/** A lookup of the OperationRef of each operation of a service (wire name or CLI topic). */
export async function operationRefs(service: string): Promise<(op: string) => OperationRef> {
  const svc = await loadService(service);
  return (op) => ({ service: svc.name, name: op, paging: pagingOf(svc.operation(op)) });
}

/** The ApiError `run` refuses with; any other error is thrown on, and `what did not fail` when it succeeds. */
export function refusal(run: () => unknown, what: string): ApiError {
  try {
    run();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error(`${what} did not fail`);
}

/** A clock that reads `now()`: a test moves time by changing what that returns. */
export const clockAt = (now: () => number): Clock =>
  ({ now, iso: (at = now()) => new Date(at).toISOString(), scale: 1 }) as unknown as Clock;
