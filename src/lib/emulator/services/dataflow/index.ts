/** The DataFlow workload service of the emulator (served under /dfx/ with bearer tokens). */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';

const dfworkload: ServiceModule = { service: 'dfworkload', workloadName: 'DF', handlers };
export default dfworkload;
