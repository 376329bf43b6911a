/** The compute service of the emulator, and what it tells the others (provides.ts). */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';
import { computeClusters } from './provides.js';

const compute: ServiceModule = { service: 'compute', handlers, provides: { computeClusters } };
export default compute;
