/** Data Hub records -> wire documents (Cluster, ClusterSummary, InstanceGroup, Instance). */
import type { Doc } from '../../types.js';
import { compact } from '../../values.js';
import type { ClusterRec, DatahubBackend, GroupRec } from './backend.js';

/** An instance's state and Cloudera Manager status while its cluster is in a state. */
function instanceStates(status: string): { state: string; status: string } {
  if (status === 'AVAILABLE') return { state: 'HEALTHY', status: 'SERVICES_HEALTHY' };
  if (status === 'STOPPED') return { state: 'STOPPED', status: 'STOPPED' };
  if (status === 'REQUESTED' || status === 'CREATE_IN_PROGRESS') return { state: 'REQUESTED', status: 'REQUESTED' };
  if (status.endsWith('_FAILED')) return { state: 'UNHEALTHY', status: 'FAILED' };
  return { state: 'HEALTHY', status: 'SERVICES_RUNNING' };
}

function groupView(g: GroupRec, status: string): Doc {
  const st = instanceStates(status);
  return {
    name: g.name,
    instances: g.instances.map((i, k) => ({
      id: i.id,
      state: st.state,
      instanceType: g.type === 'GATEWAY' ? (k === 0 ? 'GATEWAY_PRIMARY' : 'GATEWAY') : 'CORE',
      privateIp: i.privateIp,
      fqdn: i.fqdn,
      status: st.status,
      sshPort: 22,
      clouderaManagerServer: g.type === 'GATEWAY' && k === 0,
      instanceGroup: g.name,
      availabilityZone: i.availabilityZone,
      instanceVmType: g.instanceType,
      subnetId: i.subnetId,
    })),
    subnetIds: [...new Set(g.instances.map((i) => i.subnetId))],
    availabilityZones: [...new Set(g.instances.map((i) => i.availabilityZone))],
    recipes: g.recipes,
  };
}

const nodeCount = (c: ClusterRec): number => c.groups.reduce((n, g) => n + g.instances.length, 0);

/** The wire `Cluster` (describeCluster, the creates). */
export function clusterView(b: DatahubBackend, c: ClusterRec): Doc {
  const status = b.status(c);
  return compact({
    clusterName: c.clusterName,
    crn: c.crn,
    creationDate: c.creationDate,
    status,
    nodeCount: nodeCount(c),
    instanceGroups: c.groups.map((g) => groupView(g, status)),
    workloadType: c.workloadType,
    cloudPlatform: c.cloudPlatform,
    environmentCrn: c.environmentCrn,
    datalakeCrn: c.datalakeCrn,
    clusterTemplateCrn: c.clusterTemplateCrn,
    statusReason: c.statusReason ?? (b.clusters.progress(c).failed ? c.activity.reason : undefined),
    clouderaManager: { version: '7.12.0', platformVersion: '7.2.18' },
    multiAz: c.multiAz,
  });
}

/** The wire `ClusterSummary` (listClusters). */
export function summaryView(b: DatahubBackend, c: ClusterRec): Doc {
  return compact({
    clusterName: c.clusterName,
    crn: c.crn,
    status: b.status(c),
    workloadType: c.workloadType,
    environmentCrn: c.environmentCrn,
    environmentName: b.environmentName(c.environmentCrn),
    cloudPlatform: c.cloudPlatform,
    nodeCount: nodeCount(c),
    creationDate: c.creationDate,
    datalakeCrn: c.datalakeCrn,
    clusterTemplateCrn: c.clusterTemplateCrn,
    certificateExpirationState: 'VALID',
  });
}
