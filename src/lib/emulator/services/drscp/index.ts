/** The drscp service of the emulator: not emulated yet (every operation answers NOT_EMULATED). */
import type { ServiceModule } from '../../types.js';

const service: ServiceModule = { service: 'drscp' };
export default service;
