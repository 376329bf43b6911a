/** The environments service of the emulator. */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';

const environments: ServiceModule = { service: 'environments', handlers };
export default environments;
