/**
 * The emulated services: one module a service, in the folder the service
 * registry (src/lib/model/registry.ts) names by its CLI topic, the same
 * folder name as its model's. Each module is loaded when the emulator
 * starts; every service of the registry has one.
 */
import type { EmulatedService } from '../engine/table.js';
import type { ServiceModule } from '../types.js';

/** The emulator module of a service, by its registry topic: on the operation table (engine/table.ts), or not yet. */
export async function loadServiceModule(topic: string): Promise<ServiceModule | EmulatedService> {
  return ((await import(`./${topic}/index.js`)) as { default: ServiceModule | EmulatedService }).default;
}
