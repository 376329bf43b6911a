/**
 * The DataFlow control-plane service on the operation table: DataFlow
 * services by environment (services.ts), projects and diagnostics
 * collections in them (projects.ts), the flow catalog with its collections,
 * versions, tags and ReadyFlows (catalog.ts), and the reads of the
 * workload's deployments and flows with what is computed of them
 * (deployments.ts, monitoring.ts), which are dfworkload's records read
 * through the world (contract `dataflows`). States and deletion ends are the
 * model's (model/services/df/resources.ts).
 *
 * A flow definition import comes as cdp sends it: the JSON request is
 * checked and redirected, and the file follows, signed, to the redirected
 * address, where the import is made (the server's redirected uploads).
 */
import type { OperationName } from '../../../model/services/df/wire.js';
import { resources } from '../../../model/services/df/resources.js';
import { code, defineService } from '../../engine/table.js';
import * as catalog from './catalog.js';
import * as deployments from './deployments.js';
import * as monitoring from './monitoring.js';
import * as projects from './projects.js';
import * as services from './services.js';

/** A service's actions are refused while it is disabled (the request is checked before the record is read). */
const LIVE = { rewrite: services.notDisabled } as const;

export default defineService<OperationName>()({
  service: 'df',
  facts: resources,
  seed: (h) => {
    services.preEnable(h);
    catalog.seedReadyflows(h);
  },
  setup: (h) => {
    services.forgetOrphans(h);
    projects.endProjectDeletes(h);
  },
  resources: {
    service: {
      noun: 'DataFlow service',
      // Diagnostics name their service by `dfServiceCrn`.
      keys: ['serviceCrn', 'dfServiceCrn'],
      lives: { in: 'environment', by: ['environmentCrn'] },
      // Certificates and passwords take the default 3; node images are replaced one by one: the service is unavailable meanwhile.
      minutes: { enable: 10, update: 2, upgrade: 8, updateNodeImages: 12, collectDiagnostics: 5, delete: 5 },
      hooks: { check: services.serviceChecks, effect: services.serviceEffects, keep: services.serviceKeeps, show: monitoring.serviceShown },
    },
    kubernetesAccess: {
      noun: 'Kubernetes access of',
      keys: ['cloudUserId'],
      lives: { in: 'parent', parent: 'service', part: true },
      hooks: { check: { create: services.checkGrant } },
    },
    project: {
      keys: ['projectCrn'],
      renames: true,
      lives: { in: 'parent', parent: 'service' },
      hooks: {
        check: { create: projects.checkProject, update: projects.checkProjectUpdate },
        effect: { update: projects.projectUpdated },
        fill: projects.fillProject,
        show: projects.projectShown,
      },
    },
    diagnostics: {
      noun: 'diagnostics collection',
      keys: ['uuid'],
      lives: { in: 'parent', parent: 'service' },
      // A collection has no name: what it says of itself is what the fail- rule reads.
      failsBy: 'doc.description',
      names: 'repeat',
      minutes: { create: 5 },
      hooks: { check: { create: projects.checkDiagnostics }, fill: projects.fillDiagnostics },
    },
    catalogCollection: {
      noun: 'collection',
      keys: ['catalogCollectionCrn'],
      renames: true,
      hooks: { check: { delete: catalog.checkCollectionDelete }, show: catalog.collectionShown },
    },
    flow: {
      noun: 'flow definition',
      keys: ['flowCrn'],
      // "Delete a flow definition and all its versions".
      deletes: { cascades: true },
      hooks: { check: { delete: catalog.checkFlowDelete }, effect: { update: catalog.assigned }, show: catalog.flowShown },
    },
    flowVersion: {
      noun: 'flow version',
      keys: ['flowVersionCrn'],
      lives: { in: 'parent', parent: 'flow' },
      hooks: { show: catalog.versionShown },
    },
    flowVersionTag: {
      noun: 'tag',
      keys: ['tagName'],
      lives: { in: 'parent', parent: 'flowVersion' },
      hooks: { check: { create: catalog.checkTag } },
    },
    // Cloudera's ReadyFlows, made in every account by the seed, each its slug (requests name it by CRN: readyflowNamedIn).
    readyflow: { noun: 'ready flow', keys: ['readyflowCrn'], hooks: { show: catalog.readyflowShown } },
    // Deployments and their flows are dfworkload's, read through the world (deployments.ts).
    deployment: { keys: ['deploymentCrn'], readsFrom: deployments.deploymentsRead, hooks: { show: deployments.deploymentShown } },
    deployedFlow: {
      noun: 'flow',
      keys: ['deployedFlowCrn'],
      lives: { in: 'parent', parent: 'deployment' },
      readsFrom: deployments.flowsRead,
      hooks: { show: deployments.deployedFlowShown },
    },
    // What follows has no record of df's: an added ReadyFlow is a flow definition (catalog.ts), events
    // are computed (monitoring.ts), and the requests df opens are dfworkload's.
    addedReadyflow: { keys: ['addedReadyflowCrn'] },
    event: { keys: ['eventCrn'] },
    deploymentRequest: { keys: ['deploymentRequestCrn'] },
    deployedFlowRequest: { keys: ['deployedFlowRequestCrn'] },
  },
  operations: (r) => ({
    // ---- services
    enableService: code(services.enableService),
    describeService: r.service.read(),
    listServices: r.service.list({ select: services.servicesListed }),
    listDeployableServicesForNewDeployments: r.service.list({ select: services.deployable }),
    updateService: r.service.update(LIVE),
    upgradeService: r.service.act('upgrade', LIVE),
    renewCertificates: r.service.act('renewCertificates', LIVE),
    rotatePassword: r.service.act('rotatePassword', LIVE),
    updateNodeImages: r.service.act('updateNodeImages', LIVE),
    // Its delete is an action of the lifecycle: what the service holds goes or persists as the request says (check.delete).
    disableService: r.service.act('delete', LIVE),
    resetService: code(services.resetService),
    grantUserKubernetesAccess: r.kubernetesAccess.create({ ...LIVE, answer: services.cloudUserOf }),
    revokeUserKubernetesAccess: r.kubernetesAccess.delete({ answer: services.cloudUserOf }),
    listUserKubernetesAccess: r.service.read({ answer: services.kubernetesAccess }),
    getKubeconfig: r.service.read({ answer: services.getKubeconfig }),
    listServiceEvents: r.service.read({ answer: monitoring.serviceWatch.listed }),
    describeServiceEventDetail: r.service.read({ answer: monitoring.serviceWatch.detail }),
    listServiceActiveAlerts: r.service.read({ answer: monitoring.serviceWatch.alerts }),
    listServiceSystemMetrics: r.service.read({ answer: monitoring.listServiceSystemMetrics }),

    // ---- projects and diagnostics
    createProject: r.project.create(),
    describeProject: r.project.read(),
    listProjects: r.project.list({ select: projects.projectsListed }),
    updateProject: r.project.update(),
    deleteProject: code(projects.deleteProject),
    cancelDeleteProject: code(projects.cancelDeleteProject),
    listProjectFilterOptions: code(monitoring.listProjectFilterOptions),
    startGetDiagnosticsCollection: r.diagnostics.create({ answer: projects.diagnosticsStarted }),
    listDiagnostics: r.diagnostics.list({ select: projects.diagnosticsListed }),

    // ---- the catalog
    createCollection: r.catalogCollection.create({ rewrite: catalog.collectionNamedIn }),
    describeCollection: r.catalogCollection.read(),
    listCollections: r.catalogCollection.list({ select: catalog.collectionsListed }),
    updateCollection: r.catalogCollection.update({ rewrite: catalog.collectionRenamedIn }),
    deleteCollection: r.catalogCollection.delete(),
    importFlowDefinition: code(catalog.importFlowDefinition),
    importFlowDefinitionVersion: code(catalog.importFlowDefinitionVersion),
    describeFlow: r.flow.read(),
    listFlowDefinitions: r.flow.list({ select: catalog.flowsListed }),
    assignToCollection: r.flow.update(),
    deleteFlow: r.flow.delete(),
    getFlowVersion: r.flowVersion.read({ answer: catalog.flowDefinitionOf }),
    listFlowDefinitionVersions: r.flowVersion.list({ select: catalog.versionsListed }),
    createFlowVersionTag: r.flowVersionTag.create(),
    listFlowVersionTags: r.flowVersionTag.list(),
    deleteFlowVersionTag: r.flowVersionTag.delete(),
    listReadyflows: r.readyflow.list({ select: catalog.readyflowsListed }),
    describeReadyflow: r.readyflow.read({ rewrite: catalog.readyflowNamedIn, answer: catalog.readyflowDetail }),
    addReadyflow: code(catalog.addReadyflow),
    describeAddedReadyflow: r.flow.read({
      keys: ['addedReadyflowCrn'],
      rewrite: catalog.addedReadyflowIn,
      answer: catalog.addedReadyflowOf,
    }),
    deleteAddedReadyflow: r.flow.delete({
      keys: ['addedReadyflowCrn'],
      rewrite: catalog.addedReadyflowIn,
      answer: catalog.readyflowRemoved,
    }),

    // ---- deployments and their flows (dfworkload's, read through the world)
    initiateDeployment: code(deployments.initiateDeployment),
    initiateFlowInDeployment: code(deployments.initiateFlowInDeployment),
    describeDeployment: r.deployment.read(),
    listDeployments: r.deployment.list({ select: deployments.deploymentsListed }),
    listDeploymentEvents: r.deployment.read({ answer: deployments.deploymentWatch.listed }),
    describeDeploymentEventDetail: r.deployment.read({ answer: deployments.deploymentWatch.detail }),
    listDeploymentActiveAlerts: r.deployment.read({ answer: deployments.deploymentWatch.alerts }),
    listDeploymentKPIs: r.deployment.read({ answer: deployments.deploymentKpis }),
    listDeploymentSystemMetrics: r.deployment.read({ answer: deployments.deploymentSystemMetrics }),
    describeFlowInDeployment: r.deployedFlow.read(),
    listFlowsInDeployment: r.deployedFlow.list({ select: deployments.flowsListed }),
    listFlowEventsInDeployment: r.deployedFlow.read({ answer: deployments.flowWatch.listed }),
    describeFlowEventDetailInDeployment: r.deployedFlow.read({ answer: deployments.flowWatch.detail }),
    listFlowActiveAlertsInDeployment: r.deployedFlow.read({ answer: deployments.flowWatch.alerts }),
    listFlowKpisInDeployment: r.deployedFlow.read({ answer: deployments.flowKpis }),
    listNotifications: code(monitoring.listNotifications),
    listFilterOptions: code(monitoring.listFilterOptions),
  }),
  redirectedUploads: { importFlowDefinition: '/df/catalog/flows/upload', importFlowDefinitionVersion: '/df/catalog/flow-versions/upload' },
});
