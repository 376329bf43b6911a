/**
 * Operational databases (COD) on the resource engine. Databases live in an
 * environment, named by environment and database name; their states are the
 * model's (model/services/opdb/resources.ts: create, drop, start, stop,
 * update for scaling, upgrade). Snapshots of a table live in
 * their database, and a restore takes a snapshot into a database of any
 * environment. What the model cannot say is written here: the client
 * connectivity a database's name and environment give (HBase and Phoenix
 * JDBC URLs through its gateway, its Kerberos realm), the runtime versions an
 * upgrade can go to, and which environments the service runs in.
 */
import { resources as facts } from '../../../model/services/opdb/resources.js';
import { environments } from '../../environments.js';
import { failedPrecondition } from '../../errors.js';
import type { EngineRecord, Hook } from '../../engine/index.js';
import type { ServiceModule, Doc } from '../../types.js';
import { str, text } from '../../values.js';

/** Runtime versions a database can be on; the last is the newest. */
const RUNTIMES = ['7.2.17', '7.2.18', '7.3.1'];
const CURRENT_RUNTIME = '7.2.18';

/** Where a database answers: its gateway host, made of its name and environment. */
function gateway(rec: EngineRecord): string {
  const env = String(rec.doc.environmentName ?? 'env');
  return `${rec.name ?? rec.id}-gateway.${env}.cod.emulator.invalid`;
}

function connectivity(h: Hook, rec: EngineRecord): Doc {
  const db = rec.name ?? rec.id;
  const host = gateway(rec);
  const realm = `${String(rec.doc.environmentName ?? 'ENV')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')}.EMULATOR.INVALID`;
  const kerberos = rec.data?.request && (rec.data.request as Doc).disableKerberos === true ? undefined : realm;
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

function versions(rec: EngineRecord): { current: string; newer: string[] } {
  const current = String(rec.doc.dbVersion ?? CURRENT_RUNTIME);
  return { current, newer: RUNTIMES.filter((v) => v.localeCompare(current, undefined, { numeric: true }) > 0) };
}

const component = (cdp: string): Doc => ({ cdp, cm: cdp, os: 'redhat8', osPatchLevel: '2026-10' });

const service: ServiceModule = {
  service: 'opdb',
  engine: {
    facts,
    resources: {
      database: {
        keys: ['databaseName', 'database'],
        environment: ['environmentName', 'environment'],
        ops: {
          describeClientConnectivity: { verb: 'read', answer: connectivity },
          describeUpgradeDatabase: {
            verb: 'read',
            keys: ['database'],
            environment: ['environment'],
            answer: (_h, rec) => {
              const v = versions(rec);
              return {
                currentComponentVersion: component(v.current),
                availableComponentVersions: v.newer.map(component),
                isRuntimeUpgradeAvailable: v.newer.length > 0,
                isOSUpgradeAvailable: true,
                statusReason: v.newer.length > 0 ? `runtime ${v.newer.join(', ')} available` : 'the database runs the newest runtime',
              };
            },
          },
          prepareUpgradeDatabase: {
            verb: 'read',
            keys: ['database'],
            environment: ['environment'],
            answer: (h, rec, req) => {
              const runtime = str(req.runtime);
              if (runtime && !RUNTIMES.includes(runtime))
                throw failedPrecondition(`runtime ${runtime} is not available; available: ${RUNTIMES.join(', ')}`);
              h.resources('database').require(rec, ['AVAILABLE'], 'an upgrade check');
              return { statusReason: `the database is ready to upgrade${runtime ? ` to ${runtime}` : ''}` };
            },
          },
          upgradeDatabase: { verb: { action: 'upgrade' }, keys: ['database'], environment: ['environment'] },
        },
        hooks: {
          creating: (_h, rec) => {
            rec.doc.dbVersion = CURRENT_RUNTIME;
            rec.doc.hueEndpoint = `https://${gateway(rec)}/${rec.name ?? rec.id}/cdp-proxy/hue/`;
            rec.doc.storageLocation = `s3a://${String(rec.doc.environmentName)}-cod/${rec.name ?? rec.id}`;
            rec.doc.internalName = `cod-${rec.id.slice(0, 12)}`;
          },
          acting: (h, rec, action, req) => {
            if (action !== 'upgrade') return;
            h.resources('database').require(rec, ['AVAILABLE'], 'an upgrade');
            const runtime = str(req.runtime);
            if (req.osUpgradeOnly === true) return {};
            const v = versions(rec);
            const to = runtime ?? v.newer[v.newer.length - 1];
            if (!to) throw failedPrecondition(`database ${rec.name ?? rec.id} already runs the newest runtime ${v.current}`);
            if (!v.newer.includes(to))
              throw failedPrecondition(`runtime ${to} is not newer than ${v.current}; available: ${v.newer.join(', ') || 'none'}`);
            return { dbVersion: to };
          },
        },
      },
      snapshot: {
        parent: 'database',
        keys: ['snapshotName'],
        hooks: {
          creating: (h, rec) => {
            const db = h.resources('database');
            const parent = db.byId(rec.scope);
            if (parent) db.require(parent, ['AVAILABLE'], 'a snapshot');
          },
        },
      },
      restore: {
        parent: 'database',
        nouns: ['RestoreSnapshot'],
        keys: ['restoreId'],
        ops: { restoreSnapshot: 'create' },
        hooks: {
          creating: (h, rec, req) => {
            const snapshot = h.resources('snapshot').get(text(req.snapshotName), rec.scope, `database ${text(req.databaseName)}`);
            const dbs = h.resources('database');
            const target = h.engine.locate(h, h.engine.resource('database'), {
              environmentName: req.targetEnvironmentName,
              databaseName: req.targetDatabaseName,
            });
            dbs.require(target, ['AVAILABLE'], 'a restore into it');
            Object.assign(rec.doc, {
              snapshotId: snapshot.doc.snapshotId,
              snapshotName: snapshot.name,
              restoreTime: h.ctx.clock.now(),
              commandID: Number(rec.doc.restoreId),
            });
          },
        },
      },
      diagnostics: {
        parent: 'database',
        nouns: ['Diagnostics'],
        keys: ['id'],
        minutes: { create: 3 },
        ops: { collectDiagnostics: 'create' },
      },
    },
    handlers: {
      listSupportedEnvironments: (h) => ({
        environments: environments(h.ctx)
          .filter((e) => e.cloudPlatform !== 'GCP' && e.status === 'AVAILABLE')
          .map((e) => ({ crn: e.crn, name: e.environmentName })),
      }),
    },
  },
};

export default service;
