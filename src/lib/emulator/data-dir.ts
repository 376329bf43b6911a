/**
 * The data directory holds the emulator's users, the public halves of their
 * keys, token hashes, uploads and the admin token (emulator.json): on a
 * shared machine only its owner may read it. The directory is 0700 and its
 * files 0600, and a directory an older cdpctl left looser is tightened when
 * it is used again.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

/** Makes the directory (and its parents) when missing; leaves it 0700. */
export function privateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  tighten(dir, 0o700);
}

/** Makes the file when missing; leaves it 0600 (SQLite gives its -wal and -shm files the mode of the database). */
export function privateFile(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  tighten(path, 0o600);
}

/** Takes group and other permissions away from an existing path of ours; one owned by someone else is left alone. */
export function tighten(path: string, mode: 0o700 | 0o600): void {
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw err;
  }
}
