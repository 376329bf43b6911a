/**
 * The ReadyFlows the emulator offers: flow definitions Cloudera publishes for
 * every account, listed and described as they are, and added to an
 * account's catalog as flow definitions with all their versions. Each is
 * named in its CRN by its slug (`readyFlow:kafka-to-s3`); added, the flow
 * definition's CRN is a `readyFlow` too, with the same slug, in the account
 * it was added to.
 */
import { crn } from '../../ids.js';
import type { Doc } from '../../types.js';

export interface ReadyFlow {
  readonly slug: string;
  readonly name: string;
  readonly summary: string;
  readonly description: string;
  readonly source: string;
  readonly sourceDataFormat: string;
  readonly destination: string;
  readonly destinationDataFormat: string;
  readonly latestVersion: number;
  /** When its newest version was published (epoch ms). */
  readonly modified: number;
  readonly notes?: string;
}

const DAY = 24 * 3_600_000;

export const READYFLOWS: readonly ReadyFlow[] = [
  {
    slug: 'kafka-to-s3',
    name: 'Kafka to S3',
    summary: 'Moves messages from a Kafka topic to S3, converting them to Avro.',
    description:
      'Consumes JSON, CSV or Avro messages from a Kafka topic, merges them into larger files, converts them to Avro and writes them to an S3 bucket.',
    source: 'Kafka topic',
    sourceDataFormat: 'JSON, CSV, Avro',
    destination: 'Amazon S3',
    destinationDataFormat: 'Avro',
    latestVersion: 3,
    modified: Date.parse('2025-09-15T00:00:00Z'),
    notes: 'Needs a Kafka client truststore and an S3 bucket the environment may write to.',
  },
  {
    slug: 'kafka-to-adls',
    name: 'Kafka to ADLS',
    summary: 'Moves messages from a Kafka topic to ADLS Gen2, converting them to Avro.',
    description: 'Consumes messages from a Kafka topic, merges them and writes them as Avro files to an ADLS Gen2 container.',
    source: 'Kafka topic',
    sourceDataFormat: 'JSON, CSV, Avro',
    destination: 'ADLS Gen2',
    destinationDataFormat: 'Avro',
    latestVersion: 2,
    modified: Date.parse('2025-08-01T00:00:00Z'),
  },
  {
    slug: 'kafka-filter-to-kafka',
    name: 'Kafka filter to Kafka',
    summary: 'Filters the messages of a Kafka topic with a SQL query and writes the result to another topic.',
    description:
      'Consumes messages from a Kafka topic, keeps those a QueryRecord SQL statement selects and produces them to another topic.',
    source: 'Kafka topic',
    sourceDataFormat: 'JSON, CSV, Avro',
    destination: 'Kafka topic',
    destinationDataFormat: 'JSON, CSV, Avro',
    latestVersion: 2,
    modified: Date.parse('2025-06-20T00:00:00Z'),
  },
  {
    slug: 'listenhttp-filter-to-kafka',
    name: 'ListenHTTP filter to Kafka',
    summary: 'Takes records over HTTP, filters them and writes them to a Kafka topic.',
    description:
      'Listens for HTTP POSTs on an inbound connection endpoint, filters the records with SQL and produces them to a Kafka topic.',
    source: 'HTTP',
    sourceDataFormat: 'JSON, CSV, Avro',
    destination: 'Kafka topic',
    destinationDataFormat: 'JSON, CSV, Avro',
    latestVersion: 1,
    modified: Date.parse('2025-05-10T00:00:00Z'),
    notes: 'Needs an inbound connection endpoint.',
  },
  {
    slug: 's3-to-s3',
    name: 'S3 to S3',
    summary: 'Moves new files from one S3 location to another, converting them to Avro.',
    description: 'Lists new files under an S3 prefix, converts their records to Avro and writes them to another S3 location.',
    source: 'Amazon S3',
    sourceDataFormat: 'JSON, CSV, Avro',
    destination: 'Amazon S3',
    destinationDataFormat: 'Avro',
    latestVersion: 2,
    modified: Date.parse('2025-07-04T00:00:00Z'),
  },
  {
    slug: 'confluent-cloud-to-snowflake',
    name: 'Confluent Cloud to Snowflake',
    summary: 'Moves messages from a Confluent Cloud topic to a Snowflake table.',
    description: 'Consumes messages from a Confluent Cloud topic and loads them into a Snowflake table through Snowpipe.',
    source: 'Confluent Cloud topic',
    sourceDataFormat: 'JSON, CSV, Avro',
    destination: 'Snowflake',
    destinationDataFormat: 'Snowflake table',
    latestVersion: 1,
    modified: Date.parse('2025-10-01T00:00:00Z'),
  },
];

/** The CRN of a ReadyFlow in the emulator's account and region. */
export const readyflowCrn = (info: { region: string; accountId: string }, r: ReadyFlow): string =>
  crn('df', info.region, info.accountId, 'readyFlow', r.slug);

/** When a version of a ReadyFlow was published: a month before the next one. */
export const publishedAt = (r: ReadyFlow, version: number): number => r.modified - (r.latestVersion - version) * 30 * DAY;

/** The flow definition of a version: a NiFi flow from its source to its destination. */
export function readyflowDefinition(r: ReadyFlow, version: number): Doc {
  return {
    flowContents: {
      identifier: `${r.slug}-v${version}`,
      name: r.name,
      comments: r.summary,
      processors: [
        { name: `Read from ${r.source}`, type: 'org.apache.nifi.processors.standard.GenerateFlowFile' },
        { name: `Write to ${r.destination}`, type: 'org.apache.nifi.processors.standard.PutFile' },
      ],
      connections: [{ source: `Read from ${r.source}`, destination: `Write to ${r.destination}` }],
    },
    parameterContexts: {},
    flowEncodingVersion: '1.0',
  };
}
