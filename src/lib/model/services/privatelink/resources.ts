/**
 * What the API says of cloudprivatelinks' resources (the format:
 * ../../resources.ts): the private-link endpoints of a customer's VPC or
 * VNet (getPrivateLinkStatus: ENABLED, DISABLED or ERROR), the work each
 * create, update, delete and migrate starts on them (one endpoint status a
 * control-plane component, read by the work's tracking id:
 * IN_PROGRESS, then SUCCESS or ERROR, cloudprivatelinks.yaml's
 * PrivateLinkEndpointStatus.status), and the cloud accounts authorized for
 * a region's private-link services. A delete is work that ends SUCCESS on
 * its tracking id (kept readable), the endpoints gone; a revoked
 * authorization is gone. No
 * CRN is minted for any of them. Checked against the wire by
 * test/unit/model/resource-facts.test.ts.
 */
import type { ServiceResources } from '../../resources.js';

/** Every kind of endpoint work: IN_PROGRESS, then SUCCESS or ERROR. */
const WORK = { through: ['IN_PROGRESS'], success: 'SUCCESS', failure: 'ERROR' } as const;

export const resources = {
  resources: {
    /** The endpoints of one VPC or VNet, as getPrivateLinkStatus tells them. */
    network: {
      shape: 'GetPrivateLinkStatusResponse',
    },
    /**
     * Work on a network's endpoints, by its tracking id: each component's
     * endpoint status (listPrivateLinkEndpointStatuses). The work of a delete
     * stays readable by its tracking id and ends SUCCESS (what Terraform's
     * waitForEndpointToBeDeleted polls for); the endpoints it removed are gone
     * (getPrivateLinkStatus DISABLED).
     */
    endpoint: {
      shape: 'PrivateLinkEndpointStatus',
      lifecycle: { create: WORK, update: WORK, delete: WORK, migrate: WORK },
      deleted: { ends: 'kept', status: 'SUCCESS' },
      deletedBy: { deletePrivateLinkEndpoint: 'itself' },
      values: { status: ['SUCCESS', 'IN_PROGRESS', 'ERROR'] },
    },
    /** A cloud account authorized for the private-link services of a region; revoked, it is gone. */
    access: {
      shape: 'AuthorizePrivateLinkServiceAccessResult',
      deleted: { ends: 'gone' },
    },
  },
} as const satisfies ServiceResources;
