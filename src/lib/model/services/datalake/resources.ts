/**
 * What the API says of the data lake service's resources (the format:
 * ../../resources.ts). A lake's status is a free string: its states are those
 * Terraform polls for (the issue 28 audit), each long-running action an
 * operation record (getOperation). A delete is gone: describe answers
 * NOT_FOUND once it is over, as clients expect (the CLI's DELETED is a
 * transient state there). Backups and restores run STARTED, then
 * IN_PROGRESS (VALIDATION_* for a validation alone); diagnostics collections
 * RUNNING. Fixed values: what a storage validation answers. The emulator's
 * datalake service reads these (its operation table); checked against the
 * wire by test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

/** A backup's or restore's run, and a validation-only run. */
const RUNS = {
  run: { through: ['STARTED', 'IN_PROGRESS'], success: 'SUCCESSFUL', failure: 'FAILED' },
  validate: { through: ['STARTED', 'IN_PROGRESS'], success: 'VALIDATION_SUCCESSFUL', failure: 'VALIDATION_FAILED' },
} as const;

export const resources = {
  resources: {
    datalake: {
      shape: 'DatalakeDetails',
      crnType: 'datalake',
      lifecycle: {
        create: {
          through: ['REQUESTED', 'EXTERNAL_DATABASE_CREATION_IN_PROGRESS', 'STACK_CREATION_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'PROVISIONING_FAILED',
          operation: 'PROVISION',
        },
        delete: {
          through: ['DELETE_REQUESTED', 'STACK_DELETION_IN_PROGRESS', 'EXTERNAL_DATABASE_DELETION_IN_PROGRESS'],
          success: 'DELETED',
          failure: 'DELETE_FAILED',
          operation: 'DELETION',
        },
        start: {
          from: ['STOPPED', 'START_FAILED'],
          through: ['START_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'START_FAILED',
          operation: 'START',
        },
        stop: {
          from: ['RUNNING', 'STOP_FAILED'],
          through: ['STOP_IN_PROGRESS'],
          success: 'STOPPED',
          failure: 'STOP_FAILED',
          operation: 'STOP',
        },
        resize: { from: ['RUNNING'], through: ['RESIZE_IN_PROGRESS'], success: 'RUNNING', failure: 'RESIZE_FAILED', operation: 'RESIZE' },
        upgrade: {
          from: ['RUNNING'],
          through: ['DATALAKE_UPGRADE_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'DATALAKE_UPGRADE_FAILED',
          operation: 'UPGRADE',
        },
        prepareUpgrade: {
          from: ['RUNNING'],
          through: ['DATALAKE_UPGRADE_PREPARATION_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'DATALAKE_UPGRADE_PREPARATION_FAILED',
          operation: 'UPGRADE_PREPARATION',
        },
        databaseUpgrade: {
          from: ['RUNNING'],
          through: ['DATALAKE_UPGRADE_DATABASE_SERVER_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'DATALAKE_UPGRADE_DATABASE_SERVER_FAILED',
          operation: 'DATABASE_UPGRADE',
        },
        repair: { through: ['REPAIR_IN_PROGRESS'], success: 'RUNNING', failure: 'REPAIR_FAILED', operation: 'REPAIR' },
        recover: {
          from: ['DATALAKE_UPGRADE_FAILED', 'RESIZE_FAILED', 'RECOVERY_FAILED'],
          through: ['RECOVERY_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'RECOVERY_FAILED',
          operation: 'RECOVERY',
        },
        scaleHorizontal: {
          from: ['RUNNING'],
          through: ['DATALAKE_HORIZONTAL_SCALE_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'DATALAKE_HORIZONTAL_SCALE_FAILED',
          operation: 'HORIZONTAL_SCALE',
        },
        scaleVertical: {
          from: ['RUNNING'],
          through: ['DATALAKE_VERTICAL_SCALE_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'DATALAKE_VERTICAL_SCALE_FAILED',
          operation: 'VERTICAL_SCALE',
        },
        restart: {
          from: ['RUNNING'],
          through: ['DATALAKE_RESTART_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'DATALAKE_RESTART_FAILED',
          operation: 'RESTART_INSTANCES',
        },
        renewCertificate: {
          from: ['RUNNING'],
          through: ['CERT_RENEWAL_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'CERT_RENEWAL_FAILED',
          operation: 'CERTIFICATE_RENEWAL',
        },
        rotateCertificates: {
          from: ['RUNNING'],
          through: ['CERT_ROTATION_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'CERT_ROTATION_FAILED',
          operation: 'CERTIFICATE_ROTATION',
        },
        rotateDbCertificate: {
          from: ['RUNNING'],
          through: ['DATABASE_CERT_ROTATION_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'DATABASE_CERT_ROTATION_FAILED',
          operation: 'DATABASE_CERTIFICATE_ROTATION',
        },
        rotateSecrets: {
          from: ['RUNNING'],
          through: ['SECRET_ROTATION_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'SECRET_ROTATION_FAILED',
          operation: 'SECRET_ROTATION',
        },
        javaVersion: {
          from: ['RUNNING'],
          through: ['CHANGE_JAVA_VERSION_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'CHANGE_JAVA_VERSION_FAILED',
          operation: 'SET_DEFAULT_JAVA_VERSION',
        },
        dns: {
          from: ['RUNNING'],
          through: ['PUBLIC_DNS_UPDATE_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'PUBLIC_DNS_UPDATE_FAILED',
          operation: 'UPDATE_PUBLIC_DNS',
        },
        imds: {
          from: ['RUNNING'],
          through: ['IMDS_UPDATE_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'IMDS_UPDATE_FAILED',
          operation: 'UPDATE_IMDS',
        },
        sync: {
          from: ['RUNNING'],
          through: ['SYNC_COMPONENT_VERSIONS_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'SYNC_COMPONENT_VERSIONS_FAILED',
          operation: 'SYNC',
        },
        orchestrator: {
          from: ['RUNNING'],
          through: ['SALT_UPDATE_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'SALT_UPDATE_FAILED',
          operation: 'SALT_UPDATE',
        },
        migrateSkus: {
          from: ['RUNNING'],
          through: ['SKU_MIGRATION_IN_PROGRESS'],
          success: 'RUNNING',
          failure: 'SKU_MIGRATION_FAILED',
          operation: 'SKU_MIGRATION',
        },
      },
      deleted: { ends: 'gone' },
    },
    backup: { shape: 'BackupDatalakeStatusResponse', lifecycle: RUNS },
    restore: { shape: 'RestoreDatalakeStatusResponse', lifecycle: RUNS },
    diagnostics: {
      shape: 'DatalakeDiagnosticsCollectionResponse',
      lifecycle: {
        datalake: { through: ['RUNNING'], success: 'FINISHED', failure: 'FAILED', operation: 'DIAGNOSTICS_COLLECTION' },
        cm: { through: ['RUNNING'], success: 'FINISHED', failure: 'FAILED', operation: 'CM_DIAGNOSTICS_COLLECTION' },
      },
    },
    /** What validateAwsCloudStorage answers (validateAzureCloudStorage's shape has the same values). */
    cloudStorageValidation: {
      shape: 'ValidateAwsCloudStorageResponse',
      values: { status: ['OK', 'ACCESS_DENIED', 'ERROR', 'RESOURCE_NOT_FOUND'] },
    },
  },
} as const satisfies ServiceResources;
