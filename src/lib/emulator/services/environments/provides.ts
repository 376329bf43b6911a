/**
 * What the environments service tells the rest of the emulator
 * (world/contracts.ts `environments`): the account's environments, settled
 * on the clock with their status as of now (the pre-created ones made the
 * first time anything asks), and its credentials.
 */
import type { Environments } from '../../world/contracts.js';
import type { Hook } from '../../engine/declare.js';
import type { EngineRecord } from '../../engine/records.js';
import { createdAtOf, runsOf, spansOf } from '../../world.js';
import { allEnvironments, environmentOf, envOf, findEnvironment, type R } from './backend.js';
import { ENVIRONMENT } from './lifecycles.js';
import { preCreate } from './pre-created.js';
import type { CredentialRec, EnvRecord } from './records.js';

export function environments(h: Hook<R>): Environments {
  preCreate(h);
  const credentials = h.records('credential');
  return {
    find: (ref) => {
      const rec = findEnvironment(h, ref);
      return rec ? envOf(h, rec) : undefined;
    },
    require: (ref) => environmentOf(h, ref),
    all: () => allEnvironments(h),
    credential: (ref) => credentials.find(ref)?.doc as CredentialRec | undefined,
    credentials: () => credentials.all('').map((c) => c.doc as unknown as CredentialRec),
    freeipaRuns: (crn) => {
      const rec: EngineRecord | undefined = findEnvironment(h, crn);
      if (!rec) return undefined;
      const now = h.ctx.clock.now();
      return {
        runs: runsOf(ENVIRONMENT, spansOf(ENVIRONMENT, rec.activity, now, createdAtOf(rec)), now),
        instances: (rec.doc as unknown as EnvRecord).freeipa.instanceCountByGroup,
      };
    },
  };
}
