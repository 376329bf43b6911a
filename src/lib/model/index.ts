/**
 * The service registry. Services load on demand, so a command pays only for
 * the model of the service it calls.
 */
import { Service } from './service.js';
import type { ServiceDefinition } from './types.js';

type Loader = () => Promise<{ default: ServiceDefinition }>;

/**
 * The one place a new service is registered: its CLI topic, its official
 * (wire) service name, which the official CLI uses as its topic and cdpctl
 * accepts for the hidden aliases (`cdpctl cloudprivatelinks ...`), and its
 * loader. A test checks each entry's wire name against the loaded facts.
 */
const REGISTRY: ReadonlyArray<{ readonly topic: string; readonly wire: string; readonly load: Loader }> = [
  { topic: 'iam', wire: 'iam', load: () => import('./services/iam/index.js') },
  { topic: 'datalake', wire: 'datalake', load: () => import('./services/datalake/index.js') },
  { topic: 'compute', wire: 'compute', load: () => import('./services/compute/index.js') },
  { topic: 'privatelink', wire: 'cloudprivatelinks', load: () => import('./services/privatelink/index.js') },
  { topic: 'datacatalog', wire: 'datacatalog', load: () => import('./services/datacatalog/index.js') },
  { topic: 'lakehouse', wire: 'lakehouseopt', load: () => import('./services/lakehouse/index.js') },
  { topic: 'dataflow', wire: 'dfworkload', load: () => import('./services/dataflow/index.js') },
  { topic: 'environments', wire: 'environments', load: () => import('./services/environments/index.js') },
  { topic: 'ml', wire: 'ml', load: () => import('./services/ml/index.js') },
  { topic: 'de', wire: 'de', load: () => import('./services/de/index.js') },
  { topic: 'opdb', wire: 'opdb', load: () => import('./services/opdb/index.js') },
  { topic: 'dw', wire: 'dw', load: () => import('./services/dw/index.js') },
  { topic: 'replicationmanager', wire: 'replicationmanager', load: () => import('./services/replicationmanager/index.js') },
  { topic: 'audit', wire: 'audit', load: () => import('./services/audit/index.js') },
  { topic: 'consumption', wire: 'consumption', load: () => import('./services/consumption/index.js') },
  { topic: 'drscp', wire: 'drscp', load: () => import('./services/drscp/index.js') },
  { topic: 'datahub', wire: 'datahub', load: () => import('./services/datahub/index.js') },
  { topic: 'imagecatalog', wire: 'imagecatalog', load: () => import('./services/imagecatalog/index.js') },
  { topic: 'df', wire: 'df', load: () => import('./services/df/index.js') },
];

/** CLI topic -> loader. */
const LOADERS: Readonly<Record<string, Loader>> = Object.fromEntries(REGISTRY.map((e) => [e.topic, e.load]));

/** Wire service name -> CLI topic. */
const WIRE_NAMES: Readonly<Record<string, string>> = Object.fromEntries(REGISTRY.map((e) => [e.wire, e.topic]));

const loaded = new Map<string, Promise<Service>>();

export function topics(): string[] {
  return Object.keys(LOADERS);
}

/** Topic for a wire service name or topic (`cloudprivatelinks` or `privatelink`). */
export function topicFor(name: string): string | undefined {
  if (Object.hasOwn(LOADERS, name)) return name;
  return Object.hasOwn(WIRE_NAMES, name) ? WIRE_NAMES[name] : undefined;
}

/** The official service name of a topic (`privatelink` -> `cloudprivatelinks`). */
export function wireNameOf(topic: string): string | undefined {
  return REGISTRY.find((e) => e.topic === topic)?.wire;
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
