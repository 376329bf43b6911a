/** The lakehouseopt service of the emulator: the lakehouse optimizer's policies, tables and tasks. */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';

const lakehouseopt: ServiceModule = { service: 'lakehouseopt', handlers };
export default lakehouseopt;
