/**
 * Consumption: the CLI half of the consumption model. One paged call lists
 * the compute usage records (instance hours and charges per cluster) of a
 * time range.
 */
import type { OperationCli, ServiceDefinition } from '../../types.js';
import { operations, service, shapes } from './wire.js';

const cli: Record<string, OperationCli> = {
  listComputeUsageRecords: {
    command: 'compute-usage list',
    summary: 'List the compute usage of a time range: instance hours and charges per cluster and environment.',
    description: 'The range includes --from-timestamp and excludes --to-timestamp.',
    examples: [
      '--from-timestamp 2024-05-01T00:00:00Z --to-timestamp 2024-06-01T00:00:00Z',
      '--from-timestamp 2024-05-01T00:00:00Z --to-timestamp 2024-05-08T00:00:00Z --output table',
    ],
    fieldHelp: {
      fromTimestamp: 'Start of the range (included), e.g. 2024-05-01T00:00:00Z',
      toTimestamp: 'End of the range (excluded), e.g. 2024-06-01T00:00:00Z',
    },
    columns: {
      cluster: 'clusterName',
      clusterCrn: 'clusterCrn',
      environment: 'environmentName',
      feature: 'serviceFeature',
      instanceType: 'instanceType',
      instances: 'instanceCount',
      start: 'usageStartTimestamp',
      end: 'usageEndTimestamp',
      hours: 'hours',
      charge: 'grossCharge',
    },
  },
};

const definition: ServiceDefinition = {
  name: 'consumption',
  topic: 'consumption',
  summary: 'Consumption: compute usage records and charges of the account.',
  endpoint: 'api',
  facts: service,
  topics: {
    'compute-usage': 'Compute usage records: instance hours and charges per cluster.',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
