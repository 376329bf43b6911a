/**
 * The service registry. Services load on demand, so a command pays only for
 * the model of the service it calls.
 */
import { Service } from './service.js';
import type { ServiceDefinition } from './types.js';

type Loader = () => Promise<{ default: ServiceDefinition }>;

/** CLI topic -> loader. The one place a new service is registered. */
const LOADERS: Readonly<Record<string, Loader>> = {
  iam: () => import('./services/iam/index.js'),
  datalake: () => import('./services/datalake/index.js'),
  compute: () => import('./services/compute/index.js'),
  privatelink: () => import('./services/privatelink/index.js'),
  datacatalog: () => import('./services/datacatalog/index.js'),
  lakehouse: () => import('./services/lakehouse/index.js'),
  dataflow: () => import('./services/dataflow/index.js'),
  environments: () => import('./services/environments/index.js'),
  ml: () => import('./services/ml/index.js'),
  de: () => import('./services/de/index.js'),
  opdb: () => import('./services/opdb/index.js'),
  dw: () => import('./services/dw/index.js'),
  replicationmanager: () => import('./services/replicationmanager/index.js'),
  audit: () => import('./services/audit/index.js'),
  consumption: () => import('./services/consumption/index.js'),
  drscp: () => import('./services/drscp/index.js'),
  datahub: () => import('./services/datahub/index.js'),
  imagecatalog: () => import('./services/imagecatalog/index.js'),
};

/** Wire service name -> CLI topic. */
const WIRE_NAMES: Readonly<Record<string, string>> = {
  iam: 'iam',
  datalake: 'datalake',
  compute: 'compute',
  cloudprivatelinks: 'privatelink',
  datacatalog: 'datacatalog',
  lakehouseopt: 'lakehouse',
  dfworkload: 'dataflow',
  environments: 'environments',
  ml: 'ml',
  de: 'de',
  opdb: 'opdb',
  dw: 'dw',
  replicationmanager: 'replicationmanager',
  audit: 'audit',
  consumption: 'consumption',
  drscp: 'drscp',
  datahub: 'datahub',
  imagecatalog: 'imagecatalog',
};

const loaded = new Map<string, Promise<Service>>();

export function topics(): string[] {
  return Object.keys(LOADERS);
}

/** Topic for a wire service name or topic (`cloudprivatelinks` or `privatelink`). */
export function topicFor(name: string): string | undefined {
  if (Object.hasOwn(LOADERS, name)) return name;
  return WIRE_NAMES[name];
}

export function loadService(topicOrName: string): Promise<Service> {
  const topic = topicFor(topicOrName);
  const loader = topic ? LOADERS[topic] : undefined;
  if (!topic || !loader) return Promise.reject(new Error(`unknown service ${topicOrName}`));
  let hit = loaded.get(topic);
  if (!hit) {
    hit = loader().then((m) => new Service(m.default));
    loaded.set(topic, hit);
  }
  return hit;
}

export async function loadAllServices(): Promise<Service[]> {
  return Promise.all(topics().map((t) => loadService(t)));
}

export { Service } from './service.js';
export type { Operation } from './service.js';
