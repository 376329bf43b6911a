/**
 * The service registry. Services load on demand, so a command pays only for
 * the model of the service it calls.
 */
import { Service } from './service.js';
import { SERVICES } from './registry.js';
import type { ServiceDefinition } from './types.js';

type Loader = () => Promise<{ default: ServiceDefinition }>;

/** Loads a service's model from its folder (services/<topic>/index.js); the bundler splits each into a chunk of its own. */
const loaderOf =
  (topic: string): Loader =>
  () =>
    import(`./services/${topic}/index.js`) as Promise<{ default: ServiceDefinition }>;

/** CLI topic -> loader. */
const LOADERS: Readonly<Record<string, Loader>> = Object.fromEntries(SERVICES.map((e) => [e.topic, loaderOf(e.topic)]));

/** Wire service name -> CLI topic. */
const WIRE_NAMES: Readonly<Record<string, string>> = Object.fromEntries(SERVICES.map((e) => [e.wire, e.topic]));

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
  return SERVICES.find((e) => e.topic === topic)?.wire;
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
export { SERVICES, type ServiceEntry } from './registry.js';
export type { Operation } from './service.js';
