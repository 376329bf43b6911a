/** The datahub service of the emulator. */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';

const datahub: ServiceModule = { service: 'datahub', handlers };
export default datahub;
