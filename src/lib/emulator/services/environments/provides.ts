/**
 * What the environments service tells the rest of the emulator
 * (world/contracts.ts `environments`): the account's environments, settled
 * on the clock with their status as of now, and its credentials. A thin
 * adapter over the shared environment records (emulator/environments.ts),
 * until this service holds them itself.
 */
import {
  ENVIRONMENT,
  environmentResources,
  environments as all,
  findEnvironment,
  requireEnvironment,
  type CredentialRecord,
} from '../../environments.js';
import { createdAtOf, runsOf, spansOf, type ProviderScope } from '../../world.js';
import type { Environments } from '../../world/contracts.js';
import type { Hook } from '../../engine/declare.js';
import type { Records } from '../../engine/records.js';
import type { R } from './backend.js';

export function environments(h: Hook<R>): Environments {
  const scope: ProviderScope = h.ctx;
  const credentials = (): Records => {
    // The pre-created environments' credentials are made the first time the environments are read.
    environmentResources(scope);
    return h.records('credential');
  };
  return {
    find: (ref) => findEnvironment(scope, ref),
    require: (ref) => requireEnvironment(scope, ref),
    all: () => all(scope),
    credential: (ref) => credentials().find(ref)?.doc as CredentialRecord | undefined,
    credentials: () =>
      credentials()
        .all('')
        .map((c) => c.doc as unknown as CredentialRecord),
    freeipaRuns: (crn) => {
      const e = environmentResources(scope)
        .all()
        .find((x) => x.crn === crn);
      if (!e) return undefined;
      const now = scope.clock.now();
      return {
        runs: runsOf(ENVIRONMENT, spansOf(ENVIRONMENT, e.activity, now, createdAtOf(e)), now),
        instances: e.freeipa.instanceCountByGroup,
      };
    },
  };
}
