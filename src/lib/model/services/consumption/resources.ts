/**
 * What the API says of consumption's resources (the format:
 * ../../resources.ts): none. Its one operation lists usage records computed
 * from how long other services' resources ran; it keeps no record, mints
 * no CRN and has no long-running action or delete (the issue 28 audit found
 * none). Read by the emulator (services/consumption).
 */
import type { ServiceResources } from '../../resources.js';

export const resources = { resources: {} } as const satisfies ServiceResources;
