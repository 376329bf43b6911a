/** The iam service of the emulator: registers the backend's handlers. */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';

const iam: ServiceModule = { service: 'iam', handlers };
export default iam;
