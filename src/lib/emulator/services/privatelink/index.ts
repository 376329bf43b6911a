/** The cloudprivatelinks service of the emulator: private-link endpoints and access. */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';

const cloudprivatelinks: ServiceModule = { service: 'cloudprivatelinks', handlers };
export default cloudprivatelinks;
