/**
 * What the API says of lakehouseopt's resources (the format: ../../resources.ts),
 * from the Java SDK's model (cdpcli 0.9.158 lacks the service): a task of a
 * policy's run goes INIT -> SUBMITTED -> COMPLETED or FAILED
 * (TaskObject.status); a policy's delete is gone; the optimizer's
 * environments run on AWS or Azure. Nothing of this service carries a CRN of
 * its own: the optimizer's Data Hub is a Data Hub (datahub's `cluster` CRNs).
 * Checked against the wire by test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

export const resources = {
  resources: {
    /** An environment as the optimizer reports it (listEnvironments). */
    environment: {
      shape: 'Environment',
      values: { cloudPlatform: ['AZURE', 'AWS'] },
    },
    /** The Data Hub the optimizer runs on in an environment (getCloDatahub); its CRN is a Data Hub's: crn:cdp:datahub:...:cluster:<uuid>. */
    hub: {
      shape: 'GetCloDatahubResponse',
      fields: { name: 'datahubName', crn: 'datahubCrn' },
      crnType: 'cluster',
      values: { cloudPlatform: ['AZURE', 'AWS'] },
    },
    /**
     * A maintenance policy: versions of a script and its arguments. Its status
     * is that of the tables it covers as one (NamespaceAssociation.status
     * values). Its detail's scope, Catalog or Namespace, is a field of
     * getPolicy's answer rather than of this shape, so it is not listed here.
     */
    policy: {
      shape: 'PolicyObject',
      fields: { name: 'policyName', created: 'creationTime' },
      deleted: { ends: 'gone' },
      values: {
        status: ['ERROR', 'SUCCESS', 'PAUSED', 'AUTO_PAUSED', 'USER_PAUSED', 'UNAVAILABLE', 'WARNING'],
      },
    },
    /**
     * A table of the optimizer's catalogue: UNAVAILABLE, SUCCESS or ERROR
     * after its latest task, PAUSED (GetTableStatusDetailsRequest.status).
     * Pausing and unpausing take effect when asked; the status a table shows
     * otherwise is read off its tasks.
     */
    table: {
      shape: 'TableObject',
      fields: { name: 'tableName' },
      lifecycle: {
        pause: { through: ['PAUSED'], success: 'PAUSED', atOnce: true },
        unpause: { from: ['PAUSED'], through: ['PAUSED'], success: 'UNAVAILABLE', atOnce: true },
      },
      values: { status: ['UNAVAILABLE', 'SUCCESS', 'ERROR', 'PAUSED'] },
    },
    /**
     * A maintenance task, made by a policy's run (executePolicy, or its
     * schedule): INIT, SUBMITTED to Spark, then COMPLETED or FAILED
     * (TaskObject.status: "Initially the task status would be INIT and
     * transition to SUBMITTED after submitting to spark. Based on the spark
     * execution it changed to COMPLETED, FAILED.").
     */
    task: {
      shape: 'TaskObject',
      fields: { id: 'taskId', created: 'createdAt' },
      lifecycle: { run: { through: ['INIT', 'SUBMITTED'], success: 'COMPLETED', failure: 'FAILED' } },
      values: { status: ['INIT', 'SUBMITTED', 'COMPLETED', 'FAILED'] },
    },
  },
} as const satisfies ServiceResources;
