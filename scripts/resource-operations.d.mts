// Types of resource-operations.mjs, for the tests that import it.
import type { Engine } from '../src/lib/emulator/engine/index.js';
import type { ResourceFacts } from '../src/lib/model/resources.js';
import type { Service } from '../src/lib/model/service.js';

/** The operations that create, describe, list and delete a resource, and start each action of its lifecycle. */
export interface ResourceOperations {
  readonly create?: string;
  readonly describe?: string;
  readonly list?: string;
  readonly delete?: string;
  /** The other operations that end it, or a relation it holds, as its delete does (the facts' `deletedBy`). */
  readonly alsoDeletes?: readonly string[];
  /** The operation that starts each action of the facts' lifecycle (create and delete included). */
  readonly actions: Readonly<Record<string, string>>;
}

export function placeIn(svc: Service, operation: string, shape: string, list?: boolean): string | undefined;
export function resourceOperations(svc: Service, engine: Engine | undefined, key: string, facts: ResourceFacts): ResourceOperations;
