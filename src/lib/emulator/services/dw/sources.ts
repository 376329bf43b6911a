/**
 * What a cluster keeps to reach external data sources and its users:
 * secrets (stored in its Kubernetes cluster, or registered from the cloud
 * provider's vault), connectors (a kind of source and its connection
 * properties) with the jobs that test them, and the cloud users and groups
 * that may use it. They go with their cluster.
 */
import { failedPrecondition, invalid, notFound } from '../../errors.js';
import type { Hook, Resource } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import type { Doc } from '../../types.js';
import { iso, obj, str, stringMap, text } from '../../values.js';
import { all, cloudOf, clusterOf, type R } from './common.js';

/** Kinds of data source connectors are made for. */
const CONNECTOR_TEMPLATES = 'postgresql mysql mariadb oracle mssql db2 hive iceberg kudu snowflake redshift'.split(' ');

// ---- users -----------------------------------------------------------------------

const AWS_PRINCIPAL = /^arn:aws(-[a-z]+)*:iam::\d{12}:(role|user|group)\/.+$/;
const AZURE_OBJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A cloud user or group given access to a cluster: IAM ARNs on AWS, group object ids on Azure. */
export const user: Resource<R> = {
  noun: 'user',
  keys: ['userId'],
  lives: { in: 'parent', parent: 'cluster', part: true },
  hooks: {
    check: {
      create: (h, rec: EngineRecord, req) => {
        const cluster = clusterOf(h, rec);
        const id = text(req.userId);
        const cloud = cloudOf(cluster);
        if (cloud === 'AWS' && !AWS_PRINCIPAL.test(id))
          throw invalid(`userId ${id} is not an IAM user, role or group ARN (arn:aws:iam::<account>:role/<name>), as AWS clusters take`);
        if (cloud === 'AZURE' && !AZURE_OBJECT_ID.test(id))
          throw invalid(`userId ${id} is not the object id of an Azure AD group, as Azure clusters take`);
        if (h.records('user').find(id, cluster.id)) throw failedPrecondition(`${id} already has access to cluster ${cluster.id}`);
        rec.name = id;
      },
    },
  },
};

// ---- secrets -----------------------------------------------------------------------

/** What `secrets delete` answers: the secret's name. */
export const secretDeleted = (_h: Hook, rec: EngineRecord): Doc => ({ result: { secretName: rec.name } });

/** A secret of a cluster: stored in its Kubernetes cluster (`create`), or registered from the cloud's vault (`register`). */
export const secret: Resource<R> = {
  noun: 'secret',
  keys: ['secretName'],
  lives: { in: 'parent', parent: 'cluster', part: true },
  hooks: {
    fill: (h, rec: EngineRecord, req) => {
      const cluster = clusterOf(h, rec);
      if (!rec.name) throw invalid('give the secret a secretName');
      const cloud = cloudOf(cluster);
      if (h.ctx.op.name === 'createSecret') {
        if (!str(req.secretValue)) throw invalid('give the secretValue to store');
        return { properties: { cloudProvider: 'KUBERNETES', version: '1' }, secretProviderKey: rec.name };
      }
      if (!str(req.secretProviderKey)) throw invalid('give the secretProviderKey: the name of the secret in the vault');
      const vault = str(req.azureVaultName);
      if (cloud === 'AZURE' && !vault) throw invalid('secrets of Azure clusters are registered from a key vault: give azureVaultName');
      if (cloud !== 'AZURE' && vault) throw invalid('azureVaultName is for Azure clusters');
      return { properties: { cloudProvider: cloud ?? 'KUBERNETES', version: '1', ...(vault ? { azureVaultName: vault } : {}) } };
    },
  },
};

// ---- connectors --------------------------------------------------------------------

function checkTemplate(t: string): void {
  if (!CONNECTOR_TEMPLATES.includes(t))
    throw invalid(`template ${t} is not a kind of data source; kinds: ${CONNECTOR_TEMPLATES.join(', ')}`);
}

/** The warehouses that use a connector. */
const usersOf = (h: Hook, c: EngineRecord): EngineRecord[] =>
  all(h, 'vw', c.scope).filter((v) => Object.values(obj(v.doc.associatedConnectors)).some((a) => obj(a).name === c.name));

/** A connector to a kind of data source, renamed by its update; one a warehouse uses is not deleted. */
export const connector: Resource<R> = {
  noun: 'connector',
  keys: ['connectorId'],
  renames: true,
  lives: { in: 'parent', parent: 'cluster', part: true },
  hooks: {
    fill: (h, rec, req) => {
      if (!rec.name) throw invalid('give the connector a name');
      checkTemplate(text(req.template));
      return { config: stringMap(req.config), updatedAt: h.ctx.clock.now(), updatedBy: h.ctx.caller.actorCrn };
    },
    check: {
      update: (h, rec: EngineRecord, req) => {
        if (str(req.template)) checkTemplate(text(req.template));
        Object.assign(rec.doc, { updatedAt: h.ctx.clock.now(), updatedBy: h.ctx.caller.actorCrn });
      },
      delete: (h, rec) => {
        const using = usersOf(h, rec);
        if (using.length > 0)
          throw failedPrecondition(`connector ${nameOf(rec)} is used by ${using.map((v) => `Virtual Warehouse ${nameOf(v)}`).join(', ')}`);
      },
    },
  },
};

/** A test of a connection: it runs a minute, and fails for a connector named fail-... */
export const connectorTest: Resource<R> = {
  noun: 'connector test job',
  keys: ['jobId'],
  lives: { in: 'parent', parent: 'cluster', part: true },
  minutes: { create: 1 },
  failsBy: 'data.connectorName',
  hooks: {
    fill: (h, rec: EngineRecord, req) => {
      const byId = str(req.connectorId);
      const byName = str(req.connectorName);
      const connectors = h.records('connector');
      const c = byId ? connectors.get(byId, rec.scope, `cluster ${rec.scope}`) : byName ? connectors.find(byName, rec.scope) : undefined;
      if (byName && !c) throw notFound(`connector ${byName} not found in cluster ${rec.scope}`);
      const config = { ...stringMap(c?.doc.config), ...stringMap(req.config) };
      if (!c && Object.keys(config).length === 0)
        throw invalid('say what to test: connectorId, connectorName, or the connection properties in config');
      const url = config['connection-url'] ?? config.url ?? '(no connection-url)';
      rec.data = { ...rec.data, connectorName: c?.name ?? '', url };
      const labels = c ? { connector: nameOf(c), template: String(c.doc.template) } : {};
      return { jobId: rec.id, jobStartTime: iso(h.ctx.clock.now()), labels };
    },
    show: (h, rec) => {
      const p = h.records('connectorTest').progress(rec);
      const url = String(rec.data?.url ?? '');
      const log = [`connecting to ${url}`];
      if (p.done) log.push(p.failed ? `connection failed: ${rec.activity.reason ?? 'refused'}` : 'connected; the source answered');
      return { outputLog: log.join('\n'), ...(p.done ? { jobFinishTime: iso(p.endsAt) } : {}) };
    },
  },
};
