/**
 * What the API says of Data Engineering's resources (the format:
 * ../../resources.ts). A disabled service stays visible as
 * ClusterDeletionCompleted (listServices hides it with removeDeleted), and a
 * deleted virtual cluster as AppDeleted (clients filter those out of listVcs
 * themselves): cdpy and the Ansible collection wait for those statuses after
 * a disable or a delete, and read NOT_FOUND as "not there yet". They are
 * kept for a day of emulator time, longer than any client waits. Read by the
 * emulator; checked against the wire by test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

export const resources = {
  resources: {
    cluster: {
      shape: 'ServiceDescription',
      deleted: { ends: 'kept', status: 'ClusterDeletionCompleted', retention: '24h', listed: { hiddenWhen: 'removeDeleted' } },
    },
    vc: {
      shape: 'VcDescription',
      deleted: { ends: 'kept', status: 'AppDeleted', retention: '24h' },
    },
  },
} as const satisfies ServiceResources;
