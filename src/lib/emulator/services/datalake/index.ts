/** The datalake service of the emulator. */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';

const datalake: ServiceModule = { service: 'datalake', handlers };
export default datalake;
