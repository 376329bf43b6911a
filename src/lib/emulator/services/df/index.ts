/**
 * The DataFlow control-plane service of the emulator: DataFlow services by
 * environment (backend.ts, handlers.ts), the reads of the workload's
 * deployments and flows and what is computed of them (monitoring.ts), and,
 * on the resource engine, the flow catalog with ReadyFlows (catalog.ts),
 * projects and diagnostics collections (projects.ts).
 *
 * A flow definition import comes as cdp sends it: the JSON request is
 * checked and redirected, and the file follows, signed, to the redirected
 * address, where the import is made (the server's redirected uploads).
 */
import type { ServiceModule } from '../../types.js';
import { serviceDependents } from './backend.js';
import { catalogHandlers, catalogResources } from './catalog.js';
import { handlers } from './handlers.js';
import { projectResources } from './projects.js';

const df: ServiceModule = {
  service: 'df',
  engine: {
    resources: { ...catalogResources, ...projectResources },
    handlers: catalogHandlers,
    plain: handlers,
  },
  dependents: [serviceDependents],
  redirectedUploads: {
    importFlowDefinition: '/df/catalog/flows/upload',
    importFlowDefinitionVersion: '/df/catalog/flow-versions/upload',
  },
};
export default df;
