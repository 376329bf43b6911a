/**
 * For unit tests that call an emulator service's handlers in this process:
 * what the server hands a handler about its operation (its paging, from the
 * model), so handlers run exactly as they do behind HTTP.
 */
import { loadService } from '../../src/lib/model/index.js';
import { pagingOf } from '../../src/lib/emulator/paging.js';
import type { OperationRef } from '../../src/lib/emulator/types.js';

/** A lookup of the OperationRef of each operation of a service (wire name or CLI topic). */
export async function operationRefs(service: string): Promise<(op: string) => OperationRef> {
  const svc = await loadService(service);
  return (op) => ({ service: svc.name, name: op, paging: pagingOf(svc.operation(op)) });
}
