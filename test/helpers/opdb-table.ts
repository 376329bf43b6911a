/**
 * An operation table of the tests' own on the opdb model, for the engine's
 * unit tests (test/unit/emulator/engine/): what they pin is the engine's,
 * not opdb's service module (which declares minutes, hooks and answers of
 * its own). Every emulated minute is the default but a diagnostics bundle's.
 */
import type { Resource } from '../../src/lib/emulator/engine/declare.js';
import { code, defineService, type EmulatedService, type Entry } from '../../src/lib/emulator/engine/table.js';
import { resources as facts } from '../../src/lib/model/services/opdb/resources.js';
import type { OperationName } from '../../src/lib/model/services/opdb/wire.js';

export type OpdbResource = keyof typeof facts.resources;
export { facts as opdbFacts };

/** Upgrades name the database and its environment in fields of their own. */
const UPGRADE = { keys: ['database'], environment: ['environment'] } as const;

export const OPDB_RESOURCES: { readonly [k in OpdbResource]: Resource<OpdbResource> } = {
  database: { keys: ['databaseName', 'database'], lives: { in: 'environment', by: ['environmentName', 'environment'] } },
  snapshot: { keys: ['snapshotName'], lives: { in: 'parent', parent: 'database' } },
  restore: { keys: ['restoreId'], lives: { in: 'parent', parent: 'database' } },
  diagnostics: { keys: ['id'], lives: { in: 'parent', parent: 'database' }, minutes: { create: 3 } },
  environment: { keys: ['crn'] },
};

/** The table, with these resources and entries in place of the defaults, and a setup. */
export function opdbTable(
  resources: Partial<Record<OpdbResource, Resource<OpdbResource>>> = {},
  own: Partial<Record<OperationName, Entry<OpdbResource>>> = {},
  setup?: () => void,
): EmulatedService<OperationName, OpdbResource> {
  return defineService<OperationName>()({
    service: 'opdb',
    facts,
    resources: { ...OPDB_RESOURCES, ...resources },
    ...(setup ? { setup } : {}),
    operations: (r) => ({
      createDatabase: r.database.create(),
      describeDatabase: r.database.read(),
      listDatabases: r.database.list(),
      updateDatabase: r.database.update(),
      dropDatabase: r.database.delete(),
      startDatabase: r.database.act('start'),
      stopDatabase: r.database.act('stop'),
      upgradeDatabase: r.database.act('upgrade', UPGRADE),
      describeClientConnectivity: r.database.read({ answer: () => ({}) }),
      describeUpgradeDatabase: r.database.read(UPGRADE),
      prepareUpgradeDatabase: r.database.read(UPGRADE),
      createSnapshot: r.snapshot.create(),
      listSnapshots: r.snapshot.list(),
      deleteSnapshot: r.snapshot.delete(),
      restoreSnapshot: own.restoreSnapshot ?? r.restore.create(),
      listRestoreSnapshots: r.restore.list(),
      collectDiagnostics: r.diagnostics.create(),
      listDiagnostics: r.diagnostics.list(),
      listSupportedEnvironments: own.listSupportedEnvironments ?? code(() => ({ environments: [] })),
    }),
  });
}
