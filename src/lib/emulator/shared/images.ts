/**
 * The Runtime images of the default image catalog, written once for the
 * services that offer or take them: the data lake service creates and
 * upgrades lakes from them, and the image catalog service lists them as its
 * default catalog's Runtime images (one world: an image found there is one
 * `datalake create --image` takes). Two images per runtime, older first;
 * image order follows runtime order, and an image's id is stable.
 */
import { createHash } from 'node:crypto';
import { RUNTIMES } from './runtimes.js';

export interface Image {
  readonly imageId: string;
  readonly runtime: string;
  readonly cm: string;
  /** Its place among its runtime's images (0 older, 1 newer). */
  readonly index: number;
  /** When it was built, in epoch seconds. */
  readonly created: number;
}

/** A stable UUID-shaped id made from a text. */
export const hashId = (text: string): string => {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export const IMAGES: readonly Image[] = RUNTIMES.flatMap((r, ri) =>
  [0, 1].map((index) => ({
    imageId: hashId(`image:${r.version}:${index}`),
    runtime: r.version,
    cm: r.cm,
    index,
    created: Date.UTC(2023, ri * 3 + index, 1) / 1000,
  })),
);

/** An image's place in IMAGES: a later one is newer. */
export const imageOrder = (img: Image): number => IMAGES.indexOf(img);
