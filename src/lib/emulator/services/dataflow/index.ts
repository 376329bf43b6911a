/** The DataFlow workload service of the emulator (served under /dfx/ with bearer tokens); tells DataFlow's control plane its deployments (provides.ts). */
import type { ServiceModule } from '../../types.js';
import { handlers } from './handlers.js';
import { dataflows } from './provides.js';

const dfworkload: ServiceModule = { service: 'dfworkload', workloadName: 'DF', handlers, provides: { dataflows } };
export default dfworkload;
