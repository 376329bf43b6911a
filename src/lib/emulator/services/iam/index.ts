/** The iam service of the emulator: registers the backend's handlers, and tells the others who is who (provides.ts). */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';
import { identities } from './provides.js';

const iam: ServiceModule = { service: 'iam', handlers, provides: { identities } };
export default iam;
