/**
 * For unit tests that run an emulator service's operations in this process:
 * a caller that serves them as the server does (serviceCaller: the same
 * handlers, the operation's paging from the model), so they run exactly as
 * they do behind HTTP.
 */
import { loadAllServices, loadService } from '../../src/lib/model/index.js';
import type { Clock } from '../../src/lib/emulator/clock.js';
import { serve } from '../../src/lib/emulator/engine/index.js';
import { ApiError } from '../../src/lib/emulator/errors.js';
import { pagingOf } from '../../src/lib/emulator/engine/paging.js';
import { loadServiceModule } from '../../src/lib/emulator/services/index.js';
import type { Store } from '../../src/lib/emulator/store.js';
import type { Caller, Doc, EmulatorInfo, OperationRef, RequestContext } from '../../src/lib/emulator/types.js';
import { World, type Providers } from '../../src/lib/emulator/world.js';

/** A lookup of the OperationRef of each operation of a service (wire name or CLI topic): its paging, from the model. */
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

/** What every service provides the world (world/contracts.ts), as the server gathers it at start. */
let gathered: Promise<{ providers: Providers; world: World }> | undefined;
function gather(): Promise<{ providers: Providers; world: World }> {
  gathered ??= (async () => {
    const modules: Array<{ service: string; provides: Providers }> = [];
    const dependents = [];
    for (const svc of await loadAllServices()) {
      const served = serve(svc, await loadServiceModule(svc.topic));
      modules.push({ service: svc.name, provides: served.provides });
      dependents.push(...served.dependents);
    }
    const providers = Object.assign({}, ...modules.map((m) => m.provides)) as Providers;
    return { providers, world: World.of(dependents, modules) };
  })();
  return gathered;
}

/** The world as the server makes it from every service module: their contracts and what lives in environments. */
export const emulatedWorld = async (): Promise<World> => (await gather()).world;

/** Every service's providers of the world's contracts: for a world of a test's own (one contract replaced). */
export const worldProviders = async (): Promise<Providers> => (await gather()).providers;

/** The account of a unit test's requests, and its admin user as the caller. */
export const UNIT_ACCOUNT = 'acct-1';
export const UNIT_INFO: EmulatorInfo = { accountId: UNIT_ACCOUNT, region: 'us-west-1', baseUrl: 'http://localhost:4242' };
export const UNIT_ADMIN: Caller = { accountId: UNIT_ACCOUNT, actorCrn: `crn:altus:iam:us-west-1:${UNIT_ACCOUNT}:user:admin`, kind: 'user' };

/** What a request of a unit test runs with: the test's store, clock, caller and account. */
export interface UnitScope {
  readonly store: Store;
  readonly clock: Clock;
  readonly caller: Caller;
  readonly info: EmulatorInfo;
}

/** A service's operations for a unit test, served as the server serves them. */
export interface ServiceCaller {
  /** Runs one operation in the scope's store transaction (an upload: the file it carries). */
  call(op: string, req?: Doc, upload?: RequestContext['upload']): Doc;
  /** Whether the service has code for the operation (else the server answers 501 NOT_EMULATED). */
  serves(op: string): boolean;
}

/**
 * A service's operations served through the same path the server takes
 * (`serve()` over the module its registry topic names): a unit test calls
 * them by wire name without knowing which map or entry serves each. `scope`
 * is read at every call (tests make a new store for each case).
 */
export async function serviceCaller(service: string, scope: () => UnitScope): Promise<ServiceCaller> {
  const svc = await loadService(service);
  const { handlers } = serve(svc, await loadServiceModule(svc.topic));
  const world = await emulatedWorld();
  return {
    call(op, req = {}, upload) {
      const h = handlers[op];
      if (!h) throw new Error(`no handler for ${svc.name} ${op}`);
      const s = scope();
      const ctx: RequestContext = {
        store: s.store,
        clock: s.clock,
        caller: s.caller,
        info: s.info,
        world,
        ...(upload ? { upload } : {}),
        op: { service: svc.name, name: op, paging: pagingOf(svc.operation(op)) },
      };
      return s.store.transaction(() => h(req, ctx));
    },
    serves: (op) => Object.hasOwn(handlers, op),
  };
}
