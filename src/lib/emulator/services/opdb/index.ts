/**
 * Operational databases (COD) on the operation table. Databases live in an
 * environment, named by environment and database name; their states are the
 * model's (model/services/opdb/resources.ts: create, drop, start, stop,
 * update for scaling, upgrade). Snapshots of a table live in their
 * database, and a restore takes a snapshot into a database of any
 * environment. What the model cannot say is written here: the client
 * connectivity a database's name and environment give (HBase and Phoenix
 * JDBC URLs through its gateway, its Kerberos realm), the runtime versions an
 * upgrade can go to, and which environments the service runs in (records of
 * the environments service, read: `readsFrom`).
 */
import type { OperationName } from '../../../model/services/opdb/wire.js';
import { resources } from '../../../model/services/opdb/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf, readRecord } from '../../engine/records.js';
import { defineService } from '../../engine/table.js';
import { failedPrecondition } from '../../errors.js';
import { DEFAULT_RUNTIME, newerRuntimes, runtimesFrom } from '../../shared/runtimes.js';
import { str, text } from '../../values.js';

type R = keyof typeof resources.resources;
type Rec = Readonly<EngineRecord>;

/** The runtimes a database can be on, oldest first. */
const RUNTIMES = runtimesFrom('7.2.17');
const versions = RUNTIMES.map((r) => r.version);

/** Where a database answers: its gateway host, made of its name and environment. */
const gateway = (rec: Rec): string => `${nameOf(rec)}-gateway.${String(rec.doc.environmentName ?? 'env')}.cod.emulator.invalid`;

function connectivity(_h: Hook<R>, rec: Rec): Doc {
  const db = nameOf(rec);
  const host = gateway(rec);
  const realm = `${String(rec.doc.environmentName ?? 'ENV')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')}.EMULATOR.INVALID`;
  const kerberos = (rec.data?.request as Doc | undefined)?.disableKerberos === true ? undefined : realm;
  return {
    connectors: [
      {
        name: 'hbase',
        version: '2.4.17',
        kind: 'LIBRARY',
        dependencies: { mavenUrl: 'https://repository.cloudera.com/artifactory/cloudera-repos/' },
        configuration: {
          clientConfigurationDetails: [{ name: 'hbase-site.xml', url: `https://${host}/clientConfig/${db}/hbase-site.xml` }],
        },
        requiresKerberos: kerberos !== undefined,
      },
      {
        name: 'phoenix-thin-jdbc',
        version: '6.0.0',
        kind: 'JDBC',
        configuration: {
          jdbcUrl: `jdbc:phoenix:thin:url=https://${host}/${db}/cdp-proxy-api/avatica/;serialization=PROTOBUF;authentication=BASIC`,
        },
        requiresKerberos: false,
      },
      {
        name: 'hbase-rest',
        version: '2.4.17',
        kind: 'SERVICE',
        configuration: { serviceUrl: `https://${host}/${db}/cdp-proxy-api/hbase/` },
        requiresKerberos: false,
      },
    ],
    ...(kerberos
      ? { kerberosConfiguration: { kdcHost: `ipa.${host}`, realm: kerberos, krb5Conf: `[libdefaults]\n  default_realm = ${kerberos}\n` } }
      : {}),
  };
}

/** FAILED_PRECONDITION unless the database (when there is one) is AVAILABLE for `what`. */
function requireAvailable(h: Hook<R>, db: Rec | undefined, what: string): void {
  if (db) h.records('database').require(db, ['AVAILABLE'], what);
}

/** The runtime a database runs, and the newer ones it may go to. */
function runtimesOf(rec: Rec): { current: string; newer: string[] } {
  const current = String(rec.doc.dbVersion ?? DEFAULT_RUNTIME);
  return { current, newer: newerRuntimes(current, RUNTIMES) };
}

const component = (cdp: string): Doc => ({ cdp, cm: cdp, os: 'redhat8', osPatchLevel: '2026-10' });

function upgradeOptions(_h: Hook<R>, rec: Rec): Doc {
  const v = runtimesOf(rec);
  return {
    currentComponentVersion: component(v.current),
    availableComponentVersions: v.newer.map(component),
    isRuntimeUpgradeAvailable: v.newer.length > 0,
    isOSUpgradeAvailable: true,
    statusReason: v.newer.length > 0 ? `runtime ${v.newer.join(', ')} available` : 'the database runs the newest runtime',
  };
}

function upgradeCheck(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const runtime = str(req.runtime);
  if (runtime && !versions.includes(runtime))
    throw failedPrecondition(`runtime ${runtime} is not available; available: ${versions.join(', ')}`);
  requireAvailable(h, rec, 'an upgrade check');
  return { statusReason: `the database is ready to upgrade${runtime ? ` to ${runtime}` : ''}` };
}

/** The runtime an upgrade moves to: the one asked for, else the newest (none for an OS upgrade alone). */
function upgradeTo(_h: Hook<R>, rec: Rec, req: Doc): Doc {
  if (req.osUpgradeOnly === true) return {};
  const v = runtimesOf(rec);
  const to = str(req.runtime) ?? v.newer[v.newer.length - 1];
  if (!to) throw failedPrecondition(`database ${nameOf(rec)} already runs the newest runtime ${v.current}`);
  if (!v.newer.includes(to))
    throw failedPrecondition(`runtime ${to} is not newer than ${v.current}; available: ${v.newer.join(', ') || 'none'}`);
  return { dbVersion: to };
}

/** A restore: the snapshot it takes, into a target database that must be up. */
function restoreOf(h: Hook<R>, rec: Rec, req: Doc): Doc {
  const snapshot = h.records('snapshot').get(text(req.snapshotName), rec.scope, `database ${text(req.databaseName)}`);
  const target = h.locate('database', { environmentName: req.targetEnvironmentName, databaseName: req.targetDatabaseName });
  requireAvailable(h, target, 'a restore into it');
  return {
    snapshotId: snapshot.doc.snapshotId,
    snapshotName: snapshot.name,
    restoreTime: h.ctx.clock.now(),
    commandID: Number(rec.doc.restoreId),
  };
}

/** The environments COD runs in: AWS and Azure ones that are up. */
const supportedEnvironments = (h: Hook<R>): EngineRecord[] =>
  h.world.environments
    .all()
    .filter((e) => e.cloudPlatform !== 'GCP' && e.status === 'AVAILABLE')
    .map((e) => readRecord({ id: e.crn, crn: e.crn, name: e.environmentName, doc: { crn: e.crn, name: e.environmentName } }, ''));

/** Upgrades name the database and its environment in fields of their own. */
const UPGRADE = { keys: ['database'], environment: ['environment'] } as const;

export default defineService<OperationName>()({
  service: 'opdb',
  facts: resources,
  resources: {
    database: {
      keys: ['databaseName', 'database'],
      lives: { in: 'environment', by: ['environmentName', 'environment'] },
      // A request is accepted in half a minute; the work takes the rest.
      minutes: { create: [0.5, 4.5], delete: [0.5, 1.5], upgrade: [0.5, 2.5] },
      hooks: {
        fill: (_h, rec) => ({
          dbVersion: DEFAULT_RUNTIME,
          hueEndpoint: `https://${gateway(rec)}/${nameOf(rec)}/cdp-proxy/hue/`,
          storageLocation: `s3a://${String(rec.doc.environmentName)}-cod/${nameOf(rec)}`,
          internalName: `cod-${rec.id.slice(0, 12)}`,
        }),
        check: { upgrade: (h, rec) => requireAvailable(h, rec, 'an upgrade') },
        effect: { upgrade: upgradeTo },
      },
    },
    snapshot: {
      keys: ['snapshotName'],
      lives: { in: 'parent', parent: 'database' },
      minutes: { create: [0.5, 4.5] },
      hooks: { check: { create: (h, rec) => requireAvailable(h, h.records('database').byId(rec.scope), 'a snapshot') } },
    },
    restore: { keys: ['restoreId'], lives: { in: 'parent', parent: 'database' }, hooks: { fill: restoreOf } },
    diagnostics: { keys: ['id'], lives: { in: 'parent', parent: 'database' }, minutes: { create: 3 } },
    environment: { keys: ['crn'], readsFrom: supportedEnvironments },
  },
  operations: (r) => ({
    createDatabase: r.database.create(),
    describeDatabase: r.database.read(),
    listDatabases: r.database.list(),
    updateDatabase: r.database.update(),
    dropDatabase: r.database.delete(),
    startDatabase: r.database.act('start'),
    stopDatabase: r.database.act('stop'),
    upgradeDatabase: r.database.act('upgrade', UPGRADE),
    describeClientConnectivity: r.database.read({ answer: connectivity }),
    describeUpgradeDatabase: r.database.read({ ...UPGRADE, answer: upgradeOptions }),
    prepareUpgradeDatabase: r.database.read({ ...UPGRADE, answer: upgradeCheck }),
    createSnapshot: r.snapshot.create(),
    listSnapshots: r.snapshot.list(),
    deleteSnapshot: r.snapshot.delete(),
    restoreSnapshot: r.restore.create(),
    listRestoreSnapshots: r.restore.list(),
    collectDiagnostics: r.diagnostics.create(),
    listDiagnostics: r.diagnostics.list(),
    listSupportedEnvironments: r.environment.list(),
  }),
});
