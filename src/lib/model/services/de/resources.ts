/**
 * What the API says of Data Engineering's resources (the format:
 * ../../resources.ts). Their statuses are free strings in the model; the
 * service writes them in CamelCase (ClusterCreationCompleted, AppInstalled),
 * as cdpy and the Ansible collection read them, and a backup's in lower case
 * (cancelBackup: "The operation must be in a 'pending' state."). A disabled
 * service stays visible as ClusterDeletionCompleted (listServices hides it
 * with removeDeleted), and a deleted virtual cluster as AppDeleted (clients
 * filter those out of listVcs themselves): cdpy and the Ansible collection
 * wait for those statuses after a disable or a delete, and read NOT_FOUND as
 * "not there yet". They are kept for a day of emulator time, longer than any
 * client waits. A deleted backup is gone. None of them has a CRN. Read by the
 * emulator; checked against the wire by test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

const SERVICE_UP = 'ClusterCreationCompleted';
const VC_UP = 'AppInstalled';

export const resources = {
  resources: {
    cluster: {
      shape: 'ServiceDescription',
      lifecycle: {
        create: {
          through: ['ClusterCreationInProgress', 'ClusterProvisioningInProgress'],
          success: SERVICE_UP,
          failure: 'ClusterCreationFailed',
        },
        restore: {
          through: ['ClusterRestoreInProgress', 'ClusterProvisioningInProgress'],
          success: SERVICE_UP,
          failure: 'ClusterCreationFailed',
        },
        // A failed upgrade leaves the service running its old version: it may be upgraded again.
        upgrade: {
          from: [SERVICE_UP, 'ClusterUpgradeFailed'],
          through: ['ClusterUpgradeInProgress'],
          success: SERVICE_UP,
          failure: 'ClusterUpgradeFailed',
        },
        delete: { through: ['ClusterDeletionInProgress'], success: 'ClusterDeletionCompleted', failure: 'ClusterDeletionFailed' },
      },
      deleted: { ends: 'kept', status: 'ClusterDeletionCompleted', retention: '24h', listed: { hiddenWhen: 'removeDeleted' } },
      // "Network outbound type. Currently 'udr' is the only supported." (the request's enum writes it UDR).
      values: { networkOutboundType: ['udr'] },
    },
    vc: {
      shape: 'VcDescription',
      lifecycle: {
        create: { through: ['AppInstalling'], success: VC_UP, failure: 'AppInstallationFailed' },
        // A virtual cluster brought back by a service restore: installed as its service is provisioned.
        restore: { through: ['AppInstalling'], success: VC_UP, failure: 'AppInstallationFailed' },
        suspend: { from: [VC_UP], through: ['AppSuspending'], success: 'AppSuspended', failure: 'AppSuspensionFailed' },
        resume: {
          from: ['AppSuspended', 'AppResumptionFailed'],
          through: ['AppResuming'],
          success: VC_UP,
          failure: 'AppResumptionFailed',
        },
        delete: { through: ['AppDeletionInitiated', 'AppDeletionInProgress'], success: 'AppDeleted', failure: 'AppDeletionFailed' },
      },
      deleted: { ends: 'kept', status: 'AppDeleted', retention: '24h' },
    },
    backup: {
      shape: 'Backup',
      lifecycle: {
        create: { through: ['pending', 'running'], success: 'completed', failure: 'failed' },
        // Only a pending backup can be cancelled, and that at once: a client polling sees pending, then cancelled.
        cancel: { from: ['pending'], through: ['pending'], success: 'cancelled' },
      },
      deleted: { ends: 'gone' },
      values: { status: ['pending', 'running', 'completed', 'failed', 'cancelled'] },
    },
  },
} as const satisfies ServiceResources;
