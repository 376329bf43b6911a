/**
 * Image catalogs against the emulator, through the binary: the default
 * catalog every account starts with (lookups by cloud, image type, runtime
 * and architecture; its Runtime images are those data lakes are made from),
 * custom catalogs, and their Runtime and FreeIPA images, each customising a
 * default image of its type, added, updated, described and deleted; a
 * catalog's delete takes its images with it. Refusals (an unknown source or
 * catalog, the wrong image type, clouds mixed, bad ids) write nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunResult, type TestEmulator } from '../helpers/cli.js';

interface VmImage {
  region: string;
  imageReference: string;
}
interface Found {
  imageId: string;
  vmImages: VmImage[];
}
interface CustomImage {
  imageId: string;
  imageType: string;
  provider: string;
  sourceImageId: string;
  imageDate: number;
  versions: Record<string, string>;
  baseParcelUrl?: string;
  vmImages?: VmImage[];
}

let em: TestEmulator;
let runtime: Found;
let freeipa: Found;

const AWS_IMAGES = JSON.stringify([
  { region: 'us-west-2', imageReference: 'ami-0a1b2c3d4e5f60718' },
  { region: 'us-east-1', imageReference: 'ami-0f1e2d3c4b5a69788' },
]);

const refused = (r: RunResult, code: string): void => {
  expect([r.code, r.stderr]).toEqual([1, expect.stringContaining(code)]);
};
const catalog = (name: string) =>
  em.json<{ catalogName: string; description?: string; images?: CustomImage[] }>([
    'imagecatalog',
    'catalogs',
    'describe',
    '--catalog-name',
    name,
  ]);
/** An image of the sales-images catalog. */
const image = (imageId: string) =>
  em.json<CustomImage>(['imagecatalog', 'images', 'describe', '--catalog-name', 'sales-images', '--image-id', imageId]);
/** Sets an image of the sales-images catalog: customising `source`, published as `vmImages`. */
const set = (kind: 'runtime-images' | 'freeipa-images', source: string, vmImages: string, ...more: string[]) =>
  em.cli([
    'imagecatalog',
    kind,
    'set',
    '--catalog-name',
    'sales-images',
    '--source-image-id',
    source,
    '--vm-images',
    vmImages,
    ...more,
    '--output',
    'json',
  ]);

beforeAll(async () => {
  em = await startEmulator();
  runtime = await em.json<Found>(['imagecatalog', 'default-images', 'find', '--provider', 'AWS', '--image-type', 'RUNTIME']);
  freeipa = await em.json<Found>(['imagecatalog', 'default-images', 'find', '--provider', 'AWS', '--image-type', 'FREEIPA']);
});

afterAll(async () => {
  await em?.stop();
});

describe('the default catalog', () => {
  test('find: the newest image of a type for a cloud and runtime, with that cloud images only', async () => {
    expect(runtime.vmImages.length).toBeGreaterThan(0);
    expect(runtime.vmImages.every((v) => v.imageReference.startsWith('ami-'))).toBe(true);
    const azure = await em.json<Found>(['imagecatalog', 'default-images', 'find', '--provider', 'AZURE', '--image-type', 'RUNTIME']);
    expect(azure.imageId).toBe(runtime.imageId);
    expect(azure.vmImages.every((v) => v.imageReference.includes('.blob.core.windows.net/'))).toBe(true);
    const older = await em.json<Found>([
      'imagecatalog',
      'default-images',
      'find',
      '--provider',
      'AWS',
      '--image-type',
      'RUNTIME',
      '--runtime-version',
      '7.2.17',
    ]);
    expect(older.imageId).not.toBe(runtime.imageId);
    expect(freeipa.imageId).not.toBe(runtime.imageId);
    const described = await em.json<Found>(['imagecatalog', 'default-images', 'describe', '--image-id', runtime.imageId]);
    expect(described.imageId).toBe(runtime.imageId);
    // Described, an image shows its cloud images in every cloud.
    expect(described.vmImages.length).toBeGreaterThan(runtime.vmImages.length);
  });

  test('one world: a data lake is made from the Runtime image found here', async () => {
    const lake = await em.json<{ datalake: { datalakeName: string } }>([
      'datalake',
      'create',
      'aws',
      '--datalake-name',
      'imaged-lake',
      '--environment-name',
      'sales-env',
      '--cloud-provider-configuration',
      'instanceProfile=arn:aws:iam::123456789012:instance-profile/idbroker,storageBucketLocation=s3a://imaged/lake',
      '--image',
      `id=${runtime.imageId},catalogName=cdp-default`,
    ]);
    expect(lake.datalake.datalakeName).toBe('imaged-lake');
    const described = await em.cli(['datalake', 'describe', '--datalake-name', 'imaged-lake', '--output', 'json']);
    expect(described.stdout).toContain(runtime.imageId);
  });

  test('lookups that find nothing are NOT_FOUND, saying what there is', async () => {
    const base = ['imagecatalog', 'default-images', 'find', '--provider', 'GCP', '--image-type', 'RUNTIME'];
    const version = await em.cli([...base, '--runtime-version', '6.3.4']);
    refused(version, 'NOT_FOUND');
    expect(version.stderr).toContain('7.2.18');
    refused(await em.cli([...base, '--architecture', 'ARM64']), 'NOT_FOUND');
    refused(
      await em.cli(['imagecatalog', 'default-images', 'describe', '--image-id', '00000000-0000-4000-8000-000000000000']),
      'NOT_FOUND',
    );
    const oci = await em.cli(['imagecatalog', 'default-images', 'find', '--provider', 'OCI', '--image-type', 'RUNTIME']);
    expect(oci.code).toBe(2);
  });
});

describe('custom catalogs', () => {
  test('create, list, describe; names are unique and the default catalog name is taken', async () => {
    await em.json(['imagecatalog', 'catalogs', 'create', '--catalog-name', 'sales-images', '--description', 'Hardened images']);
    refused(await em.cli(['imagecatalog', 'catalogs', 'create', '--catalog-name', 'SALES-images']), 'ALREADY_EXISTS');
    refused(await em.cli(['imagecatalog', 'catalogs', 'create', '--catalog-name', 'cdp-default']), 'ALREADY_EXISTS');
    const list = await em.json<{ imageCatalogs: Array<{ name: string; description?: string }> }>(['imagecatalog', 'catalogs', 'list']);
    expect(list.imageCatalogs).toEqual([{ name: 'sales-images', description: 'Hardened images' }]);
    expect(await catalog('sales-images')).toEqual({ catalogName: 'sales-images', description: 'Hardened images', images: [] });
    refused(await em.cli(['imagecatalog', 'catalogs', 'describe', '--catalog-name', 'nope']), 'NOT_FOUND');
    expect((await em.cli(['imagecatalog', 'catalogs', 'create'])).code).toBe(2);
  });

  test('a Runtime image customises a default Runtime image: its cloud, versions and source come from there; set again, it is updated', async () => {
    const r = await set('runtime-images', runtime.imageId, AWS_IMAGES, '--base-parcel-url', 'https://archive.example.com/parcels/7.2.18');
    expect(r.code).toBe(0);
    const { imageId } = JSON.parse(r.stdout) as { imageId: string };
    expect(imageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await image(imageId)).toMatchObject({
      imageId,
      imageType: 'RUNTIME',
      provider: 'AWS',
      sourceImageId: runtime.imageId,
      versions: { cdp: '7.2.18' },
      baseParcelUrl: 'https://archive.example.com/parcels/7.2.18',
      vmImages: JSON.parse(AWS_IMAGES) as VmImage[],
    });
    const listed = (await catalog('sales-images')).images ?? [];
    expect(listed.map((i) => [i.imageId, i.imageType, i.provider])).toEqual([[imageId, 'RUNTIME', 'AWS']]);
    expect(listed[0]?.vmImages).toBeUndefined();

    const one = JSON.stringify([{ region: 'eu-west-1', imageReference: 'ami-0123456789abcdef0' }]);
    const again = await set('runtime-images', runtime.imageId, one, '--image-id', imageId);
    expect(again.code).toBe(0);
    const updated = await image(imageId);
    expect(updated.vmImages).toEqual(JSON.parse(one) as VmImage[]);
    expect((await catalog('sales-images')).images?.length).toBe(1);
  });

  test('a FreeIPA image customises a default FreeIPA image, for the cloud its regions are in', async () => {
    const gcp = JSON.stringify([{ region: 'us-west1', imageReference: 'my-project/freeipa-hardened' }]);
    const r = await set('freeipa-images', freeipa.imageId, gcp);
    expect(r.code).toBe(0);
    const { imageId } = JSON.parse(r.stdout) as { imageId: string };
    expect(await image(imageId)).toMatchObject({ imageType: 'FREEIPA', provider: 'GCP', sourceImageId: freeipa.imageId });
    expect((await catalog('sales-images')).images?.map((i) => i.imageType).sort()).toEqual(['FREEIPA', 'RUNTIME']);
  });

  test('refused, nothing written: an unknown source or catalog, a source of the other type, clouds mixed, an unknown region, an id not a UUID', async () => {
    const before = (await catalog('sales-images')).images?.length;
    refused(await set('runtime-images', '11111111-2222-4333-8444-555555555555', AWS_IMAGES), 'NOT_FOUND');
    const elsewhere = ['imagecatalog', 'runtime-images', 'set', '--catalog-name', 'nope', '--vm-images', AWS_IMAGES];
    refused(await em.cli([...elsewhere, '--source-image-id', runtime.imageId]), 'NOT_FOUND');
    const wrongType = await set('freeipa-images', runtime.imageId, AWS_IMAGES);
    refused(wrongType, 'INVALID_ARGUMENT');
    expect(wrongType.stderr).toContain('is a Runtime image');
    const mixed = JSON.stringify([
      { region: 'us-west-2', imageReference: 'ami-0a1b2c3d4e5f60718' },
      { region: 'westus2', imageReference: 'https://example.blob.core.windows.net/images/x.vhd' },
    ]);
    refused(await set('runtime-images', runtime.imageId, mixed), 'INVALID_ARGUMENT');
    refused(await set('runtime-images', runtime.imageId, '[{"region":"Mars North","imageReference":"x"}]'), 'INVALID_ARGUMENT');
    refused(await set('runtime-images', runtime.imageId, '[]'), 'INVALID_ARGUMENT');
    refused(await set('runtime-images', runtime.imageId, AWS_IMAGES, '--image-id', 'my-image'), 'INVALID_ARGUMENT');
    expect((await catalog('sales-images')).images?.length).toBe(before);
  });

  test('images are deleted as their type; a catalog delete takes its images with it', async () => {
    const images = (await catalog('sales-images')).images ?? [];
    const ipa = images.find((i) => i.imageType === 'FREEIPA')?.imageId ?? 'missing';
    const rt = images.find((i) => i.imageType === 'RUNTIME')?.imageId ?? 'missing';
    refused(
      await em.cli(['imagecatalog', 'runtime-images', 'delete', '--catalog-name', 'sales-images', '--image-id', ipa, '--yes']),
      'INVALID_ARGUMENT',
    );
    const deleted = await em.json<{ imageId: string }>([
      'imagecatalog',
      'freeipa-images',
      'delete',
      '--catalog-name',
      'sales-images',
      '--image-id',
      ipa,
      '--yes',
    ]);
    expect(deleted).toEqual({ imageId: ipa });
    refused(await em.cli(['imagecatalog', 'images', 'describe', '--catalog-name', 'sales-images', '--image-id', ipa]), 'NOT_FOUND');
    refused(
      await em.cli(['imagecatalog', 'freeipa-images', 'delete', '--catalog-name', 'sales-images', '--image-id', ipa, '--yes']),
      'NOT_FOUND',
    );

    await em.json(['imagecatalog', 'catalogs', 'delete', '--catalog-name', 'sales-images', '--yes']);
    refused(await em.cli(['imagecatalog', 'catalogs', 'describe', '--catalog-name', 'sales-images']), 'NOT_FOUND');
    refused(await em.cli(['imagecatalog', 'images', 'describe', '--catalog-name', 'sales-images', '--image-id', rt]), 'NOT_FOUND');
    // A catalog made again under the name starts empty.
    await em.json(['imagecatalog', 'catalogs', 'create', '--catalog-name', 'sales-images']);
    expect((await catalog('sales-images')).images).toEqual([]);
  });
});
