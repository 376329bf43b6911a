/**
 * The data directory, opened the way a careful daemon opens its own. It
 * holds the emulator's users, the public halves of their keys, token
 * hashes, uploads, the admin token and the console's sign-in secret
 * (emulator.json): only its owner may read it, and nobody else may change
 * it. On a shared machine (a CI runner whose data directories sit under a
 * shared /tmp) that takes more than modes:
 *
 * - The directory must be the user's own and writable by nobody else, and
 *   so must every directory above it be (root's or the user's own), unless
 *   it is sticky as /tmp is: otherwise someone else could rename files in
 *   it, or move it away and put their own in its place. Refused with what
 *   to do. One only readable by others (an older cdpctl left it 0755) is
 *   tightened to 0700.
 * - Nothing in it is reached through a symbolic link: files are opened with
 *   O_NOFOLLOW and checked on the descriptor (a regular file of the user's,
 *   made 0600), directories are checked with lstat, so a link planted in it
 *   never makes the emulator append to, chmod, read or delete a file
 *   elsewhere.
 * - Files are replaced atomically by a rename over them, from a temporary
 *   file made with O_EXCL: a link in the way is replaced, never written
 *   through.
 *
 * Where a refusal reaches the command line it is a usage error (exit 2,
 * UNSAFE_DATA_DIR) naming the path and what to do.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { cdpError, type CdpError } from '../core/errors.js';

/** O_NOFOLLOW where the platform has it (not on Windows, which has no such links to plant). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The user the emulator runs as; undefined where there are no owners to compare (Windows). */
const me = (): number | undefined => process.geteuid?.();

const modeOf = (st: Stats): string => (st.mode & 0o7777).toString(8).padStart(4, '0');

export function unsafe(message: string): CdpError {
  return cdpError({ kind: 'usage', code: 'UNSAFE_DATA_DIR', message });
}

const linkRefused = (path: string): CdpError =>
  unsafe(`${path} is a symbolic link; the emulator follows no link out of its data directory: remove it`);

const code = (err: unknown): string | undefined => (err as NodeJS.ErrnoException).code;

/** The user's own (or root's), and written by nobody else. */
function checkOwned(path: string, st: Stats, what: string): void {
  const uid = me();
  if (uid !== undefined && st.uid !== uid && st.uid !== 0)
    throw unsafe(
      `${what} ${path} belongs to another user (uid ${st.uid}); the emulator uses only a directory of your own: choose one with --data-dir`,
    );
  if (st.mode & 0o022)
    throw unsafe(
      `${what} ${path} can be written by other users (mode ${modeOf(st)}); run: chmod 700 ${path}, or choose another --data-dir`,
    );
}

/** Directories above it: nobody but root and the user may move it away (a sticky directory such as /tmp lets nobody move what is not theirs). */
function checkAncestors(dir: string): void {
  const uid = me();
  if (uid === undefined) return;
  for (let at = dirname(dir); ; at = dirname(at)) {
    const st = statSync(at);
    if (st.uid !== 0 && st.uid !== uid)
      throw unsafe(
        `the data directory ${dir} is inside ${at}, which belongs to another user (uid ${st.uid}) who could move it away; choose a --data-dir elsewhere`,
      );
    if (st.mode & 0o002 && !(st.mode & 0o1000))
      throw unsafe(
        `the data directory ${dir} is inside ${at}, which every user can write (mode ${modeOf(st)}) and which is not sticky, so anyone could move it away; choose a --data-dir elsewhere`,
      );
    if (dirname(at) === at) return;
  }
}

/** What the emulator keeps in a data directory; none of it may be a symbolic link. */
export const DATA_DIR_ENTRIES = [
  'state.db',
  'state.db-wal',
  'state.db-shm',
  'emulator.json',
  'emulator.log',
  'instance.json',
  'requests.log',
  'requests.1.log',
  'uploads',
] as const;

/**
 * Checks a data directory before anything in it is used, making it (0700,
 * with its parents) when `create` says so and it is missing; returns
 * whether it exists. A symbolic link to it is followed only when it is the
 * user's own; a link among its entries is refused at once, before anything
 * is appended to, chmodded or deleted through it.
 */
export function checkDataDir(dir: string, opts: { readonly create: boolean }): boolean {
  let link = lstatSync(dir, { throwIfNoEntry: false });
  if (!link) {
    if (!opts.create) return false;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    link = lstatSync(dir);
  }
  const uid = me();
  if (link.isSymbolicLink() && uid !== undefined && link.uid !== uid && link.uid !== 0)
    throw unsafe(`the data directory ${dir} is a symbolic link of another user (uid ${link.uid}); choose a --data-dir of your own`);
  const real = realpathSync(dir);
  const st = statSync(real);
  if (!st.isDirectory()) throw unsafe(`the data directory ${dir} is not a directory`);
  checkOwned(dir, st, 'the data directory');
  checkAncestors(real);
  if (st.mode & 0o077) chmodSync(real, 0o700);
  for (const name of DATA_DIR_ENTRIES)
    if (lstatSync(join(real, name), { throwIfNoEntry: false })?.isSymbolicLink()) throw linkRefused(join(dir, name));
  return true;
}

/** A directory inside the data directory (uploads), made 0700 when missing; never a symbolic link. */
export function privateSubdir(path: string): void {
  try {
    mkdirSync(path, { mode: 0o700 });
  } catch (err) {
    if (code(err) !== 'EEXIST') throw err;
  }
  const st = lstatSync(path);
  if (st.isSymbolicLink()) throw linkRefused(path);
  if (!st.isDirectory()) throw unsafe(`${path} is not a directory: remove it`);
  checkOwned(path, st, 'the directory');
  if (st.mode & 0o077) chmodSync(path, 0o700);
}

/** Whether a path inside the data directory is a real directory (not a link to one elsewhere). */
export function isPlainDir(path: string): boolean {
  try {
    const st = lstatSync(path);
    return st.isDirectory() && !st.isSymbolicLink();
  } catch {
    return false;
  }
}

/** Checks an open file of the data directory: a regular file of the user's, made 0600. */
function checkOpenFile(fd: number, path: string): void {
  const st = fstatSync(fd);
  if (!st.isFile()) throw unsafe(`${path} is not a regular file: remove it`);
  const uid = me();
  if (uid !== undefined && st.uid !== uid && st.uid !== 0) throw unsafe(`${path} belongs to another user (uid ${st.uid}): remove it`);
  if (st.mode & 0o077) fchmodSync(fd, 0o600);
}

/**
 * Opens a file of the data directory to append to (made 0600 when missing),
 * never through a symbolic link and never a FIFO; returns the descriptor.
 */
export function openPrivateFile(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK | NOFOLLOW, 0o600);
  } catch (err) {
    if (code(err) === 'ELOOP') throw linkRefused(path);
    if (code(err) === 'ENXIO') throw unsafe(`${path} is not a regular file: remove it`);
    throw err;
  }
  try {
    checkOpenFile(fd, path);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  return fd;
}

/** Makes a file of the data directory when missing; leaves it 0600 (SQLite gives its -wal and -shm files the mode of the database). */
export function privateFile(path: string): void {
  closeSync(openPrivateFile(path));
}

/** An existing file of the data directory (SQLite's journals): refused when a link, made 0600 when looser. */
export function checkPrivateFile(path: string): void {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (!st) return;
  if (st.isSymbolicLink()) throw linkRefused(path);
  if (st.isFile() && st.mode & 0o077) chmodSync(path, 0o600);
}

/**
 * Replaces a file of the data directory atomically (mode 0600): written to
 * a new temporary file beside it (O_EXCL, so nothing planted there is
 * written through), then renamed over it, which replaces a link rather than
 * what it points to.
 */
export function writePrivateFile(path: string, data: string | Buffer): void {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, path);
}
