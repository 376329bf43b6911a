/**
 * Replication Manager on the operation table; its resources' states are the
 * model's (model/services/replicationmanager/resources.ts). Its clusters are the account's
 * data lakes and Data Hub clusters (read from their services, never
 * changed); only a running one answers. They, what each runs, the
 * credentials each holds and the HBase pairs of its policies are resources
 * read from the world (`readsFrom`), listed beside the clusters that cannot
 * be reached. Cloud credentials, policies and diagnostic commands live in a
 * cluster (`clusterCrn`): the engine finds them there, keeps policy names
 * unique per cluster, and serves creates, updates, deletes, suspend and
 * activate from the records. Written here: the rules a policy definition
 * follows against the clusters and credentials it names, jobs read off the
 * clock, and credentials made and deleted on several clusters at once.
 */
import type { OperationName } from '../../../model/services/replicationmanager/wire.js';
import { resources } from '../../../model/services/replicationmanager/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { readRecord, type EngineRecord } from '../../engine/records.js';
import { code, defineService } from '../../engine/table.js';
import { invalid } from '../../errors.js';
import { createAbfsCredential, createAwsCredential, credentialsOf, credentialsOn, deleteCredential } from './credentials.js';
import { bundle, checkCollection, commandView, fillCollection } from './diagnostics.js';
import * as policies from './policies.js';
import { clusters } from './provides.js';
import * as sites from './sites.js';
import type { R } from './sites.js';

/** Credentials, policies and commands live in the cluster a request names by CRN. */
const ON_CLUSTER = { in: 'world', place: 'clusters', by: ['clusterCrn'] } as const;

/** A read of one running cluster by a request field: an unknown CRN is NOT_FOUND naming the clusters there are. */
const running =
  (field: string, what: string) =>
  (h: Hook<R>, sent: Doc): Doc => ({ ...sent, [field]: sites.reachable(sites.clusterByCrn(h, String(sent[field])), what).crn });

/** The service each replication feature needs. */
const FEATURES = {
  HDFS_REPLICATION: 'HDFS',
  HIVE_REPLICATION: 'HIVE',
  HBASE_REPLICATION: 'HBASE',
  SNAPSHOT_BASED_REPLICATION: 'HDFS',
  CLOUD_REPLICATION: 'HDFS',
};

/** getClusterConfig: what a running cluster runs and supports. */
function clusterConfig(h: Hook<R>, rec: EngineRecord): Doc {
  const c = sites.clusterByCrn(h, rec.id);
  return {
    clusterCrn: c.crn,
    cmApiVersion: sites.cmApiVersion(c),
    underlyingFsForHive: c.cloudPlatform === 'AZURE' ? 'ABFS' : c.cloudPlatform === 'GCP' ? 'GCS' : 'S3',
    dmx: { hbaseSuspend: sites.hbaseSuspend(c) },
    featureSupport: Object.fromEntries(Object.entries(FEATURES).map(([f, service]) => [f, sites.runs(c, service)])),
    services: sites.servicesOf(c).map((name) => ({ name, configs: { service_state: 'STARTED' } })),
  };
}

/** verifyHbaseClusterPair (a read of its source): whether two running clusters with HBase are paired, or ready to be. */
function hbasePairing(h: Hook<R>, rec: EngineRecord, req: Doc): Doc {
  const from = sites.clusterByCrn(h, rec.id);
  const to = sites.reachable(sites.clusterByCrn(h, String(req.destinationClusterCrn)), 'verifying an HBase pair');
  if (from.crn === to.crn) throw invalid(`the source and destination are the same cluster, ${from.name}`);
  const missing = [from, to].filter((c) => !sites.runs(c, 'HBASE'));
  if (missing.length > 0)
    return {
      pairingStatus: 'NOT_READY',
      pairingMessage: `${missing.map((c) => c.name).join(' and ')} run(s) no HBase service`,
    };
  const steps = (c: typeof from): Doc => ({ clusterManagerUrl: sites.managerUrl(c), steps: [] });
  const paired = policies.activePairs(h).some(([s, t]) => s === from.crn && t === to.crn);
  return {
    pairingStatus: paired ? 'PAIRED' : 'NOT_PAIRED',
    ...(paired ? { pairedStatus: 'HEALTHY' } : {}),
    pairingMessage: paired
      ? `${from.name} replicates HBase to ${to.name}`
      : `${from.name} and ${to.name} are ready for an HBase policy: both are cloud clusters, which need no manual steps`,
    beforePolicySteps: { summary: 'No manual steps are needed before creating the policy.', source: steps(from), destination: steps(to) },
    afterPolicySteps: { summary: 'No manual steps are needed after creating the policy.', source: steps(from), destination: steps(to) },
  };
}

/** listPolicies shows the policies of every running cluster; the others are reported unreachable beside them. */
function onRunningClusters(h: Hook<R>): EngineRecord[] {
  const up = new Set(sites.known(h).flatMap((c) => (c.up ? [c.crn] : [])));
  return h
    .records('policy')
    .all()
    .filter((p) => up.has(p.scope));
}

/** The HBase pairs of active policies as records of `hbasePair`. */
const pairRecords = (h: Hook<R>): EngineRecord[] =>
  policies.activePairs(h).map((pair) => readRecord({ id: pair.join(' '), doc: { pairedCrns: [...pair] } }, ''));

/** What listPairedHbaseClusters answers beside the pairs: the running clusters without HBase, and those not running. */
const withoutHbase = (h: Hook<R>): Doc => ({
  crnsMissingHbaseService: sites
    .known(h)
    .filter((c) => c.up && !sites.runs(c, 'HBASE'))
    .map((c) => c.crn),
  ...sites.unreachableOnes(h),
});

export default defineService<OperationName>()({
  service: 'replicationmanager',
  facts: resources,
  resources: {
    credential: { keys: ['credentialId', 'credentialName'], lives: ON_CLUSTER },
    cluster: { keys: ['clusterCrn'], readsFrom: sites.ofRunning((_h, c) => sites.clusterView(c)) },
    serviceStatuses: { keys: ['clusterCrn'], readsFrom: sites.ofRunning(sites.serviceStatuses) },
    clusterCredentials: { keys: ['clusterCrn'], readsFrom: sites.ofRunning(credentialsOn) },
    hbasePair: { keys: [], readsFrom: pairRecords },
    policy: {
      keys: ['policyName', 'policyId'],
      // updateHbasePolicy renames it.
      renames: true,
      lives: ON_CLUSTER,
      // A policy's changes take effect at once.
      minutes: { create: 0, suspend: 0, activate: 0 },
      hooks: {
        show: policies.showPolicy,
        check: {
          create: (h, rec, req) => void policies.policyFields(h, rec, req),
          suspend: (h, rec) => policies.checkAction(h, rec, 'suspend'),
          activate: (h, rec) => policies.checkAction(h, rec, 'activate'),
          update: policies.checkUpdate,
          delete: policies.checkDelete,
        },
        fill: policies.policyFields,
        effect: {
          suspend: (h, rec) => policies.pairFollows(h, rec, 'suspend'),
          activate: (h, rec) => policies.pairFollows(h, rec, 'activate'),
        },
      },
    },
    command: {
      noun: 'command',
      keys: ['commandId'],
      lives: ON_CLUSTER,
      minutes: { create: 3 },
      // A command is named by its policy: the bundle of a policy named `fail-...` fails.
      failsBy: 'doc.name',
      hooks: { check: { create: checkCollection }, fill: fillCollection },
    },
  },
  operations: (r) => ({
    listClusters: r.cluster.list({ beside: sites.unreachableOnes }),
    listClusterServiceStatuses: r.serviceStatuses.list(),
    getClusterConfig: r.cluster.read({ rewrite: running('clusterCrn', 'reading its configuration'), answer: clusterConfig }),
    verifyHbaseClusterPair: r.cluster.read({
      keys: ['sourceClusterCrn'],
      rewrite: running('sourceClusterCrn', 'verifying an HBase pair'),
      answer: hbasePairing,
    }),
    listPairedHbaseClusters: r.hbasePair.list({ beside: withoutHbase }),
    listAllCredentials: r.clusterCredentials.list({ beside: sites.unreachableOnes }),
    getCredentials: r.credential.list({ select: credentialsOf }),
    createAwsCredential: code(createAwsCredential),
    createAbfsCredential: code(createAbfsCredential),
    deleteCredential: code(deleteCredential),
    listPolicies: r.policy.list({ select: onRunningClusters, beside: (h) => ({ ...sites.unreachableOnes(h), policyErrors: [] }) }),
    createPolicy: r.policy.create({ answer: policies.done('created') }),
    createHbasePolicy: r.policy.create({ rewrite: policies.withoutPassword, answer: policies.done('created') }),
    updateHbasePolicy: r.policy.update({ rewrite: policies.hbaseUpdate, answer: policies.done('updated') }),
    suspendPolicy: r.policy.act('suspend', { answer: policies.done('suspended') }),
    suspendHbasePolicy: r.policy.act('suspend', { answer: policies.done('suspended') }),
    activatePolicy: r.policy.act('activate', { answer: policies.done('resumed') }),
    activateHbasePolicy: r.policy.act('activate', { answer: policies.done('resumed') }),
    deletePolicy: r.policy.delete({ answer: policies.done('deleted') }),
    deleteHbasePolicy: r.policy.delete({ answer: policies.done('deleted') }),
    continueHbaseSetup: r.policy.read({ answer: policies.continueSetup }),
    collectDiagnosticBundle: r.command.create({ answer: commandView }),
    getCommandStatus: r.command.read({ answer: commandView }),
    downloadDiagnosticBundle: r.command.read({ answer: bundle }),
  }),
  provides: { clusters: (h) => clusters(h.ctx) },
});
