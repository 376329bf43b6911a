/** The compute service of the emulator. */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';

const compute: ServiceModule = { service: 'compute', handlers };
export default compute;
