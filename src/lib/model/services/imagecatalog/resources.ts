/**
 * What the API says of the image catalog service's resources (the format:
 * ../../resources.ts): custom catalogs, the Runtime and FreeIPA images set
 * in them, and the default catalog's images. None has a long-running
 * action; deleting a catalog or an image removes it at once ("has been
 * successfully removed from the catalog", imagecatalog.yaml; the issue 28
 * audit: gone). A catalog's CRN type is CDP's imageCatalog (Crn.java, and
 * the default catalog's CRN in compute's answers); no answer shows a
 * catalog's or an image's CRN. Read by the emulator (services/imagecatalog).
 */
import type { ServiceResources } from '../../resources.js';

export const resources = {
  resources: {
    catalog: { shape: 'CustomImageCatalog', crnType: 'imageCatalog', deleted: { ends: 'gone' } },
    /** A catalog's image, Runtime or FreeIPA (describeCustomImage shows either); each kind has its delete. */
    image: { shape: 'DescribeCustomImageResponse', deleted: { ends: 'gone' }, deletedBy: { deleteFreeipaImage: 'itself' } },
    /** The default catalog's images: the account has them from its first use, and never deletes them. */
    defaultImage: { shape: 'DescribeCustomImageResponse' },
  },
} as const satisfies ServiceResources;
