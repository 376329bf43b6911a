/**
 * What the API says of opdb's resources (the format: ../../resources.ts):
 * the states each long-running action of a database, a snapshot, a restore
 * and a diagnostics bundle passes through, from StatusType and the
 * dropDatabase / createDatabase waiters: a request first (REQUESTED,
 * UPDATE_REQUESTED, PRE_DELETE_IN_PROGRESS, a snapshot NEW), then its
 * progress, as a client polling describe sees them. Read by the emulator;
 * checked against the wire by test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

export const resources = {
  resources: {
    database: {
      shape: 'DatabaseDetails',
      // Not stated by a description; CDP's CRN types have DATABASE (the audit: unverified).
      crnType: 'database',
      lifecycle: {
        create: { through: ['REQUESTED', 'CREATE_IN_PROGRESS'], success: 'AVAILABLE', failure: 'CREATE_FAILED' },
        delete: { through: ['PRE_DELETE_IN_PROGRESS', 'DELETE_IN_PROGRESS'], success: 'DELETE_COMPLETED', failure: 'DELETE_FAILED' },
        start: {
          from: ['STOPPED', 'START_FAILED'],
          through: ['START_REQUESTED', 'START_IN_PROGRESS'],
          success: 'AVAILABLE',
          failure: 'START_FAILED',
        },
        stop: {
          from: ['AVAILABLE', 'STOP_FAILED'],
          through: ['STOP_REQUESTED', 'STOP_IN_PROGRESS'],
          success: 'STOPPED',
          failure: 'STOP_FAILED',
        },
        // Requested, then in progress: the order a client polling it sees (the enum lists them the other way round).
        update: { through: ['UPDATE_REQUESTED', 'UPDATE_IN_PROGRESS'], success: 'AVAILABLE', failure: 'UPDATE_FAILED' },
        upgrade: { through: ['UPDATE_REQUESTED', 'UPDATE_IN_PROGRESS'], success: 'AVAILABLE', failure: 'UPDATE_FAILED' },
      },
      deleted: { ends: 'gone' },
    },
    snapshot: {
      shape: 'Snapshot',
      lifecycle: {
        // "`NEW` - Expected when a snapshot request was just requested." (opdb.yaml:973)
        create: { through: ['NEW', 'IN_PROGRESS'], success: 'SUCCESSFUL', failure: 'FAILED' },
        delete: { through: ['DELETING'], success: 'DELETED', failure: 'FAILED' },
      },
      // "DELETED - A snapshot existed but was just deleted." (opdb.yaml:973): kept, and listed (listSnapshots has no flag), for an hour.
      deleted: { ends: 'kept', status: 'DELETED', retention: '1h' },
    },
    // Restores and diagnostics bundles have no delete of their own: they go with their database.
    restore: {
      shape: 'RestoreSnapshot',
      lifecycle: { create: { through: ['IN_PROGRESS'], success: 'SUCCESSFUL', failure: 'FAILED' } },
    },
    diagnostics: {
      shape: 'DiagnosticsBundle',
      // No description names the type of a bundle's CRN: the emulator's own word (the issue 28 audit: unverified).
      crnType: 'diagnostics',
      lifecycle: { create: { through: ['IN_PROGRESS'], success: 'FINISHED', failure: 'FAILED' } },
    },
    // The environments COD can run in: the environments service's, read, never kept (listSupportedEnvironments).
    environment: { shape: 'Environment' },
  },
} as const satisfies ServiceResources;
