/**
 * What the environments service tells the rest of the emulator
 * (world/contracts.ts `environments`): the account's environments, settled
 * on the clock with their status as of now, and its credentials. A thin
 * adapter over the shared environment records (emulator/environments.ts),
 * until this service holds them itself.
 */
import {
  CREDENTIAL_KIND,
  ENVIRONMENT,
  environmentResources,
  environments as all,
  findEnvironment,
  requireEnvironment,
  type CredentialRecord,
} from '../../environments.js';
import { createdAtOf, runsOf, spansOf, type ProviderScope } from '../../world.js';
import type { Environments } from '../../world/contracts.js';

export function environments(scope: ProviderScope): Environments {
  return {
    find: (ref) => findEnvironment(scope, ref),
    require: (ref) => requireEnvironment(scope, ref),
    all: () => all(scope),
    credential: (ref) =>
      ref.startsWith('crn:')
        ? scope.store.getByCrn<CredentialRecord>(ref)?.doc
        : scope.store.getByName<CredentialRecord>(CREDENTIAL_KIND, ref),
    credentials: () => {
      // The pre-created environments' credentials are made the first time the environments are read.
      environmentResources(scope);
      return scope.store.list<CredentialRecord>(CREDENTIAL_KIND).map((c) => c.doc);
    },
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
