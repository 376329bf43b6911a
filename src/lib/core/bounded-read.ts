/**
 * Every file and stream cdpctl and its emulator read goes through here, so
 * none can make them hang or fill memory: a path that should name a file
 * must name a regular one (not /dev/zero, not a FIFO nobody writes to, not
 * a directory), and nothing is read past a cap that suits what the file is.
 * A pipe is read where one is a real habit (`--input -`, `--input <(jq …)`,
 * `file://<(…)`); it is bounded by the same cap.
 *
 * Files are opened non-blocking and checked on the open descriptor (so what
 * was checked is what is read, and opening a FIFO never waits for a writer).
 * node's fs has no bounded whole-file read, hence this small module.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import type { Readable } from 'node:stream';
import { usageError } from './errors.js';

const MiB = 1024 * 1024;

/** The caps, by what a file is for. */
export const READ_LIMITS = {
  /** Config and credentials files, key files, CA bundles, the token cache, the emulator's pid file. */
  settings: 4 * MiB,
  /** Request documents and values: --input, file:// and fileb:// values, seed files, the request log. */
  request: 16 * MiB,
  /** Emulator state exports (`emulator import`). */
  state: 256 * MiB,
  /** Files sent as a request's body (streamed, never held in memory). */
  upload: 2048 * MiB,
} as const;

export interface ReadBounds {
  /** What the file is, for messages: `--input`, `the credentials file`. */
  readonly label: string;
  readonly maxBytes: number;
  /** A pipe (a FIFO, `/dev/fd/N` of `<(…)`) may be read as well as a regular file. */
  readonly pipes?: boolean;
  /** The path's last part must not be a symbolic link (ELOOP): files of the emulator's data directory. */
  readonly noFollow?: boolean;
}

/** `16 MiB`, `512 KiB`, `100 bytes`. */
export function byteSize(n: number): string {
  if (n >= MiB && n % MiB === 0) return `${n / MiB} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

export const tooLarge = (path: string, bounds: ReadBounds): Error =>
  usageError(`${bounds.label}: ${path} is larger than ${byteSize(bounds.maxBytes)}, the most cdpctl reads for it`);

const notAFile = (path: string, bounds: ReadBounds, st: Stats): Error =>
  usageError(`${bounds.label}: ${path} is ${kindOf(st)}, not a regular file${bounds.pipes ? ' or a pipe' : ''}`);

/** Sleeps the thread (a pipe that has nothing yet, or is full); synchronous readers and writers have no event loop to wait on. */
export const pauseThread = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * The bytes of a regular file (or, with `pipes`, of a pipe), at most
 * `maxBytes` of them: more is a usage error (exit 2) naming the file and the
 * limit. node's own errors (ENOENT, EACCES) are thrown as they are, for the
 * caller to word.
 */
export function readBounded(path: string, bounds: ReadBounds): Buffer {
  const fd = openSync(
    path,
    constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | (bounds.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0),
  );
  try {
    const st = fstatSync(fd);
    const pipe = st.isFIFO() || st.isSocket();
    if (!st.isFile() && !(pipe && bounds.pipes)) throw notAFile(path, bounds, st);
    if (st.isFile() && st.size > bounds.maxBytes) throw tooLarge(path, bounds);
    // A regular file is read into a buffer of its size and one byte more (to see that it ends there, or grew);
    // a pipe, or whatever comes past that, 64 KiB at a time.
    const chunks: Buffer[] = [];
    let total = 0;
    let chunk = Buffer.allocUnsafe(Math.min(st.isFile() ? st.size + 1 : 64 * 1024, bounds.maxBytes + 1));
    let used = 0;
    for (;;) {
      if (used === chunk.length) {
        chunks.push(chunk);
        chunk = Buffer.allocUnsafe(Math.min(64 * 1024, bounds.maxBytes + 1 - total));
        used = 0;
      }
      let n: number;
      try {
        n = readSync(fd, chunk, used, chunk.length - used, null);
      } catch (err) {
        // A pipe whose writer has not written yet.
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
        pauseThread(5);
        continue;
      }
      if (n === 0) break;
      used += n;
      total += n;
      if (total > bounds.maxBytes) throw tooLarge(path, bounds);
    }
    if (chunks.length === 0) return chunk.subarray(0, used);
    chunks.push(chunk.subarray(0, used));
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

/** Checks that a path names a regular file within the cap (a file to be streamed); its size. */
export function regularFileSize(path: string, bounds: ReadBounds): number {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notAFile(path, bounds, st);
    if (st.size > bounds.maxBytes) throw tooLarge(path, bounds);
    return st.size;
  } finally {
    closeSync(fd);
  }
}

/** All of a stream (stdin), at most `maxBytes`: past that the stream is let go and a usage error names the limit. */
export async function readStreamBounded(stream: Readable, bounds: ReadBounds & { readonly name: string }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    total += buf.length;
    if (total > bounds.maxBytes) {
      stream.destroy();
      throw tooLarge(bounds.name, bounds);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks, total);
}
