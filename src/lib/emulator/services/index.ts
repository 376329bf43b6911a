/**
 * The emulated services: one module a service, in the folder the service
 * registry (src/lib/model/registry.ts) names by its CLI topic, the same
 * folder name as its model's. Each module is loaded when the emulator
 * starts; every service of the registry has one, and each is an operation
 * table (engine/table.ts): the one shape a service has.
 */
import { isTable, type EmulatedService } from '../engine/table.js';

/** The emulator module of a service, by its registry topic. */
export async function loadServiceModule(topic: string): Promise<EmulatedService> {
  const mod = ((await import(`./${topic}/index.js`)) as { default: object }).default;
  if (!isTable(mod)) throw new Error(`the emulator's ${topic} module is not an operation table (defineService)`);
  return mod;
}
