/**
 * The environments service on the operation table: environments (the
 * records every other service reads through the world, `provides`), their
 * changes and cross-realm trust (environment.ts), credentials, proxy
 * configurations, audit credentials, ID Broker mappings, FreeIPA
 * diagnostics collections, user syncs and the account's settings on the
 * engine's records; FreeIPA's own work is work of the engine beside its
 * environment (freeipa.ts). What the API says of its resources is
 * model/services/environments/resources.ts.
 */
import type { OperationName } from '../../../model/services/environments/wire.js';
import { resources } from '../../../model/services/environments/resources.js';
import { code, defineService, fixed } from '../../engine/table.js';
import * as env from './environment.js';
import { FREEIPA_LOGS, FREEIPA_SECRET_TYPES, TELEMETRY_DEFAULTS } from './catalogue.js';
import * as credentials from './credentials.js';
import { getKeytab, getRootCertificate } from './identity.js';
import { ENVIRONMENT_MINUTES, NOT_ITS_OWN } from './lifecycles.js';
import { preCreate } from './pre-created.js';
import * as freeipa from './freeipa.js';
import * as account from './account.js';
import * as usersync from './usersync.js';
import * as diagnostics from './diagnostics.js';
import * as idBroker from './id-broker.js';
import { OPERATION_KIND, environments } from './backend.js';

/** A part of its environment: it goes with it, and neither holds up its delete nor follows its stop. */
const PART_OF_ENVIRONMENT = { lives: { in: 'environment', by: ['environmentName'] }, withEnvironment: 'part' } as const;

export default defineService<OperationName>()({
  service: 'environments',
  facts: resources,
  resources: {
    environment: {
      keys: env.ENVIRONMENT_KEYS,
      minutes: ENVIRONMENT_MINUTES,
      // Its FreeIPA's work, user syncs and log collections fail by its name too, and its own actions do not.
      failsFor: NOT_ITS_OWN,
      deletes: { force: ['forced'] },
      goneWith: ['environments.idBrokerMappings', 'environments.freeipaDiagnostics', OPERATION_KIND],
      hooks: {
        fill: env.environmentFields,
        show: env.environmentShown,
        check: {
          delete: env.canDelete,
          stop: env.canStop,
          start: env.canStart,
          upgradeccm: env.canUpgradeCcm,
          computecluster: env.canMakeComputeCluster,
          computereinit: env.canMakeComputeCluster,
          endpointgateway: env.canSetGateway,
          trustsetup: env.canSetUpTrust,
          trustfinish: env.hasTrust('trustfinish'),
          trustcancel: env.hasTrust('trustcancel'),
          trustrepair: env.hasTrust('trustrepair'),
        },
        effect: {
          update: env.environmentChange,
          stop: env.stopsWhatRuns,
          start: env.startsWhatRuns,
          upgradeccm: () => ({ tunnel: 'CCMV2_JUMPGATE' }),
          computecluster: env.computeClusterMade,
          computereinit: env.computeClusterMade,
          endpointgateway: env.gatewaySet,
          trustsetup: env.trustSetUp,
          trustfinish: env.trustFinished,
          trustcancel: env.trustCancelled,
        },
      },
    },
    freeipa: freeipa.freeipaWork,
    freeipaInstance: { keys: [] },
    credential: {
      keys: ['credentialName'],
      hooks: { fill: credentials.credentialFields, check: { delete: credentials.credentialInUse } },
    },
    proxyConfig: { noun: 'proxy configuration', keys: ['proxyConfigName'], hooks: { check: { delete: credentials.proxyInUse } } },
    cloudStorageValidation: { keys: [] },
    idBrokerMappings: {
      noun: 'ID Broker mappings',
      keys: [],
      ...PART_OF_ENVIRONMENT,
    },
    accountTelemetry: { noun: 'account telemetry', keys: [], perAccount: account.telemetryDefaults },
    azureImageTerms: { noun: 'Azure image terms policy', keys: [], perAccount: account.imageTermsDefaults },
    auditCredential: {
      noun: 'audit credential',
      keys: ['credentialName'],
      names: 'replace',
      hooks: { fill: credentials.auditCredentialFields },
    },
    freeipaDiagnostics: {
      noun: 'FreeIPA diagnostics collection',
      keys: ['flowId'],
      ...PART_OF_ENVIRONMENT,
      minutes: { create: 5 },
    },
    userSync: { noun: 'user sync operation', keys: ['operationId'], minutes: { create: [0.2, 1.8], reject: 0 } },
  },
  operations: (r) => ({
    attachFreeIpaRecipes: r.environment.update({ rewrite: env.asChange }),
    cancelFreeipaDiagnostics: code(diagnostics.cancelFreeipaDiagnostics),
    cancelTrust: r.environment.act('trustcancel', { rewrite: env.existing, answer: env.flowAndOperation }),
    changeEnvironmentCredential: r.environment.update({ rewrite: env.asChange }),
    checkDatabaseConnectivity: code(account.checkDatabaseConnectivity),
    checkEnvironmentConnectivity: code(account.checkEnvironmentConnectivity),
    checkKubernetesConnectivity: code(account.checkKubernetesConnectivity),
    collectFreeipaDiagnostics: code(diagnostics.collectFreeipaDiagnostics),
    createAWSCredential: r.credential.create(),
    createAWSEnvironment: r.environment.create({ rewrite: env.newEnvironment }),
    createAWSGovCloudCredential: r.credential.create(),
    createAWSGovCloudEnvironment: r.environment.create({ rewrite: env.newEnvironment }),
    createAzureCredential: r.credential.create(),
    createAzureEnvironment: r.environment.create({ rewrite: env.newEnvironment }),
    createGCPCredential: r.credential.create(),
    createGCPEnvironment: r.environment.create({ rewrite: env.newEnvironment }),
    createPrivateEnvironment: r.environment.create({ rewrite: env.newEnvironment, action: 'register' }),
    createProxyConfig: r.proxyConfig.create({ rewrite: credentials.withoutPassword }),
    deleteAuditCredential: r.auditCredential.delete(),
    deleteCredential: r.credential.delete(),
    deleteEnvironment: r.environment.delete({ rewrite: env.existing }),
    deleteProxyConfig: r.proxyConfig.delete(),
    describeEnvironment: r.environment.read({ rewrite: env.existing }),
    detachFreeIpaRecipes: r.environment.update({ rewrite: env.asChange }),
    downscaleFreeipa: r.environment.work('downscale', { rewrite: env.existing, answer: freeipa.downscaleAnswer }),
    finishSetupTrust: r.environment.act('trustfinish', { rewrite: env.existing, answer: env.flowAndOperation }),
    getAccountTelemetry: r.accountTelemetry.read(),
    getAccountTelemetryDefault: fixed(TELEMETRY_DEFAULTS),
    getAuditCredentialPrerequisites: code(account.getAuditCredentialPrerequisites),
    getAutomatedSyncEnvironmentStatus: r.environment.read({ rewrite: env.existing, answer: usersync.automatedSyncStatus }),
    getAzureImageTermsPolicy: r.azureImageTerms.read(),
    getCredentialPrerequisites: code(account.getCredentialPrerequisites),
    getEnvironmentSetting: code(account.getEnvironmentSetting),
    getEnvironmentUserSyncState: r.environment.read({ rewrite: env.existing, answer: usersync.userSyncState }),
    getFreeipaLogDescriptors: fixed({ logs: FREEIPA_LOGS }),
    getFreeipaStatus: r.environment.read({ rewrite: env.existing, answer: freeipa.freeipaStatus }),
    getFreeipaUpgradeOptions: r.environment.read({ rewrite: env.existing, answer: freeipa.upgradeOptionsAnswer }),
    getGovCloudAuditCredentialPrerequisites: code(account.getGovCloudAuditCredentialPrerequisites),
    getGovCloudCredentialPrerequisites: code(account.getGovCloudCredentialPrerequisites),
    getIdBrokerMappings: r.idBrokerMappings.read({ rewrite: idBroker.idBrokerOf }),
    getIdBrokerMappingsSyncStatus: r.idBrokerMappings.read({ rewrite: idBroker.idBrokerOf, answer: idBroker.idBrokerSyncStatus }),
    getKeytab: r.environment.read({ rewrite: env.existing, answer: getKeytab }),
    getOperation: r.environment.operation({ rewrite: env.existing }),
    getRepairFreeipaStatus: r.environment.operation({ answer: freeipa.repairStatus }),
    getRootCertificate: code(getRootCertificate),
    getTrustCleanupCommands: r.environment.read({ rewrite: env.existing, answer: env.trustCommands }),
    getTrustSetupCommands: r.environment.read({ rewrite: env.existing, answer: env.trustCommands }),
    initializeAWSComputeCluster: code(env.initializeComputeCluster),
    initializeAzureComputeCluster: code(env.initializeComputeCluster),
    lastSyncStatus: r.environment.read({ rewrite: usersync.syncedEnvironment, answer: usersync.lastSync }),
    listAuditCredentials: r.auditCredential.list(),
    listConnectedDataServices: r.environment.read({ rewrite: env.existing, answer: env.connectedDataServices }),
    listCredentials: r.credential.list({ select: credentials.credentialsNamed }),
    listEnvironments: r.environment.list(),
    listFreeipaDiagnostics: r.freeipaDiagnostics.list({ select: diagnostics.collectionsOf }),
    listFreeipaSecretTypes: fixed({ freeipaSecretTypes: FREEIPA_SECRET_TYPES }),
    listProxyConfigs: r.proxyConfig.list({ select: credentials.proxiesNamed }),
    repairFreeipa: r.environment.work('repair', { rewrite: env.existing, answer: freeipa.repairAnswer }),
    repairTrust: r.environment.act('trustrepair', { rewrite: env.existing, answer: env.flowAndOperation }),
    retryFreeipa: code(freeipa.retryFreeipa),
    rotateFreeipaSecrets: r.environment.work('rotatesecrets', { rewrite: env.existing, answer: freeipa.operationAnswer }),
    rotateSaltPassword: r.environment.work('rotatesecrets', { rewrite: freeipa.saltPassword, answer: freeipa.operationAnswer }),
    setAWSAuditCredential: r.auditCredential.create({ rewrite: credentials.auditCredentialRequest }),
    setAWSGovCloudAuditCredential: r.auditCredential.create({ rewrite: credentials.auditCredentialRequest }),
    setAccountTelemetry: r.accountTelemetry.update({ rewrite: account.telemetryChange }),
    setAzureAuditCredential: r.auditCredential.create({ rewrite: credentials.auditCredentialRequest }),
    setCatalog: r.environment.update({ rewrite: env.asChange }),
    setEndpointAccessGateway: r.environment.act('endpointgateway', { rewrite: env.existing }),
    setEnvironmentSetting: code(account.setEnvironmentSetting),
    setGCPAuditCredential: r.auditCredential.create({ rewrite: credentials.auditCredentialRequest }),
    setIdBrokerMappings: r.idBrokerMappings.update({ rewrite: idBroker.idBrokerChange }),
    setPassword: code(usersync.setPassword),
    setTelemetryFeatures: r.environment.update({ rewrite: env.asChange }),
    setupActiveDirectoryTrust: r.environment.act('trustsetup', { rewrite: env.existing, answer: env.flow }),
    startEnvironment: r.environment.act('start', { rewrite: env.existing }),
    startFreeIpaVerticalScaling: r.environment.work('verticalscale', { rewrite: env.existing, answer: freeipa.verticalScaleAnswer }),
    stopEnvironment: r.environment.act('stop', { rewrite: env.existing }),
    syncAllUsers: code(usersync.syncAllUsers),
    syncIdBrokerMappings: code(idBroker.syncIdBrokerMappings),
    syncStatus: r.userSync.read({ answer: usersync.syncView }),
    syncUser: code(usersync.syncUser),
    testAccountTelemetryRules: code(account.testAccountTelemetryRules),
    updateAwsCredential: r.credential.update({ rewrite: credentials.awsCredentialChange }),
    updateAwsDiskEncryptionParameters: r.environment.update({ rewrite: env.asChange, answer: env.withDiskEncryption }),
    updateAzureAvailabilityZones: r.environment.update({ rewrite: env.asChange }),
    updateAzureCredential: r.credential.update({ rewrite: credentials.azureCredentialChange }),
    updateAzureDatabaseResources: r.environment.update({ rewrite: env.asChange, answer: env.withDatabaseResources }),
    updateAzureEncryptionResources: r.environment.update({ rewrite: env.asChange, answer: env.withResourceEncryption }),
    updateAzureImageTermsPolicy: r.azureImageTerms.update(),
    updateCustomDockerRegistry: r.environment.update({ rewrite: env.asChange }),
    updateDataServiceResources: r.environment.update({ rewrite: env.asChange }),
    updateFreeipaToAwsImdsV1: r.environment.work('imds', { rewrite: env.existing, answer: freeipa.operationAnswer }),
    updateFreeipaToAwsImdsV2: r.environment.work('imds', { rewrite: env.existing, answer: freeipa.operationAnswer }),
    updateOrchestratorState: r.environment.work('saltupdate', { rewrite: env.existing, answer: freeipa.operationAnswer }),
    updateProxyConfig: r.environment.update({ rewrite: env.asChange }),
    updateSecurityAccess: r.environment.update({ rewrite: env.asChange }),
    updateSshKey: r.environment.update({ rewrite: env.asChange }),
    updateSubnet: r.environment.update({ rewrite: env.asChange }),
    updateTags: r.environment.update({ rewrite: env.asChange }),
    upgradeCcm: r.environment.act('upgradeccm', { rewrite: env.existing }),
    upgradeFreeipa: r.environment.work('upgrade', { rewrite: env.existing, answer: freeipa.upgradeAnswer }),
    upscaleFreeipa: r.environment.work('upscale', { rewrite: env.existing, answer: freeipa.upscaleAnswer }),
    validateAwsCloudStorage: code(account.validateAwsCloudStorage),
    validateAzureCloudStorage: code(account.validateAzureCloudStorage),
  }),
  setup: preCreate,
  provides: { environments },
});
