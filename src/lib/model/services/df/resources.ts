/**
 * What the API says of DataFlow's control-plane resources (the format:
 * ../../resources.ts). A service's state is `status.state` (ServiceState);
 * disabling it (disableService) ends NOT_ENABLED, and the service stays,
 * described and listed, until resetService forgets it ("Only not-enabled
 * services can be reset") or enableService enables it again: there is no
 * retention and no list flag. The catalog's flow definitions carry their kind
 * in their CRN's resource type and in `artifactType`, in the case cdpy and
 * the Ansible collection compare with: `flow` for the account's own,
 * `readyFlow` for one added from a ReadyFlow (whose catalog CRN is a
 * `readyFlow` too); a version's CRN is its flow's with `/v.<n>`. A project
 * is DELETING for a while (`deleting: true`, a boolean rather than a status;
 * cancelDeleteProject brings it back), then gone. Deployments and their
 * flows are the workload service's records (../dataflow/resources.ts, where
 * their lifecycles are), read here as the control plane shows them; their
 * CRNs, and the requests that make them, are of this service (`crn:cdp:df:`).
 * The emulator serves df's records from these facts (df is on the
 * operation table); they are checked against the wire by
 * test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

const HEALTHY = ['GOOD_HEALTH', 'CONCERNING_HEALTH'] as const;
/** The states a service's work may begin in: healthy, or (disable and diagnostics) failed. */
const RUNNING = [...HEALTHY, 'BAD_HEALTH'] as const;

export const resources = {
  resources: {
    service: {
      shape: 'Service',
      crnType: 'service',
      lifecycle: {
        enable: { through: ['ENABLING'], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
        update: { from: HEALTHY, through: ['UPDATING'], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
        upgrade: { from: HEALTHY, through: ['UPGRADING'], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
        renewCertificates: { from: HEALTHY, through: ['RENEWING_CERTS'], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
        rotatePassword: { from: HEALTHY, through: ['ROTATING_PASSWORD'], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
        updateNodeImages: { from: HEALTHY, through: ['UPDATING'], success: 'GOOD_HEALTH', failure: 'BAD_HEALTH' },
        // Back to the state it began in; the collection's own outcome is its record's (diagnostics).
        collectDiagnostics: { from: RUNNING, through: ['COLLECTING_DIAGNOSTICS'] },
        // disableService.
        delete: { from: RUNNING, through: ['DISABLING'], success: 'NOT_ENABLED' },
      },
      deleted: { ends: 'kept', status: 'NOT_ENABLED' },
      // A user's Kubernetes access, gone from listUserKubernetesAccess once revoked.
      deletedBy: { revokeUserKubernetesAccess: 'held' },
    },
    /** A cloud user allowed to reach a service's Kubernetes cluster (grantUserKubernetesAccess); revoked, it is gone. */
    kubernetesAccess: {
      shape: 'GrantUserKubernetesAccessResponse',
      fields: { name: 'cloudUserId' },
      deleted: { ends: 'gone' },
    },
    flow: {
      // listFlowDefinitions shows it so (describeFlow as Flow, without artifactType).
      shape: 'FlowSummary',
      crnType: 'flow',
      deleted: { ends: 'gone' },
      values: { artifactType: ['flow', 'readyFlow'] },
    },
    flowVersion: {
      shape: 'FlowVersion',
      // `<flow CRN>/v.<n>`: readyFlow for a version of an added ReadyFlow.
      crnType: 'flow',
      deleted: { ends: 'gone' },
    },
    flowVersionTag: {
      shape: 'FlowVersionTag',
      fields: { name: 'tagName' },
      deleted: { ends: 'gone' },
    },
    catalogCollection: {
      shape: 'CatalogCollection',
      crnType: 'catalogCollection',
      deleted: { ends: 'gone' },
    },
    /** A ReadyFlow of the catalog Cloudera publishes: listed and added, never deleted. */
    readyflow: {
      shape: 'ReadyflowSummary',
      fields: { crn: 'readyflowCrn' },
      crnType: 'readyFlow',
    },
    /** A flow definition added from a ReadyFlow (addReadyflow; deleteAddedReadyflow removes it). */
    addedReadyflow: {
      shape: 'AddedReadyflowDetails',
      fields: { crn: 'addedReadyflowCrn' },
      crnType: 'readyFlow',
      deleted: { ends: 'gone' },
    },
    project: {
      shape: 'Project',
      crnType: 'project',
      deleted: { ends: 'gone' },
    },
    diagnostics: {
      shape: 'ListDiagnosticsResponseItem',
      fields: { id: 'uuid' },
      lifecycle: { create: { through: ['INPROGRESS'], success: 'SUCCESS', failure: 'FAILED' } },
    },
    event: {
      shape: 'Event',
      crnType: 'event',
    },
    deployment: {
      shape: 'Deployment',
      crnType: 'deployment',
      // terminateDeployment (dfworkload): TERMINATING, then gone.
      deleted: { ends: 'gone' },
    },
    deployedFlow: {
      shape: 'DeployedFlow',
      crnType: 'deployedFlow',
      // terminateFlowInDeployment (dfworkload): TERMINATING, then gone.
      deleted: { ends: 'gone' },
    },
    /** A request to deploy a flow version as a new deployment (initiateDeployment), used once by dfworkload's createDeployment. */
    deploymentRequest: {
      shape: 'InitiateDeploymentResponse',
      fields: { crn: 'deploymentRequestCrn' },
      crnType: 'deploymentRequest',
    },
    /** A request to deploy a flow version into a deployment (initiateFlowInDeployment), used once by addFlowToDeployment. */
    deployedFlowRequest: {
      shape: 'InitiateFlowInDeploymentResponse',
      fields: { crn: 'deployedFlowRequestCrn' },
      crnType: 'deployedFlowRequest',
    },
  },
} as const satisfies ServiceResources;
