/** The datacatalog service of the emulator: data shares, external users, tags and profilers. */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';

const datacatalog: ServiceModule = { service: 'datacatalog', handlers };
export default datacatalog;
