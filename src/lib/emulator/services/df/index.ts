/** The DataFlow control-plane service of the emulator: services by environment, and reads of the workload's deployments. */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';

const df: ServiceModule = { service: 'df', handlers };
export default df;
