/**
 * The environments service of the emulator: environments, credentials, proxy
 * configurations, FreeIPA, ID Broker mappings, trust and the account's
 * settings as hand-written handlers on the shared environment records; audit
 * credentials, FreeIPA diagnostics collections and user sync operations on
 * the resource engine.
 */
import type { ServiceModule } from '../../types.js';
import { accountHandlers } from './account-handlers.js';
import { AUDIT_CREDENTIAL } from './audit-credentials.js';
import { FREEIPA_DIAGNOSTICS, diagnosticsHandlers } from './diagnostics.js';
import { freeipaHandlers } from './freeipa-handlers.js';
import { handlers } from './handlers.js';
import { environments as environmentsContract } from './provides.js';
import { USER_SYNC, userSyncHandlers } from './usersync.js';

const environments: ServiceModule = {
  service: 'environments',
  handlers: { ...handlers, ...freeipaHandlers, ...accountHandlers },
  engine: {
    resources: { auditCredential: AUDIT_CREDENTIAL, freeipaDiagnostics: FREEIPA_DIAGNOSTICS, userSync: USER_SYNC },
    handlers: { ...userSyncHandlers, ...diagnosticsHandlers },
  },
  provides: { environments: environmentsContract },
};
export default environments;
