/** The de service of the emulator: not emulated yet (every operation answers NOT_EMULATED). */
import type { ServiceModule } from '../../types.js';

const service: ServiceModule = { service: 'de' };
export default service;
