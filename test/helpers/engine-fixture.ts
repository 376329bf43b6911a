/**
 * A small made-up service on the operation table, for the engine's unit
 * tests: its model (shapes, operations, the CLI half the model needs), its
 * resource facts, and a table that uses every verb and deletion end of the
 * declaration language. Clusters live in an environment, stop, start and
 * upgrade, run work beside them (certificates) and stay visible for an hour
 * once deleted; backups live in a cluster and are gone once deleted; notes
 * live in the account with stamped ids; mounts live in a cluster the world
 * knows (its `clusters` place).
 */
import { Service } from '../../src/lib/model/service.js';
import type { OperationCli, ServiceDefinition } from '../../src/lib/model/types.js';
import type { ServiceResources } from '../../src/lib/model/resources.js';
import type { Doc } from '../../src/lib/emulator/engine/context.js';
import type { Hook } from '../../src/lib/emulator/engine/declare.js';
import { failedPrecondition } from '../../src/lib/emulator/errors.js';
import { code, defineService, fixed, verbs } from '../../src/lib/emulator/engine/table.js';

const shapes = {
  ClusterStatus:
    'enum CREATING RUNNING STOPPING STOPPED STARTING UPGRADING DELETING DELETED CREATE_FAILED STOP_FAILED START_FAILED UPGRADE_FAILED DELETE_FAILED',
  Cluster: {
    clusterName: 'string',
    clusterId: 'string',
    crn: 'string',
    environmentCrn: 'string',
    status: 'ClusterStatus',
    statusReason: 'string',
    version: 'string',
    certIssued: 'int64',
    size: 'int32',
    created: 'datetime',
    creator: 'string',
    phase: 'string',
  },
  ClusterRequest: { clusterName: 'string!' },
  ClusterResponse: { cluster: 'Cluster' },
  CreateClusterRequest: { environmentName: 'string!', clusterName: 'string!', size: 'int32' },
  ListClustersRequest: { environmentName: 'string', includeDeleted: 'boolean' },
  ListClustersResponse: { clusters: '[Cluster]' },
  DeleteClusterRequest: { clusterName: 'string!', force: 'boolean' },
  // crn: a variant's entry may name the cluster by it (its own key), as datalake's name a lake by `crn`.
  UpdateClusterRequest: { clusterName: 'string!', crn: 'string', size: 'int32' },
  UpgradeClusterRequest: { clusterName: 'string!', version: 'string' },
  OperationResponse: { operationId: 'string' },
  ClusterStatusDetail: { status: 'ClusterStatus', message: 'string' },
  StopClusterResponse: { clusterStatus: 'ClusterStatusDetail' },
  ListSizesRequest: {},
  ListSizesResponse: { sizes: '[Size]' },
  Size: { name: 'string!', nodes: 'int32' },
  GetOperationRequest: { clusterName: 'string', operationId: 'string' },
  GetOperationResponse: { operationId: 'string', operationName: 'string', operationStatus: 'string', started: 'string', ended: 'string' },
  ClusterEvent: { eventType: 'string', message: 'string', status: 'string' },
  ListClusterEventsResponse: { events: '[ClusterEvent]' },
  ValidateClusterRequest: { clusterName: 'string!', environmentName: 'string!' },
  ValidateClusterResponse: { valid: 'boolean', cluster: 'Cluster' },
  BackupStatus: 'enum IN_PROGRESS SUCCESSFUL FAILED DELETING DELETED',
  Backup: { backupName: 'string', backupId: 'string', status: 'BackupStatus', created: 'datetime' },
  BackupRequest: { clusterName: 'string!', backupName: 'string!' },
  BackupResponse: { backup: 'Backup' },
  ListBackupsRequest: { clusterName: 'string!' },
  ListBackupsResponse: { backups: '[Backup]' },
  WorkStatus: 'enum RUNNING DONE FAILED',
  Work: { id: 'string', status: 'WorkStatus' },
  Note: { noteId: 'string', noteName: 'string', text: 'string' },
  NoteRequest: { noteName: 'string!', text: 'string' },
  NoteResponse: { note: 'Note' },
  ListNotesRequest: {},
  ListNotesResponse: { notes: '[Note]', skipped: '[string]' },
  Mount: { mountName: 'string', hostCrn: 'string' },
  CreateMountRequest: { hostCrn: 'string!', mountName: 'string!' },
  CreateMountResponse: { mount: 'Mount' },
  ListMountsRequest: { hostCrn: 'string!' },
  ListMountsResponse: { mounts: '[Mount]' },
} as const;

/** Operation name -> request and response shapes. */
const OPS = {
  createCluster: ['CreateClusterRequest', 'ClusterResponse'],
  describeCluster: ['ClusterRequest', 'ClusterResponse'],
  listClusters: ['ListClustersRequest', 'ListClustersResponse'],
  updateCluster: ['UpdateClusterRequest', 'ClusterResponse'],
  deleteCluster: ['DeleteClusterRequest', 'ClusterResponse'],
  stopCluster: ['ClusterRequest', 'StopClusterResponse'],
  listSizes: ['ListSizesRequest', 'ListSizesResponse'],
  startCluster: ['ClusterRequest', 'ClusterResponse'],
  upgradeCluster: ['UpgradeClusterRequest', 'ClusterResponse'],
  renewCertificate: ['ClusterRequest', 'OperationResponse'],
  getOperation: ['GetOperationRequest', 'GetOperationResponse'],
  listClusterEvents: ['ClusterRequest', 'ListClusterEventsResponse'],
  validateCluster: ['ValidateClusterRequest', 'ValidateClusterResponse'],
  createBackup: ['BackupRequest', 'BackupResponse'],
  listBackups: ['ListBackupsRequest', 'ListBackupsResponse'],
  deleteBackup: ['BackupRequest', 'BackupResponse'],
  createNote: ['NoteRequest', 'NoteResponse'],
  describeNote: ['NoteRequest', 'NoteResponse'],
  listNotes: ['ListNotesRequest', 'ListNotesResponse'],
  createMount: ['CreateMountRequest', 'CreateMountResponse'],
  listMounts: ['ListMountsRequest', 'ListMountsResponse'],
} as const;

export type WidgetOperation = keyof typeof OPS;

const definition: ServiceDefinition = {
  name: 'widgets',
  topic: 'widgets',
  summary: 'A made-up service for the engine tests',
  endpoint: 'api',
  facts: { name: 'widgets', endpointName: 'widgets', products: ['CDP'], formFactors: ['public'], version: '0' },
  topics: {},
  shapes,
  wire: Object.fromEntries(
    Object.entries(OPS).map(([op, [input, output]]) => [
      op,
      { input, output, path: `/api/v1/widgets/${op}`, mutating: !/^(describe|list|get|validate)/.test(op) },
    ]),
  ),
  cli: Object.fromEntries(Object.keys(OPS).map((op): [string, OperationCli] => [op, { command: op, summary: op }])),
};

/** The made-up service's model. */
export const widgetModel = new Service(definition);

/** Its resource facts, as a service's model/services/<topic>/resources.ts holds them. */
export const widgetFacts = {
  resources: {
    cluster: {
      shape: 'Cluster',
      lifecycle: {
        create: { through: ['CREATING'], success: 'RUNNING', failure: 'CREATE_FAILED' },
        stop: { from: ['RUNNING', 'STOP_FAILED'], through: ['STOPPING'], success: 'STOPPED', failure: 'STOP_FAILED' },
        start: { from: ['STOPPED', 'START_FAILED'], through: ['STARTING'], success: 'RUNNING', failure: 'START_FAILED' },
        upgrade: { from: ['RUNNING'], through: ['UPGRADING'], success: 'RUNNING', failure: 'UPGRADE_FAILED', operation: 'UPGRADE' },
        update: { through: ['UPGRADING'], success: 'RUNNING', failure: 'UPGRADE_FAILED' },
        delete: { through: ['DELETING'], success: 'DELETED', failure: 'DELETE_FAILED', operation: 'DELETE' },
      },
      deleted: { ends: 'kept', status: 'DELETED', retention: '1h', listed: { shownWhen: 'includeDeleted' } },
    },
    certificate: {
      shape: 'Work',
      lifecycle: {
        renew: { through: ['RUNNING'], success: 'DONE', failure: 'FAILED', operation: 'RENEW_CERTIFICATE' },
      },
    },
    backup: {
      shape: 'Backup',
      lifecycle: {
        create: { through: ['IN_PROGRESS'], success: 'SUCCESSFUL', failure: 'FAILED' },
        delete: { through: ['DELETING'], success: 'DELETED', failure: 'FAILED' },
      },
      deleted: { ends: 'gone' },
    },
    note: { shape: 'Note' },
    mount: { shape: 'Mount' },
  },
} as const satisfies ServiceResources;

type R = keyof typeof widgetFacts.resources;

/** Clusters run these versions; an upgrade goes to the next. */
export const VERSIONS = ['1.0', '1.1', '1.2'];

/** A code entry that answers first and then hands the request on to a verb: valid names are created. */
function validateCluster(h: Hook<R>, req: Doc): Doc {
  const name = String(req.clusterName);
  if (name.includes('_')) return { valid: false };
  return { valid: true, ...h.serve(verbs<R>('cluster').create(), req) };
}

/** Who the guard let through, per operation (the tests read it). */
export const guarded: string[] = [];

export const widgets = defineService<WidgetOperation>()({
  service: 'widgets',
  facts: widgetFacts,
  resources: {
    cluster: {
      keys: ['clusterName'],
      lives: { in: 'environment', by: ['environmentName'] },
      ids: { style: 'short', prefix: 'widget' },
      minutes: { create: 10, delete: 2, stop: 3, start: 3, upgrade: 4, update: 1 },
      idempotent: ['stop'],
      deletes: { force: ['force'], forcedAtOnce: true },
      hooks: {
        fill: () => ({ version: VERSIONS[0], certIssued: 0 }),
        check: {
          create: (_h, rec) => {
            if (rec.name === 'taken') throw failedPrecondition('that name is reserved');
          },
          upgrade: (_h, rec) => {
            if (rec.doc.version === VERSIONS[VERSIONS.length - 1]) throw failedPrecondition('already the newest');
          },
        },
        effect: { upgrade: (_h, rec) => ({ version: VERSIONS[VERSIONS.indexOf(String(rec.doc.version)) + 1] }) },
        // `clusterStatus` is no field of a cluster: the engine places it in the answers that have it (stopCluster's).
        show: (h, rec, view) => ({
          phase: h.records('cluster').busy(rec) ? 'busy' : 'idle',
          clusterStatus: { status: view.status, message: `the cluster is ${String(view.status).toLowerCase()}` },
        }),
      },
    },
    certificate: {
      keys: ['id'],
      lives: { in: 'parent', parent: 'cluster', part: true },
      work: true,
      minutes: { renew: 5 },
      hooks: {
        check: {
          renew: (h, parent) => h.records('cluster').require(parent, ['RUNNING'], 'a certificate renewal'),
        },
        effect: { renew: (h) => ({ certIssued: h.ctx.clock.now() }) },
      },
    },
    backup: { keys: ['backupName'], lives: { in: 'parent', parent: 'cluster' }, names: 'repeat' },
    note: { keys: ['noteName'], ids: { style: 'stamped', prefix: 'note' } },
    mount: { keys: ['mountName'], lives: { in: 'world', place: 'clusters', by: ['hostCrn'] } },
  },
  operations: (r) => ({
    createCluster: r.cluster.create(),
    describeCluster: r.cluster.read(),
    listClusters: r.cluster.list(),
    updateCluster: r.cluster.update(),
    deleteCluster: r.cluster.delete(),
    stopCluster: r.cluster.act('stop'),
    startCluster: r.cluster.act('start'),
    upgradeCluster: r.cluster.act('upgrade'),
    renewCertificate: r.cluster.work('renew'),
    getOperation: r.cluster.operation(),
    listClusterEvents: r.cluster.events(),
    validateCluster: code(validateCluster),
    createBackup: r.backup.create(),
    listBackups: r.backup.list(),
    deleteBackup: r.backup.delete(),
    createNote: r.note.create(),
    describeNote: r.note.read({ answer: (_h, rec) => ({ note: { ...rec.doc, text: `${String(rec.doc.text ?? '')}!` } }) }),
    listNotes: r.note.list(),
    createMount: r.mount.create(),
    listMounts: r.mount.list(),
    listSizes: fixed({
      sizes: [
        { name: 'small', nodes: 3 },
        { name: 'large', nodes: 10, extra: true },
      ],
    }),
  }),
  guard: (_h, op) => {
    guarded.push(op);
  },
});
