/**
 * What the API says of the Data Warehouse's resources (the format:
 * ../../resources.ts). Checked against the wire by
 * test/unit/model/resource-facts.test.ts.
 */
import type { ResourceFacts, ServiceResources } from '../../resources.js';

/**
 * A diagnostic job of a cluster, catalog or warehouse. DiagnosticDataJobStatus
 * has `Deleted` (dw.yaml:3523-3533), and a deleted job is one of its values a
 * client sees: it stays visible as `Deleted` (the audit's reading, medium
 * confidence: no description says it outright; 24 h of emulator time, longer
 * than any client waits). No list flag hides it: the list is "a list of jobs
 * along with their current status" (dw.yaml:92), and its `status` filter
 * returns "only those jobs ... which have the given status" (dw.yaml:3250),
 * `Deleted` among them; so without the filter a deleted job is listed, as
 * `Deleted`, and `status: Deleted` selects the deleted ones.
 */
const diagnosticJob = (shape: string): ResourceFacts => ({
  shape,
  lifecycle: { create: { through: ['Starting', 'Running'], success: 'Succeeded', failure: 'Failed' } },
  // Deleted at once, even while Running (dw.yaml:136): the enum has no state between.
  deleted: { ends: 'kept', status: 'Deleted', retention: '24h' },
});

export const resources = {
  resources: {
    clusterDiagnostics: diagnosticJob('ClusterDiagnosticDataJob'),
    dbcDiagnostics: diagnosticJob('DbcDiagnosticDataJob'),
    vwDiagnostics: diagnosticJob('VwDiagnosticDataJob'),
  },
} as const satisfies ServiceResources;
