/**
 * For tests that drive an emulator through the library's client: the
 * ServiceError a call is refused with (its code, HTTP status and message),
 * so a test can assert on all three. A call that succeeds fails the test;
 * any other error (a UsageError the client raised before sending) is thrown on.
 */
import { ServiceError } from '../../src/lib/sdk/index.js';

export async function refused(call: Promise<unknown>): Promise<ServiceError> {
  const outcome = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (outcome === undefined) throw new Error('the call was answered; it was expected to be refused');
  if (!(outcome instanceof ServiceError)) throw outcome;
  return outcome;
}
