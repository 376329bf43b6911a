/**
 * What the API says of Data Hub's resources (the format: ../../resources.ts):
 * a cluster's states through each action, in StackStatus values
 * (datahub.yaml:2317) and the order a client polling describe waits through
 * them (a request's state before its progress), each with the operation
 * record getOperation shows for it; the maintenance that runs beside a
 * cluster's status (RUNNING, then FINISHED or FAILED: getOperation's
 * operationStatus); how each delete ends (every one gone: a force delete
 * "removes the entry", datahub.yaml:3095, and no list keeps deleted
 * clusters); the CRN types; and the string fields whose descriptions list
 * their values. The emulator's table reads them for its clusters, their
 * maintenance, recipes, templates, definitions and custom configurations.
 * Checked against the wire by test/unit/model/resource-facts.test.ts.
 */
import type { ActionFacts, ServiceResources } from '../../resources.js';

/** An action that changes a running cluster: UPDATE_REQUESTED first when a request of its own starts it (a scale). */
const update = (operation: string, requested: boolean): ActionFacts => ({
  from: ['AVAILABLE'],
  through: requested ? ['UPDATE_REQUESTED', 'UPDATE_IN_PROGRESS'] : ['UPDATE_IN_PROGRESS'],
  success: 'AVAILABLE',
  failure: 'UPDATE_FAILED',
  operation,
});

/** Maintenance beside a cluster's status: one operation record, RUNNING then FINISHED or FAILED. */
const work = (operation: string): ActionFacts => ({ through: ['RUNNING'], success: 'FINISHED', failure: 'FAILED', operation });

/** Recipe.type and RecipeSummary.type: "PRE_SERVICE_DEPLOYMENT, PRE_TERMINATION, ..." (datahub.yaml:1980, 2002). */
const RECIPE_TYPES = ['PRE_SERVICE_DEPLOYMENT', 'PRE_TERMINATION', 'POST_SERVICE_DEPLOYMENT', 'POST_CLOUDERA_MANAGER_START'] as const;

/** Recipes, templates and definitions are deleted in bulk, by their names (deleteRecipes): each named is gone. */
const deletedInBulk = (operation: string) => ({ deleted: { ends: 'gone' }, deletedBy: { [operation]: 'itself' } }) as const;

export const resources = {
  resources: {
    cluster: {
      shape: 'Cluster',
      crnType: 'cluster',
      lifecycle: {
        create: {
          through: ['REQUESTED', 'CREATE_IN_PROGRESS'],
          success: 'AVAILABLE',
          failure: 'CREATE_FAILED',
          operation: 'PROVISION',
        },
        stop: {
          from: ['AVAILABLE', 'STOP_FAILED'],
          through: ['STOP_REQUESTED', 'STOP_IN_PROGRESS'],
          success: 'STOPPED',
          failure: 'STOP_FAILED',
          operation: 'STOP',
        },
        start: {
          from: ['STOPPED', 'START_FAILED'],
          through: ['START_REQUESTED', 'START_IN_PROGRESS'],
          success: 'AVAILABLE',
          failure: 'START_FAILED',
          operation: 'START',
        },
        // scaleCluster, adding or removing instances.
        upscale: update('UPSCALE', true),
        downscale: update('DOWNSCALE', true),
        repair: {
          from: ['AVAILABLE', 'NODE_FAILURE'],
          through: ['RECOVERY_REQUESTED', 'RECOVERY_IN_PROGRESS'],
          success: 'AVAILABLE',
          failure: 'RECOVERY_FAILED',
          operation: 'REPAIR',
        },
        upgrade: update('UPGRADE', false),
        // Instance types change on a stopped cluster, disks on a running one too: it ends where it began.
        verticalScale: {
          from: ['AVAILABLE', 'STOPPED'],
          through: ['UPDATE_IN_PROGRESS'],
          failure: 'UPDATE_FAILED',
          operation: 'VERTICAL_SCALE',
        },
        databaseUpgrade: update('DATABASE_UPGRADE', false),
        delete: {
          through: ['PRE_DELETE_IN_PROGRESS', 'DELETE_IN_PROGRESS'],
          success: 'DELETE_COMPLETED',
          failure: 'DELETE_FAILED',
          operation: 'DELETION',
        },
      },
      deleted: { ends: 'gone' },
    },
    /**
     * Maintenance of a running cluster, as getOperation shows it (the
     * certificates, secrets, DNS, IMDS, orchestrator state, Java,
     * diagnostics, instance restarts, the KRaft migration...), by the name
     * the emulator gives each kind; at most one of a kind at a time.
     */
    work: {
      shape: 'GetOperationResponse',
      fields: { id: 'operationId', status: 'operationStatus' },
      lifecycle: {
        prepare: work('UPGRADE_PREPARATION'),
        renew: work('CERTIFICATE_RENEWAL'),
        rotate: work('CERTIFICATE_ROTATION'),
        dbcert: work('DATABASE_CERTIFICATE_ROTATION'),
        secrets: work('SECRET_ROTATION'),
        dns: work('UPDATE_PUBLIC_DNS'),
        orchestrator: work('SALT_UPDATE'),
        imds: work('UPDATE_IMDS'),
        java: work('SET_DEFAULT_JAVA_VERSION'),
        sync: work('SYNC_COMPONENT_VERSIONS'),
        diagnostics: work('DIAGNOSTICS_COLLECTION'),
        cmdiagnostics: work('CM_DIAGNOSTICS_COLLECTION'),
        restart: work('RESTART_INSTANCES'),
        stopinstances: work('STOP_INSTANCES'),
        startinstances: work('START_INSTANCES'),
        kraft: work('ZOOKEEPER_TO_KRAFT_MIGRATION'),
        finalize: work('ZOOKEEPER_TO_KRAFT_MIGRATION_FINALIZATION'),
        rollback: work('ZOOKEEPER_TO_KRAFT_MIGRATION_ROLLBACK'),
        skus: work('SKU_MIGRATION'),
      },
    },
    /** A cluster's instance: "GATEWAY, GATEWAY_PRIMARY, CORE" (datahub.yaml:1789); deleteInstances removes it from its group. */
    instance: {
      shape: 'Instance',
      deleted: { ends: 'gone' },
      deletedBy: { deleteInstances: 'itself' },
      values: { instanceType: ['GATEWAY', 'GATEWAY_PRIMARY', 'CORE'] },
    },
    recipe: { shape: 'Recipe', crnType: 'recipe', ...deletedInBulk('deleteRecipes'), values: { type: RECIPE_TYPES } },
    recipeSummary: { shape: 'RecipeSummary', values: { type: RECIPE_TYPES } },
    clusterTemplate: { shape: 'ClusterTemplate', crnType: 'clustertemplate', ...deletedInBulk('deleteClusterTemplates') },
    clusterDefinition: { shape: 'ClusterDefinition', crnType: 'clusterdefinition', ...deletedInBulk('deleteClusterDefinitions') },
    customConfigurations: { shape: 'CustomConfigurations', crnType: 'customconfigurations', deleted: { ends: 'gone' } },
    autoScaleRules: { shape: 'AutoScaleRulesResponse', deleted: { ends: 'gone' } },
    /** One step of autoscaling (datahub.yaml:1913 lists its statuses). */
    scalingActivity: {
      shape: 'ScalingActivitySummary',
      values: {
        activityStatus: [
          'ACTIVITY_PENDING',
          'METRICS_COLLECTION_SUCCESS',
          'METRICS_COLLECTION_FAILED',
          'UPSCALE_TRIGGER_SUCCESS',
          'UPSCALE_TRIGGER_FAILED',
          'DOWNSCALE_TRIGGER_SUCCESS',
          'DOWNSCALE_TRIGGER_FAILED',
          'SCHEDULE_BASED_UPSCALE',
          'SCHEDULE_BASED_DOWNSCALE',
          'SCALING_FLOW_IN_PROGRESS',
          'SCALING_FLOW_SUCCESS',
          'SCALING_FLOW_FAILED',
          'POLICY_ADJUSTMENT',
          'UNKNOWN',
        ],
      },
    },
  },
} as const satisfies ServiceResources;
