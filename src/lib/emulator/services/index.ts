/**
 * Emulated services by wire name. Each module is loaded when the emulator
 * starts; adding a service is one line here.
 */
import type { ServiceModule } from '../types.js';

type Loader = () => Promise<{ default: ServiceModule }>;

export const SERVICE_MODULES: Readonly<Record<string, Loader>> = {
  iam: () => import('./iam/index.js'),
  dfworkload: () => import('./dfworkload/index.js'),
  datalake: () => import('./datalake/index.js'),
  compute: () => import('./compute/index.js'),
  cloudprivatelinks: () => import('./cloudprivatelinks/index.js'),
  datacatalog: () => import('./datacatalog/index.js'),
  lakehouseopt: () => import('./lakehouseopt/index.js'),
  environments: () => import('./environments/index.js'),
  datahub: () => import('./datahub/index.js'),
  df: () => import('./df/index.js'),
};
