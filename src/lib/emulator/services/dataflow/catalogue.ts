/** The DataFlow workload service's fixed world: NiFi versions, KPI metadata, node sizes and storage profiles. */
import { invalid } from '../../errors.js';
import type { Doc } from '../../types.js';
import { num, str } from '../../values.js';

export const NIFI_VERSIONS = ['1.26.0.2.3.14.0-9', '1.27.0.2.3.15.0-12', '1.28.1.2.3.16.0-5', '2.0.0.4.3.1.0-40'];
export const DEFAULT_NIFI = '1.28.1.2.3.16.0-5';

export const KPI_METADATA: Doc = {
  kpiScopes: [
    {
      type: 'SYSTEM',
      label: 'System',
      metricTypes: [
        { id: 'cpuUtilization', label: 'CPU utilization', unitTypeKey: 'RATIO', defaultUnitId: 'percentage' },
        { id: 'memoryUtilization', label: 'Memory utilization', unitTypeKey: 'RATIO', defaultUnitId: 'percentage' },
      ],
    },
    {
      type: 'NIFI_FLOW',
      label: 'Flow',
      metricTypes: [{ id: 'dataIn', label: 'Data in', unitTypeKey: 'RATE', defaultUnitId: 'bytesPerSecond' }],
    },
  ],
  unitTypes: { RATIO: [{ id: 'percentage', label: 'Percent', factor: 1 }], RATE: [{ id: 'bytesPerSecond', label: 'Bytes/s', factor: 1 }] },
  alertFrequencyTolerance: {
    units: [
      { id: 'SECONDS', label: 'Seconds', abbreviation: 's' },
      { id: 'MINUTES', label: 'Minutes', abbreviation: 'm' },
      { id: 'HOURS', label: 'Hours', abbreviation: 'h' },
    ],
    defaultUnitId: 'MINUTES',
  },
};

export const CLUSTER_SIZES: Doc[] = [
  { name: 'EXTRA_SMALL', coresPerNode: 2, memoryLimit: 4, text: 'Extra small', heapSize: 2, enabled: true },
  { name: 'SMALL', coresPerNode: 3, memoryLimit: 6, text: 'Small', heapSize: 3, enabled: true },
  { name: 'MEDIUM', coresPerNode: 6, memoryLimit: 12, text: 'Medium', heapSize: 6, enabled: true },
  { name: 'LARGE', coresPerNode: 12, memoryLimit: 24, text: 'Large', heapSize: 12, enabled: true },
];

/**
 * A deployment's node size in full (a sizing option): a named size has the
 * cores and memory the sizing options list; CUSTOM has the ones given.
 */
export function clusterSizeOf(given: unknown): Doc {
  const g = typeof given === 'object' && given !== null ? (given as Doc) : {};
  const name = str(g.name) ?? 'EXTRA_SMALL';
  const named = CLUSTER_SIZES.find((x) => x.name === name);
  if (named) return { ...named };
  return { name, coresPerNode: num(g.coresPerNode) ?? 2, memoryLimit: num(g.memoryLimit) ?? 4, text: 'Custom', enabled: true };
}

/** The BasicClusterSize of a deployment's configuration. */
export function basicSize(given: unknown): Doc {
  const { name, coresPerNode, memoryLimit } = clusterSizeOf(given);
  return { name, coresPerNode, memoryLimit };
}

/** A named size takes its own cores and memory; other values need CUSTOM, which needs both. */
export function checkClusterSize(given: unknown): void {
  const g = typeof given === 'object' && given !== null ? (given as Doc) : {};
  const named = CLUSTER_SIZES.find((x) => x.name === g.name);
  if (named) {
    for (const k of ['coresPerNode', 'memoryLimit'] as const)
      if (g[k] !== undefined && g[k] !== named[k])
        throw invalid(
          `clusterSize ${String(g.name)} has ${String(named.coresPerNode)} cores and ${String(named.memoryLimit)} GB per node; give name=CUSTOM for other values`,
        );
    return;
  }
  if (g.name === 'CUSTOM' && (num(g.coresPerNode) === undefined || num(g.memoryLimit) === undefined))
    throw invalid('clusterSize CUSTOM needs coresPerNode and memoryLimit');
}

/** A node storage profile on AWS (gp3 volumes): its content and provenance repositories are of one size. */
const awsProfile = (name: string, text: string, repoSize: number, flowfileRepoSize: number, iops: string, throughput: string): Doc => ({
  name,
  text,
  contentRepoSize: repoSize,
  provenanceRepoSize: repoSize,
  flowfileRepoSize,
  iops,
  throughput,
  storageVolumeType: 'gp3',
});

export const STORAGE_PROFILES = [
  awsProfile('STANDARD_AWS', 'Standard', 512, 10, '3000', '125'),
  awsProfile('PERFORMANCE_AWS', 'Performance', 1024, 20, '6000', '250'),
];
