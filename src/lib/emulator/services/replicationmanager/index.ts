/**
 * Replication Manager on the resource engine. Its clusters are the account's
 * data lakes and Data Hub clusters (read from their services, never
 * changed); only a running one answers. Cloud credentials, policies and
 * diagnostic commands live in a cluster (`clusterCrn`): the engine finds
 * them there, keeps policy names unique per cluster, and serves creates,
 * deletes, suspend and activate from the records. Written here: the rules
 * a policy definition follows against the clusters and credentials it
 * names, jobs read off the clock, HBase pairs, and the list answers that
 * report unreachable clusters.
 */
import type { Hook, ResourceSpec } from '../../engine/index.js';
import type { Within } from '../../engine/spec.js';
import { invalid } from '../../errors.js';
import type { Doc, ServiceModule } from '../../types.js';
import { str } from '../../values.js';
import { allCredentials, createCredential, credentialsOf, deleteCredential } from './credentials.js';
import { BUNDLE, bundle, collecting, commandView } from './diagnostics.js';
import * as policies from './policies.js';
import { clusters } from './provides.js';
import {
  clusterByCrn,
  clusterView,
  cmApiVersion,
  hbaseSuspend,
  known,
  managerUrl,
  reachable,
  runs,
  servicesOf,
  unreachable,
} from './sites.js';

/** Credentials, policies and commands live in the cluster a request names by CRN. */
const ON_CLUSTER: Within = {
  fields: ['clusterCrn'],
  find: (h, crn) => {
    const c = clusterByCrn(h, crn);
    return { scope: c.crn, where: `cluster ${c.name}` };
  },
};

/** An answer of an operation served here, conformed to its response shape. */
const conformed = (h: Hook, doc: Doc): Doc => h.engine.conform(h.ctx, h.service.operation(h.ctx.op.name).output, doc, h.ctx.op.name);

const FEATURES = ['HDFS_REPLICATION', 'HIVE_REPLICATION', 'HBASE_REPLICATION', 'SNAPSHOT_BASED_REPLICATION', 'CLOUD_REPLICATION'];

/** getClusterConfig: what a running cluster runs and supports. */
function clusterConfig(h: Hook, req: Doc): Doc {
  const c = reachable(clusterByCrn(h, String(req.clusterCrn)), 'reading its configuration');
  const has = (s: string): boolean => runs(c, s);
  const supported: Readonly<Record<string, boolean>> = {
    HDFS_REPLICATION: has('HDFS'),
    HIVE_REPLICATION: has('HIVE'),
    HBASE_REPLICATION: has('HBASE'),
    SNAPSHOT_BASED_REPLICATION: has('HDFS'),
    CLOUD_REPLICATION: has('HDFS'),
  };
  return conformed(h, {
    clusterCrn: c.crn,
    cmApiVersion: cmApiVersion(c),
    underlyingFsForHive: c.cloudPlatform === 'AZURE' ? 'ABFS' : c.cloudPlatform === 'GCP' ? 'GCS' : 'S3',
    dmx: { hbaseSuspend: hbaseSuspend(c) },
    featureSupport: Object.fromEntries(FEATURES.map((f) => [f, supported[f] === true])),
    services: servicesOf(c).map((name) => ({ name, configs: { service_state: 'STARTED' } })),
  });
}

/** verifyHbaseClusterPair: whether two running clusters with HBase are paired, or ready to be. */
function verifyPair(h: Hook, req: Doc): Doc {
  const from = reachable(clusterByCrn(h, String(req.sourceClusterCrn)), 'verifying an HBase pair');
  const to = reachable(clusterByCrn(h, String(req.destinationClusterCrn)), 'verifying an HBase pair');
  if (from.crn === to.crn) throw invalid(`the source and destination are the same cluster, ${from.name}`);
  const missing = [from, to].filter((c) => !runs(c, 'HBASE'));
  if (missing.length > 0)
    return conformed(h, {
      pairingStatus: 'NOT_READY',
      pairingMessage: `${missing.map((c) => c.name).join(' and ')} run(s) no HBase service`,
    });
  const steps = (c: typeof from): Doc => ({ clusterManagerUrl: managerUrl(c), steps: [] });
  const paired = policies.activePairs(h).some(([s, t]) => s === from.crn && t === to.crn);
  return conformed(h, {
    pairingStatus: paired ? 'PAIRED' : 'NOT_PAIRED',
    ...(paired ? { pairedStatus: 'HEALTHY' } : {}),
    pairingMessage: paired
      ? `${from.name} replicates HBase to ${to.name}`
      : `${from.name} and ${to.name} are ready for an HBase policy: both are cloud clusters, which need no manual steps`,
    beforePolicySteps: { summary: 'No manual steps are needed before creating the policy.', source: steps(from), destination: steps(to) },
    afterPolicySteps: { summary: 'No manual steps are needed after creating the policy.', source: steps(from), destination: steps(to) },
  });
}

/** listPolicies: the policies of every running cluster; the others are reported unreachable. */
function listPolicies(h: Hook): Doc {
  const clusters = known(h);
  const up = new Set(clusters.filter((c) => c.up).map((c) => c.crn));
  return conformed(h, {
    unreachableClusters: clusters.filter((c) => !c.up).map(unreachable),
    policyErrors: [],
    policies: h
      .resources('policy')
      .all()
      .filter((p) => up.has(p.scope))
      .map((p) => policies.policyView(h, p)),
  });
}

const policy: ResourceSpec = {
  nouns: ['Policy', 'HbasePolicy'],
  shape: 'Policy',
  keys: ['policyName', 'policyId'],
  within: ON_CLUSTER,
  lifecycle: policies.POLICY,
  ops: {
    createPolicy: { verb: 'create', answer: policies.done('created') },
    createHbasePolicy: { verb: 'create', answer: policies.done('created') },
    updateHbasePolicy: { verb: 'update', answer: policies.done('updated') },
    suspendPolicy: { verb: { action: 'suspend' }, answer: policies.done('suspended') },
    suspendHbasePolicy: { verb: { action: 'suspend' }, answer: policies.done('suspended') },
    activatePolicy: { verb: { action: 'activate' }, answer: policies.done('resumed') },
    activateHbasePolicy: { verb: { action: 'activate' }, answer: policies.done('resumed') },
    deletePolicy: { verb: 'delete', answer: policies.done('deleted') },
    deleteHbasePolicy: { verb: 'delete', answer: policies.done('deleted') },
    continueHbaseSetup: { verb: 'read', answer: policies.continueSetup },
  },
  hooks: {
    creating: (h, rec, req) =>
      (h.ctx.op.name === 'createHbasePolicy' ? policies.creatingHbasePolicy : policies.creatingPolicy)(h, rec, req),
    updating: policies.updatingHbasePolicy,
    acting: (h, rec, action) => policies.acting(h, rec, action),
    deleting: policies.deleting,
  },
};

const replicationmanager: ServiceModule = {
  service: 'replicationmanager',
  provides: { clusters },
  engine: {
    resources: {
      credential: {
        shape: 'CredentialDetails',
        keys: ['credentialId', 'credentialName'],
        ops: { getCredentials: { verb: 'list', select: credentialsOf } },
      },
      policy,
      command: {
        noun: 'command',
        nouns: ['DiagnosticBundle'],
        shape: 'GetCommandStatusResponse',
        status: 'bundleStatus',
        keys: ['commandId'],
        within: ON_CLUSTER,
        lifecycle: BUNDLE,
        // A command is named by its policy: the bundle of a policy named `fail-...` fails.
        subject: (rec) => str(rec.doc.name),
        ops: {
          collectDiagnosticBundle: { verb: 'create', answer: commandView },
          getCommandStatus: { verb: 'read', answer: commandView },
          downloadDiagnosticBundle: { verb: 'read', answer: bundle },
        },
        hooks: { creating: collecting },
      },
    },
    handlers: {
      listClusters: (h) =>
        conformed(h, {
          unreachableClusters: known(h)
            .filter((c) => !c.up)
            .map(unreachable),
          clusters: known(h)
            .filter((c) => c.up)
            .map(clusterView),
        }),
      listClusterServiceStatuses: (h) =>
        conformed(h, {
          statuses: known(h)
            .filter((c) => c.up)
            .map((c) => ({ clusterCrn: c.crn, serviceStatuses: servicesOf(c).map((serviceName) => ({ serviceName, status: 'STARTED' })) })),
        }),
      getClusterConfig: clusterConfig,
      listAllCredentials: (h) => conformed(h, allCredentials(h)),
      createAwsCredential: (h, req) => conformed(h, createCredential(h, req, 'AWS')),
      createAbfsCredential: (h, req) => conformed(h, createCredential(h, req, 'ABFS')),
      deleteCredential: (h, req) => conformed(h, deleteCredential(h, req)),
      listPolicies,
      listPairedHbaseClusters: (h) => {
        const clusters = known(h);
        return conformed(h, {
          pairings: policies.activePairs(h).map((pair) => ({ pairedCrns: [...pair] })),
          crnsMissingHbaseService: clusters.filter((c) => c.up && !runs(c, 'HBASE')).map((c) => c.crn),
          unreachableClusters: clusters.filter((c) => !c.up).map(unreachable),
        });
      },
      verifyHbaseClusterPair: verifyPair,
    },
  },
};

export default replicationmanager;
