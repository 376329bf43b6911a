/**
 * The emulator's image catalog service, driven through the library's client
 * against an emulator in this process: the default catalog (the data lake
 * service's Runtime images and two FreeIPA images, each published in
 * regions of every cloud; lookups find the newest of a type for a cloud
 * and runtime), custom catalogs (named apart from the default one, unique,
 * deleted with their images), and the Runtime and FreeIPA images set in
 * them, each customising a default image of its type, for one cloud its
 * regions tell, updated in place by id and deleted only as what they are.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import { AWS_LAKE_STORAGE } from '../../../../helpers/lake.js';
import { refused } from '../../../../helpers/refused.js';

let emu: RunningEmulator;
let runtime = '';
let freeipa = '';

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
});

afterAll(async () => {
  await emu?.stop();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the default catalog', () => {
  test("finds the newest Runtime image of a cloud for the default runtime, with its cloud images in that cloud's regions", async () => {
    const found = await emu.client.imagecatalog.findDefaultImage({ provider: 'AWS', imageType: 'RUNTIME' });
    runtime = found.imageId ?? '';
    expect(runtime).toMatch(UUID);
    expect(found.vmImages?.map((v) => v.region)).toEqual([
      'us-east-1',
      'us-east-2',
      'us-west-2',
      'eu-central-1',
      'eu-west-1',
      'ap-southeast-2',
      'us-gov-west-1',
    ]);
    expect(found.vmImages?.every((v) => /^ami-[0-9a-f]{17}$/.test(v.imageReference ?? ''))).toBe(true);
    const gcp = await emu.client.imagecatalog.findDefaultImage({ provider: 'GCP', imageType: 'RUNTIME', runtimeVersion: '7.3.1' });
    expect(gcp.imageId).not.toBe(runtime);
    expect(gcp.vmImages?.map((v) => v.region)).toEqual(['us-west1', 'us-central1', 'us-east1', 'europe-west4', 'asia-southeast1']);
  });

  test('the image found is one the data lake service creates a lake from', async () => {
    const made = await emu.client.datalake.createAWSDatalake({
      datalakeName: 'image-lake',
      environmentName: 'sales-env',
      image: { id: runtime },
      ...AWS_LAKE_STORAGE,
    });
    expect(made.datalake.status).toBe('REQUESTED');
    const other = await refused(
      emu.client.datalake.createAWSDatalake({
        datalakeName: 'other-lake',
        environmentName: 'lakehouse-aws',
        image: { id: '00000000-0000-4000-a000-000000000000' },
        ...AWS_LAKE_STORAGE,
      }),
    );
    expect(other.code).toBe('INVALID_ARGUMENT');
  });

  test('a runtime it has no image for is NOT_FOUND, naming the runtimes it has; so is an unknown image', async () => {
    const old = await refused(emu.client.imagecatalog.findDefaultImage({ provider: 'AWS', imageType: 'RUNTIME', runtimeVersion: '6.0' }));
    expect([old.code, old.status, old.message]).toEqual([
      'NOT_FOUND',
      404,
      'the default catalog has no AWS Runtime image for runtime 6.0; runtimes: 7.2.16, 7.2.17, 7.2.18, 7.3.1',
    ]);
    const unknown = await refused(emu.client.imagecatalog.describeDefaultImage({ imageId: '00000000-0000-0000-0000-000000000000' }));
    expect(unknown.code).toBe('NOT_FOUND');
    expect(unknown.message).toMatch(/^image 00000000-0000-0000-0000-000000000000 is not in the default catalog; /);
  });

  test('FreeIPA images are found for a cloud too; describeDefaultImage shows an image in every region of every cloud', async () => {
    const found = await emu.client.imagecatalog.findDefaultImage({ provider: 'AZURE', imageType: 'FREEIPA' });
    freeipa = found.imageId ?? '';
    expect(freeipa).toBe('2f7b9c1d-4e6a-4b8c-9d0e-1f2a3b4c5d6e');
    expect(found.vmImages?.[0]?.imageReference).toMatch(
      /^https:\/\/cldreastus\.blob\.core\.windows\.net\/images\/freeipa-4-10-2-[0-9a-f]{8}\.vhd$/,
    );
    const all = await emu.client.imagecatalog.describeDefaultImage({ imageId: freeipa });
    expect(all.vmImages).toHaveLength(17);
  });
});

describe('custom catalogs and their images', () => {
  test('a catalog is named apart from the default one and once (ALREADY_EXISTS, 409); listed with its description', async () => {
    const asDefault = await refused(emu.client.imagecatalog.createCustomCatalog({ catalogName: 'cdp-default' }));
    expect([asDefault.code, asDefault.status, asDefault.message]).toEqual([
      'ALREADY_EXISTS',
      409,
      'cdp-default is the default catalog; name yours otherwise',
    ]);
    expect(await emu.client.imagecatalog.createCustomCatalog({ catalogName: 'hardened', description: 'CIS hardened' })).toEqual({});
    const dup = await refused(emu.client.imagecatalog.createCustomCatalog({ catalogName: 'hardened' }));
    expect([dup.code, dup.message]).toEqual(['ALREADY_EXISTS', 'image catalog hardened already exists']);
    expect(await emu.client.imagecatalog.listCustomCatalogs({})).toEqual({
      imageCatalogs: [{ name: 'hardened', description: 'CIS hardened' }],
    });
  });

  test('an image customises a default image of its own type, for one cloud, each region once, under a UUID', async () => {
    const set = (more: Record<string, unknown>) =>
      emu.client.imagecatalog.setRuntimeImage({
        catalogName: 'hardened',
        sourceImageId: runtime,
        vmImages: [{ region: 'us-west-2', imageReference: 'ami-0123' }],
        ...more,
      });
    const wrongType = await refused(set({ sourceImageId: freeipa }));
    expect([wrongType.code, wrongType.message]).toEqual([
      'INVALID_ARGUMENT',
      `source image ${freeipa} is a FreeIPA image; a Runtime image customises a Runtime image`,
    ]);
    const mixed = await refused(
      set({
        vmImages: [
          { region: 'us-west-2', imageReference: 'ami-1' },
          { region: 'westus2', imageReference: 'x' },
        ],
      }),
    );
    expect(mixed.message).toBe('vmImages mixes clouds (AWS, AZURE); an image is for one cloud');
    const nowhere = await refused(set({ vmImages: [{ region: 'mars-1', imageReference: 'ami-1' }] }));
    expect(nowhere.message).toBe('vmImages: mars-1 is not a region of AWS, Azure or GCP');
    const twice = await refused(
      set({
        vmImages: [
          { region: 'us-west-2', imageReference: 'ami-1' },
          { region: 'us-west-2', imageReference: 'ami-2' },
        ],
      }),
    );
    expect(twice.message).toBe('vmImages: region us-west-2 is given twice');
    const badId = await refused(set({ imageId: 'not-a-uuid' }));
    expect(badId.message).toBe('imageId not-a-uuid is not a UUID; leave it out for a new one');
    expect((await emu.client.imagecatalog.describeCustomCatalog({ catalogName: 'hardened' })).images).toEqual([]);
  });

  test('a set image takes its versions and dates from its source, its cloud from its regions; setting it again by id updates it', async () => {
    const { imageId = '' } = await emu.client.imagecatalog.setRuntimeImage({
      catalogName: 'hardened',
      sourceImageId: runtime,
      vmImages: [{ region: 'us-west-2', imageReference: 'ami-0123' }],
    });
    expect(imageId).toMatch(UUID);
    const shown = await emu.client.imagecatalog.describeCustomImage({ catalogName: 'hardened', imageId });
    expect(shown).toMatchObject({
      imageType: 'RUNTIME',
      sourceImageId: runtime,
      provider: 'AWS',
      versions: { cdp: '7.2.18', cm: '7.12.0', os: 'redhat8' },
      vmImages: [{ region: 'us-west-2', imageReference: 'ami-0123' }],
    });
    const again = await emu.client.imagecatalog.setRuntimeImage({
      catalogName: 'hardened',
      imageId,
      sourceImageId: runtime,
      vmImages: [{ region: 'us-east-1', imageReference: 'ami-0456' }],
    });
    expect(again.imageId).toBe(imageId);
    const catalog = await emu.client.imagecatalog.describeCustomCatalog({ catalogName: 'hardened' });
    expect(catalog.images?.map((i) => i.imageId)).toEqual([imageId]);
    const updated = await emu.client.imagecatalog.describeCustomImage({ catalogName: 'hardened', imageId });
    expect(updated.vmImages).toEqual([{ region: 'us-east-1', imageReference: 'ami-0456' }]);
  });

  test('an image is set and deleted only as what it is; a deleted one is NOT_FOUND', async () => {
    const [runtimeImage] = (await emu.client.imagecatalog.describeCustomCatalog({ catalogName: 'hardened' })).images ?? [];
    const id = runtimeImage?.imageId ?? '';
    const asFreeipa = await refused(
      emu.client.imagecatalog.setFreeipaImage({
        catalogName: 'hardened',
        imageId: id,
        sourceImageId: freeipa,
        vmImages: [{ region: 'westus2', imageReference: 'x' }],
      }),
    );
    expect(asFreeipa.message).toBe(`image ${id} of catalog hardened is a Runtime image`);
    const deleteAsFreeipa = await refused(emu.client.imagecatalog.deleteFreeipaImage({ catalogName: 'hardened', imageId: id }));
    expect([deleteAsFreeipa.code, deleteAsFreeipa.message]).toEqual([
      'INVALID_ARGUMENT',
      `image ${id} is a Runtime image; delete it as one`,
    ]);
    expect(await emu.client.imagecatalog.deleteRuntimeImage({ catalogName: 'hardened', imageId: id })).toEqual({ imageId: id });
    const gone = await refused(emu.client.imagecatalog.describeCustomImage({ catalogName: 'hardened', imageId: id }));
    expect([gone.code, gone.message]).toEqual(['NOT_FOUND', `image ${id} not found in image catalog hardened`]);
  });

  test('a catalog that holds images is deleted with them (its delete cascades rather than being refused)', async () => {
    const { imageId = '' } = await emu.client.imagecatalog.setFreeipaImage({
      catalogName: 'hardened',
      sourceImageId: freeipa,
      vmImages: [{ region: 'westus2', imageReference: 'https://example.invalid/ipa.vhd' }],
    });
    expect((await emu.client.imagecatalog.describeCustomImage({ catalogName: 'hardened', imageId })).provider).toBe('AZURE');
    expect(await emu.client.imagecatalog.deleteCustomCatalog({ catalogName: 'hardened' })).toEqual({});
    expect((await emu.client.imagecatalog.listCustomCatalogs({})).imageCatalogs).toEqual([]);
    const gone = await refused(emu.client.imagecatalog.describeCustomCatalog({ catalogName: 'hardened' }));
    expect([gone.code, gone.status, gone.message]).toEqual(['NOT_FOUND', 404, 'image catalog hardened not found']);
  });
});
