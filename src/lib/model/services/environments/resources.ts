/**
 * What the API says of the environment service's resources (the format:
 * ../../resources.ts). An environment's status is a free string: its states
 * are those Terraform and the Ansible collection poll for (the audit of
 * issue 28), through creation, stop and start (data hubs, then the data
 * lake, then FreeIPA, and back), deletion, and the changes of a whole
 * environment (CCM upgrade, compute cluster, endpoint gateway, trust), each
 * an operation record (getOperation). FreeIPA's own work passes through its
 * status enum's UPDATE_REQUESTED and UPDATE_IN_PROGRESS. Every delete is
 * gone: an environment's describe answers NOT_FOUND once its delete is
 * over (clients wait for that), credentials, proxy configs and audit
 * credentials at once. Audit credentials are credentials: their CRNs carry
 * `credential`. The emulator reads them all (FreeIPA's work is still its
 * own code's, over these states); checked against the wire by
 * test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

/** FreeIPA work: requested, then under way, ending AVAILABLE or UPDATE_FAILED. */
const FREEIPA_WORK = { through: ['UPDATE_REQUESTED', 'UPDATE_IN_PROGRESS'], success: 'AVAILABLE', failure: 'UPDATE_FAILED' } as const;
/** Outcomes of a storage location validation (ValidateAwsCloudStorageResponse, ValidateAzureCloudStorageResponse). */
const VALIDATION = ['OK', 'ACCESS_DENIED', 'ERROR', 'RESOURCE_NOT_FOUND'] as const;

export const resources = {
  resources: {
    environment: {
      shape: 'Environment',
      crnType: 'environment',
      lifecycle: {
        create: {
          through: [
            'CREATION_INITIATED',
            'ENVIRONMENT_VALIDATION_IN_PROGRESS',
            'NETWORK_CREATION_IN_PROGRESS',
            'FREEIPA_CREATION_IN_PROGRESS',
          ],
          success: 'AVAILABLE',
          failure: 'CREATE_FAILED',
          operation: 'CREATE',
        },
        // A private cloud environment is registered with its Cloudera Manager: no FreeIPA to create.
        register: {
          through: ['CREATION_INITIATED', 'ENVIRONMENT_VALIDATION_IN_PROGRESS', 'ENVIRONMENT_INITIALIZATION_IN_PROGRESS'],
          success: 'AVAILABLE',
          failure: 'CREATE_FAILED',
          operation: 'CREATE',
        },
        stop: {
          from: ['AVAILABLE', 'STOP_FREEIPA_FAILED'],
          through: ['STOP_DATAHUB_STARTED', 'STOP_DATALAKE_STARTED', 'STOP_FREEIPA_STARTED'],
          success: 'ENV_STOPPED',
          failure: 'STOP_FREEIPA_FAILED',
          operation: 'STOP',
        },
        start: {
          from: ['ENV_STOPPED', 'START_FREEIPA_FAILED'],
          through: ['START_FREEIPA_STARTED', 'START_DATALAKE_STARTED', 'START_DATAHUB_STARTED'],
          success: 'AVAILABLE',
          failure: 'START_FREEIPA_FAILED',
          operation: 'START',
        },
        // Its success state is never shown: the environment is gone (NOT_FOUND) when the delete ends.
        delete: {
          through: ['DELETE_INITIATED', 'FREEIPA_DELETE_IN_PROGRESS', 'NETWORK_DELETE_IN_PROGRESS'],
          success: 'ARCHIVED',
          failure: 'DELETE_FAILED',
          operation: 'DELETE',
        },
        upgradeccm: {
          from: ['AVAILABLE'],
          through: [
            'UPGRADE_CCM_VALIDATION_IN_PROGRESS',
            'UPGRADE_CCM_ON_FREEIPA_IN_PROGRESS',
            'UPGRADE_CCM_TUNNEL_UPDATE_IN_PROGRESS',
            'UPGRADE_CCM_ON_DATALAKE_IN_PROGRESS',
            'UPGRADE_CCM_ON_DATAHUB_IN_PROGRESS',
          ],
          success: 'AVAILABLE',
          failure: 'UPGRADE_CCM_FAILED',
          operation: 'UPGRADE_CCM',
        },
        computecluster: {
          from: ['AVAILABLE'],
          through: ['COMPUTE_CLUSTER_CREATION_IN_PROGRESS'],
          success: 'AVAILABLE',
          failure: 'UPDATE_FAILED',
          operation: 'COMPUTE_CLUSTER_CREATION',
        },
        computereinit: {
          from: ['AVAILABLE'],
          through: ['COMPUTE_CLUSTER_REINITIALIZATION_IN_PROGRESS'],
          success: 'AVAILABLE',
          failure: 'UPDATE_FAILED',
          operation: 'COMPUTE_CLUSTER_REINITIALIZATION',
        },
        endpointgateway: {
          from: ['AVAILABLE'],
          through: ['UPDATE_INITIATED', 'LOAD_BALANCER_ENV_UPDATE_STARTED', 'LOAD_BALANCER_STACK_UPDATE_STARTED'],
          success: 'AVAILABLE',
          failure: 'LOAD_BALANCER_ENV_UPDATE_FAILED',
          operation: 'LOAD_BALANCER_UPDATE',
        },
        trustsetup: {
          from: ['AVAILABLE', 'TRUST_SETUP_FAILED'],
          through: ['TRUST_SETUP_VALIDATION_IN_PROGRESS', 'TRUST_SETUP_IN_PROGRESS'],
          success: 'TRUST_SETUP_FINISH_REQUIRED',
          failure: 'TRUST_SETUP_FAILED',
          operation: 'TRUST_SETUP',
        },
        trustfinish: {
          from: ['TRUST_SETUP_FINISH_REQUIRED', 'TRUST_SETUP_FINISH_FAILED'],
          through: ['TRUST_SETUP_FINISH_VALIDATION_IN_PROGRESS', 'TRUST_SETUP_FINISH_IN_PROGRESS'],
          success: 'AVAILABLE',
          failure: 'TRUST_SETUP_FINISH_FAILED',
          operation: 'TRUST_SETUP_FINISH',
        },
        trustcancel: {
          from: [
            'AVAILABLE',
            'TRUST_CANCEL_FAILED',
            'TRUST_SETUP_FINISH_REQUIRED',
            'TRUST_SETUP_FAILED',
            'TRUST_SETUP_FINISH_FAILED',
            'TRUST_REPAIR_FAILED',
          ],
          through: ['TRUST_CANCEL_VALIDATION_IN_PROGRESS', 'TRUST_CANCEL_IN_PROGRESS'],
          success: 'AVAILABLE',
          failure: 'TRUST_CANCEL_FAILED',
          operation: 'TRUST_CANCEL',
        },
        trustrepair: {
          from: ['AVAILABLE', 'TRUST_REPAIR_FAILED'],
          through: ['TRUST_REPAIR_VALIDATION_IN_PROGRESS', 'TRUST_REPAIR_IN_PROGRESS'],
          success: 'AVAILABLE',
          failure: 'TRUST_REPAIR_FAILED',
          operation: 'TRUST_REPAIR',
        },
      },
      deleted: { ends: 'gone' },
    },
    /** An environment's FreeIPA, as getFreeipaStatus shows it: AVAILABLE while no work of its own runs. */
    freeipa: {
      shape: 'GetFreeipaStatusResponse',
      crnType: 'freeipa',
      lifecycle: {
        upscale: { from: ['AVAILABLE'], ...FREEIPA_WORK, operation: 'UPSCALE' },
        downscale: { from: ['AVAILABLE'], ...FREEIPA_WORK, operation: 'DOWNSCALE' },
        repair: { from: ['AVAILABLE', 'UPDATE_FAILED'], ...FREEIPA_WORK, operation: 'REPAIR' },
        upgrade: { from: ['AVAILABLE'], ...FREEIPA_WORK, operation: 'UPGRADE' },
        verticalscale: { from: ['AVAILABLE'], ...FREEIPA_WORK, operation: 'VERTICAL_SCALE' },
        rotatesecrets: { from: ['AVAILABLE'], ...FREEIPA_WORK, operation: 'ROTATE_SECRETS' },
        imds: { from: ['AVAILABLE'], ...FREEIPA_WORK, operation: 'UPDATE_IMDS' },
        saltupdate: { from: ['AVAILABLE'], ...FREEIPA_WORK, operation: 'UPDATE_ORCHESTRATOR_STATE' },
      },
    },
    /** FreeIPA's instances, as an environment's description lists them. */
    freeipaInstance: {
      shape: 'FreeIpaInstance',
      values: { instanceType: ['GATEWAY', 'GATEWAY_PRIMARY'], lifeCycle: ['NORMAL', 'SPOT'] },
    },
    credential: { shape: 'Credential', crnType: 'credential', deleted: { ends: 'gone' } },
    proxyConfig: { shape: 'ProxyConfig', crnType: 'proxyConfig', deleted: { ends: 'gone' } },
    auditCredential: { shape: 'Credential', crnType: 'credential', deleted: { ends: 'gone' } },
    /** A FreeIPA log collection (collectFreeipaDiagnostics). */
    freeipaDiagnostics: {
      shape: 'FreeipaDiagnosticsCollectionResponse',
      lifecycle: { create: { through: ['RUNNING'], success: 'FINISHED', failure: 'FAILED' } },
    },
    /** A user sync or password set (syncStatus); one refused by a sync already running ends REJECTED at once. */
    userSync: {
      shape: 'SyncStatusResponse',
      lifecycle: {
        create: { through: ['REQUESTED', 'RUNNING'], success: 'COMPLETED', failure: 'FAILED' },
        // Refused at once: a client never sees it REQUESTED.
        reject: { through: ['REQUESTED'], success: 'REJECTED', atOnce: true },
      },
    },
    /** An environment's ID Broker mappings: one record per environment. */
    idBrokerMappings: { shape: 'GetIdBrokerMappingsResponse' },
    /** The account's telemetry settings: one record per account, made with the defaults. */
    accountTelemetry: { shape: 'GetAccountTelemetryResponse' },
    /** Whether the account accepted the Azure Marketplace image terms: one record per account. */
    azureImageTerms: { shape: 'GetAzureImageTermsPolicyResponse' },
    /** What validateAwsCloudStorage answers (validateAzureCloudStorage's shape has the same values). */
    cloudStorageValidation: { shape: 'ValidateAwsCloudStorageResponse', values: { status: VALIDATION } },
  },
} as const satisfies ServiceResources;
