/**
 * Image catalogs: the CLI half of the imagecatalog model. Custom catalogs of
 * Cloudera Runtime and FreeIPA images (each image an existing image, the
 * source, customised and published per region), and lookups in the default
 * catalog. Every call answers at once: there is nothing to wait for.
 */
import type { OperationCli, ServiceDefinition } from '../../types.js';
import { operations, service, shapes } from './wire.js';

const SOURCE_IMAGE = '2f7b9c1d-4e6a-4b8c-9d0e-1f2a3b4c5d6e';
const IMAGE = '8a1c3e5b-7d9f-4b2a-8c6e-0d1f2a3b4c5d';
const VM_IMAGES =
  '\'[{"region":"us-west-2","imageReference":"ami-0a1b2c3d4e5f60718"},{"region":"us-east-1","imageReference":"ami-0f1e2d3c4b5a69788"}]\'';

/** What setting a Runtime or a FreeIPA image shares. */
const SET_HELP = {
  sourceImageId: 'Id of the image this one customises (see `imagecatalog default-images find`)',
  vmImages: 'The cloud image per region: [{"region": ..., "imageReference": AMI id, Azure image URL or GCP image name}]',
  imageId: 'Id of the image to add or update; default: a new random id',
  baseParcelUrl: 'Base URL of the parcels the image installs from',
};

const cli: Record<string, OperationCli> = {
  // catalogs
  createCustomCatalog: {
    command: 'catalogs create',
    summary: 'Create an empty custom image catalog for Runtime and FreeIPA images.',
    examples: ['--catalog-name sales-images --description "Hardened images for the sales environments"'],
    fieldHelp: { catalogName: 'Name of the new catalog', description: 'What the catalog is for' },
  },
  listCustomCatalogs: {
    command: 'catalogs list',
    summary: 'List the custom image catalogs you can use.',
    examples: ['', '--output table'],
    listKey: 'imageCatalogs',
    columns: { name: 'name', description: 'description' },
  },
  describeCustomCatalog: {
    command: 'catalogs describe',
    summary: 'Show a custom image catalog and the images in it.',
    examples: ['--catalog-name sales-images'],
  },
  deleteCustomCatalog: {
    command: 'catalogs delete',
    summary: 'Delete a custom image catalog.',
    examples: ['--catalog-name sales-images --yes'],
    destructive: true,
  },

  // images of a custom catalog
  describeCustomImage: {
    command: 'images describe',
    summary: 'Show an image of a custom catalog: its source, versions and cloud images per region.',
    examples: [`--catalog-name sales-images --image-id ${IMAGE}`],
    fieldHelp: { imageId: 'Id of the image (see `imagecatalog catalogs describe`)' },
  },
  setRuntimeImage: {
    command: 'runtime-images set',
    summary: 'Add a customised Cloudera Runtime image to a custom catalog, or update one.',
    examples: [
      `--catalog-name sales-images --source-image-id ${SOURCE_IMAGE} --vm-images ${VM_IMAGES}`,
      `--catalog-name sales-images --source-image-id ${SOURCE_IMAGE} --vm-images ${VM_IMAGES} --image-id ${IMAGE} --base-parcel-url https://archive.example.com/parcels/7.2.18`,
    ],
    fieldHelp: SET_HELP,
  },
  deleteRuntimeImage: {
    command: 'runtime-images delete',
    summary: 'Remove a Cloudera Runtime image from a custom catalog.',
    examples: [`--catalog-name sales-images --image-id ${IMAGE} --yes`],
    fieldHelp: { imageId: 'Id of the Runtime image to remove (see `imagecatalog catalogs describe`)' },
    destructive: true,
  },
  setFreeipaImage: {
    command: 'freeipa-images set',
    summary: 'Add a customised FreeIPA image to a custom catalog, or update one.',
    examples: [`--catalog-name sales-images --source-image-id ${SOURCE_IMAGE} --vm-images ${VM_IMAGES}`],
    fieldHelp: SET_HELP,
  },
  deleteFreeipaImage: {
    command: 'freeipa-images delete',
    summary: 'Remove a FreeIPA image from a custom catalog.',
    examples: [`--catalog-name sales-images --image-id ${IMAGE} --yes`],
    fieldHelp: { imageId: 'Id of the FreeIPA image to remove (see `imagecatalog catalogs describe`)' },
    destructive: true,
  },

  // the default catalog
  findDefaultImage: {
    command: 'default-images find',
    summary: 'Find the default catalog image for a cloud, an image type and a runtime version.',
    examples: ['--provider AWS --image-type RUNTIME --runtime-version 7.2.18', '--provider AZURE --image-type FREEIPA'],
    fieldHelp: {
      provider: 'Cloud provider the image is for',
      imageType: 'RUNTIME for cluster images, FREEIPA for the identity management images',
      runtimeVersion: 'Cloudera Runtime version the image is for, e.g. 7.2.18',
      architecture: 'CPU architecture of the image, e.g. X86_64 or ARM64',
    },
  },
  describeDefaultImage: {
    command: 'default-images describe',
    summary: 'Show an image of the default catalog by id, with its cloud images per region.',
    examples: [`--image-id ${SOURCE_IMAGE}`],
    fieldHelp: { imageId: 'Id of the image (see `imagecatalog default-images find`)' },
  },
};

const definition: ServiceDefinition = {
  name: 'imagecatalog',
  topic: 'imagecatalog',
  summary: 'Custom image catalogs of Runtime and FreeIPA images, and lookups in the default catalog.',
  endpoint: 'api',
  facts: service,
  topics: {
    catalogs: 'Custom image catalogs.',
    images: 'Images of a custom catalog.',
    'runtime-images': 'Cloudera Runtime images of a custom catalog.',
    'freeipa-images': 'FreeIPA images of a custom catalog.',
    'default-images': 'Images of the default catalog.',
  },
  fieldHelp: {
    catalogName: 'Name of the custom image catalog (see `imagecatalog catalogs list`)',
  },
  shapes,
  wire: operations,
  cli,
};

export default definition;
