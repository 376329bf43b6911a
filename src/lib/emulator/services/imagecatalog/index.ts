/**
 * Image catalogs on the resource engine. Custom catalogs are named records;
 * their Runtime and FreeIPA images live in them (deleting a catalog takes
 * its images with it). An image customises an image of the default catalog
 * of the same type (its source: the provider, package versions and source
 * date come from there) and is published as cloud images per region, whose
 * regions say which cloud it is for.
 *
 * The default catalog is the account's from its first use, kept as records
 * like everything else: the Runtime images are those the data lake service
 * creates lakes from (datalake/catalogue.ts: one world, so an image found
 * here is one `datalake create --image` takes), two FreeIPA images, each
 * published in a few regions of every cloud. Lookups find the newest image
 * of a type for a cloud, a runtime (default: the data lake service's
 * default runtime) and an architecture.
 */
import type { OperationName } from '../../../model/services/imagecatalog/wire.js';
import { resources } from '../../../model/services/imagecatalog/resources.js';
import type { Doc } from '../../engine/context.js';
import type { Hook } from '../../engine/declare.js';
import { type EngineRecord, nameOf } from '../../engine/records.js';
import { defineService } from '../../engine/table.js';
import { alreadyExists, invalid, notFound } from '../../errors.js';
import { uuid } from '../../ids.js';
import { IMAGES } from '../../shared/images.js';
import { DEFAULT_RUNTIME } from '../../shared/runtimes.js';
import { docs, hex, str, text } from '../../values.js';

type R = keyof typeof resources.resources;
type Provider = 'AWS' | 'AZURE' | 'GCP';
type ImageType = 'RUNTIME' | 'FREEIPA';

/** The shape images are kept in (custom and default). */
const IMAGE_SHAPE = 'DescribeCustomImageResponse';
const DEFAULT_CATALOG = 'cdp-default';
const ARCHITECTURE = 'X86_64';

/** Where the default catalog publishes its images. */
const PUBLISHED: Readonly<Record<Provider, readonly string[]>> = {
  AWS: ['us-east-1', 'us-east-2', 'us-west-2', 'eu-central-1', 'eu-west-1', 'ap-southeast-2', 'us-gov-west-1'],
  AZURE: ['eastus', 'eastus2', 'westus2', 'westeurope', 'centralindia'],
  GCP: ['us-west1', 'us-central1', 'us-east1', 'europe-west4', 'asia-southeast1'],
};

/** The cloud a region name belongs to, by how each cloud writes them: us-west-2, westus2, us-west1. */
function providerOfRegion(region: string): Provider | undefined {
  if (/^[a-z]{2}(-gov)?-[a-z]+-\d$/.test(region)) return 'AWS';
  if (/^[a-z]+-[a-z]+\d+$/.test(region)) return 'GCP';
  if (/^[a-z]+\d?$/.test(region)) return 'AZURE';
  return undefined;
}

/** A cloud image reference as each cloud writes it. */
function reference(provider: Provider, name: string, region: string): string {
  const tag = hex(`${name}/${region}`, 17);
  if (provider === 'AWS') return `ami-${tag}`;
  if (provider === 'AZURE') return `https://cldr${region}.blob.core.windows.net/images/${name}-${tag.slice(0, 8)}.vhd`;
  return `cloudera-images/${name}-${tag.slice(0, 8)}`;
}

const published = (name: string): Doc[] =>
  (Object.keys(PUBLISHED) as Provider[]).flatMap((p) =>
    PUBLISHED[p].map((region) => ({ region, imageReference: reference(p, name, region) })),
  );

/** The default catalog's FreeIPA images, older first; the newest has the id the command examples use (as sales-env is an environment of every account). */
const FREEIPA = [
  { imageId: '6c0a4e2d-9b1f-4d3a-8e5c-7f6a5b4c3d2e', version: '4.9.13' },
  { imageId: '2f7b9c1d-4e6a-4b8c-9d0e-1f2a3b4c5d6e', version: '4.10.2' },
];

/** Seeds the default catalog's images the first time the account uses the service: the data lake service's Runtime images and two FreeIPA images. */
function seedDefaultCatalog(h: Hook<R>): void {
  const seeded = `imagecatalog.defaultCatalog:${h.ctx.info.accountId}`;
  if (h.ctx.store.meta(seeded)) return;
  const runtime = IMAGES.map((img) => ({
    imageId: img.imageId,
    imageDate: img.created,
    imageType: 'RUNTIME',
    versions: { cdp: img.runtime, cm: img.cm, os: 'redhat8' },
    vmImages: published(`cdp-${img.runtime.replace(/\./g, '-')}-${img.index}`),
  }));
  const freeipa = FREEIPA.map(({ imageId, version }, index) => ({
    imageId,
    imageDate: Date.UTC(2024, index * 6, 1) / 1000,
    imageType: 'FREEIPA',
    versions: { freeipa: version, os: 'redhat8' },
    vmImages: published(`freeipa-${version.replace(/\./g, '-')}`),
  }));
  const all = h.records('defaultImage');
  for (const doc of [...runtime, ...freeipa])
    all.create({ id: doc.imageId, scope: '', doc: h.conform(IMAGE_SHAPE, doc, doc.imageId), data: { architecture: ARCHITECTURE } });
  h.ctx.store.setMeta(seeded, '1');
}

function defaultImage(h: Hook<R>, imageId: string): EngineRecord {
  const img = h.records('defaultImage').byId(imageId);
  if (!img)
    throw notFound(
      `image ${imageId.slice(0, 200)} is not in the default catalog; find one with: cdpctl imagecatalog default-images find --provider AWS --image-type RUNTIME`,
    );
  return img;
}

/** The cloud images of a record for one cloud (all of them without one). */
const vmImagesOf = (rec: EngineRecord, provider?: Provider): Doc[] =>
  docs(rec.doc.vmImages).filter((v) => !provider || providerOfRegion(String(v.region)) === provider);

const versionOf = (rec: EngineRecord): string | undefined => str((rec.doc.versions as Doc | undefined)?.cdp);

/** findDefaultImage's request as the read takes it: the newest default image of a type for a cloud, runtime and architecture, or NOT_FOUND saying what there is. */
function newestDefault(h: Hook<R>, req: Doc): Doc {
  const provider = text(req.provider) as Provider;
  const type = text(req.imageType) as ImageType;
  const arch = (str(req.architecture) ?? ARCHITECTURE).toUpperCase();
  const ofType = h
    .records('defaultImage')
    .all()
    .filter((r) => r.doc.imageType === type && vmImagesOf(r, provider).length > 0);
  const version = type === 'RUNTIME' ? (str(req.runtimeVersion) ?? DEFAULT_RUNTIME) : undefined;
  const versions = [...new Set(ofType.map(versionOf).filter((v): v is string => v !== undefined))];
  if (version && !versions.includes(version))
    throw notFound(`the default catalog has no ${provider} Runtime image for runtime ${version}; runtimes: ${versions.join(', ')}`);
  const hits = ofType.filter((r) => (!version || versionOf(r) === version) && r.data?.architecture === arch);
  const newest = hits.sort((a, b) => Number(b.doc.imageDate) - Number(a.doc.imageDate))[0];
  if (!newest)
    throw notFound(
      `the default catalog has no ${arch} ${provider} ${type} image${version ? ` for runtime ${version}` : ''}; images are ${ARCHITECTURE}`,
    );
  return { ...req, imageId: newest.id };
}

/** The image found, with its cloud images of the cloud asked for. */
const foundImage = (_h: Hook<R>, img: Readonly<EngineRecord>, req: Doc): Doc => ({
  imageId: img.id,
  vmImages: vmImagesOf(img, text(req.provider) as Provider),
});

/** The cloud of a custom image's cloud images (all of one cloud), from their regions. */
function providerOf(vmImages: readonly Doc[]): Provider {
  if (vmImages.length === 0) throw invalid('vmImages must give at least one cloud image: [{"region": ..., "imageReference": ...}]');
  const seen = new Set<string>();
  const providers = new Set<Provider>();
  for (const v of vmImages) {
    const region = text(v.region);
    const provider = providerOfRegion(region);
    if (!provider) throw invalid(`vmImages: ${region.slice(0, 100)} is not a region of AWS, Azure or GCP`);
    if (text(v.imageReference).trim() === '') throw invalid(`vmImages: the image in ${region} has no imageReference`);
    if (seen.has(region)) throw invalid(`vmImages: region ${region} is given twice`);
    seen.add(region);
    providers.add(provider);
  }
  if (providers.size > 1) throw invalid(`vmImages mixes clouds (${[...providers].join(', ')}); an image is for one cloud`);
  return [...providers][0] as Provider;
}

const isUuid = (s: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
const typeName = (t: unknown): string => (t === 'FREEIPA' ? 'FreeIPA' : 'Runtime');

/** The type of image an operation sets or deletes. */
const typeAsked = (h: Hook<R>): ImageType => (/Freeipa/.test(h.ctx.op.name) ? 'FREEIPA' : 'RUNTIME');

/** A set image's request as the create takes it: named in its catalog by its id, a new UUID when left out. */
const imageNamed = (_h: Hook<R>, req: Doc): Doc => ({ ...req, imageName: str(req.imageId) ?? uuid() });

/** An image customises a default image of its own type, for one cloud, under a UUID; an image set again by id stays of its type. */
function checkImageSet(h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): void {
  const type = typeAsked(h);
  const source = defaultImage(h, text(req.sourceImageId));
  if (source.doc.imageType !== type)
    throw invalid(
      `source image ${source.id} is a ${typeName(source.doc.imageType)} image; a ${typeName(type)} image customises a ${typeName(type)} image`,
    );
  providerOf(docs(req.vmImages));
  const imageId = String(rec.name);
  if (!isUuid(imageId)) throw invalid(`imageId ${imageId.slice(0, 100)} is not a UUID; leave it out for a new one`);
  const existing = h.records('image').byId(rec.id);
  if (existing && existing.doc.imageType !== type)
    throw invalid(`image ${imageId} of catalog ${h.locate('catalog', req).name ?? ''} is a ${typeName(existing.doc.imageType)} image`);
}

/** What a set image takes from its source (versions, dates), its cloud from its regions, and its time. */
function imageFromSource(h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc): Doc {
  const source = defaultImage(h, text(req.sourceImageId));
  return {
    imageId: rec.name,
    imageDate: Math.floor(h.ctx.clock.now() / 1000),
    imageType: typeAsked(h),
    sourceImageId: source.id,
    sourceImageDate: source.doc.imageDate,
    versions: source.doc.versions,
    provider: providerOf(docs(req.vmImages)),
    baseParcelUrl: str(req.baseParcelUrl),
  };
}

/** A default image by id, NOT_FOUND saying how to find one (the engine's NOT_FOUND has no such hint). */
const inDefaultCatalog = (h: Hook<R>, req: Doc): Doc => ({ ...req, imageId: defaultImage(h, text(req.imageId)).id });

/** A custom catalog with its images. */
const catalogWithImages = (h: Hook<R>, rec: Readonly<EngineRecord>): Doc => ({
  catalogName: rec.name,
  description: rec.doc.description,
  images: h
    .records('image')
    .all(rec.id)
    .map((img) => h.conform('ImageItemResponse', img.doc, img.id)),
});

/** Deleting a Runtime image as a FreeIPA one (or the other way round) is refused. */
function checkImageDelete(h: Hook<R>, rec: Readonly<EngineRecord>): void {
  const asked = typeAsked(h);
  if (rec.doc.imageType !== asked) throw invalid(`image ${nameOf(rec)} is a ${typeName(rec.doc.imageType)} image; delete it as one`);
}

/** Nobody names a catalog as the default one. */
function checkCatalogCreate(_h: Hook<R>, rec: Readonly<EngineRecord>): void {
  if (rec.name?.toLowerCase() === DEFAULT_CATALOG) throw alreadyExists(`${DEFAULT_CATALOG} is the default catalog; name yours otherwise`);
}

export default defineService<OperationName>()({
  service: 'imagecatalog',
  facts: resources,
  resources: {
    catalog: {
      noun: 'image catalog',
      keys: ['catalogName'],
      deletes: { cascades: true },
      hooks: { check: { create: checkCatalogCreate } },
    },
    image: {
      keys: ['imageId'],
      lives: { in: 'parent', parent: 'catalog' },
      // Setting an image by an id its catalog has updates it in place.
      names: 'replace',
      hooks: { check: { create: checkImageSet, delete: checkImageDelete }, fill: imageFromSource },
    },
    defaultImage: { noun: 'default image', keys: ['imageId'] },
  },
  setup: seedDefaultCatalog,
  operations: (r) => ({
    createCustomCatalog: r.catalog.create(),
    describeCustomCatalog: r.catalog.read({ answer: catalogWithImages }),
    listCustomCatalogs: r.catalog.list(),
    deleteCustomCatalog: r.catalog.delete(),
    setRuntimeImage: r.image.create({ rewrite: imageNamed }),
    setFreeipaImage: r.image.create({ rewrite: imageNamed }),
    describeCustomImage: r.image.read(),
    deleteRuntimeImage: r.image.delete(),
    deleteFreeipaImage: r.image.delete(),
    findDefaultImage: r.defaultImage.read({ rewrite: newestDefault, answer: foundImage }),
    describeDefaultImage: r.defaultImage.read({ rewrite: inDefaultCatalog }),
  }),
});
