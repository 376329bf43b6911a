/**
 * Local files a request names: paths expanded as the official CLI expands
 * them, and files checked before anything is sent (regular files within the
 * upload cap, bounded-read.ts), then streamed (never read into memory) once
 * per attempt.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { Operation } from '../model/index.js';
import { kebab } from '../model/names.js';
import { READ_LIMITS, regularFileSize } from './bounded-read.js';
import type { Doc, Upload } from './client.js';
import { CdpError, usageError } from './errors.js';

/** A local path as the official CLI expands one: a leading `~` and `$VAR`/`${VAR}` (unknown variables stay as written). */
export function expandPath(path: string, env: Readonly<Record<string, string | undefined>> = process.env): string {
  const home = env.HOME ?? '';
  const p = home && (path === '~' || path.startsWith('~/')) ? home + path.slice(1) : path;
  return p.replace(/\$(\w+)|\$\{(\w+)\}/g, (whole, a: string | undefined, b: string | undefined) => env[a ?? b ?? ''] ?? whole);
}

export interface LocalFile {
  /** The expanded path. */
  readonly path: string;
  readonly size: number;
  /** A fresh stream of the file's bytes (one per attempt). */
  readonly open: () => Readable;
}

/**
 * A regular, readable file within the upload cap, or a usage error naming
 * `label` (a flag) and the path as given. Each stream sends exactly the
 * size checked here (the Content-Length), even if the file grows meanwhile.
 */
export function localFile(path: string, label: string): LocalFile {
  const local = expandPath(path);
  let size: number;
  try {
    size = regularFileSize(local, { label, maxBytes: READ_LIMITS.upload });
  } catch (err) {
    if (err instanceof CdpError) throw err;
    throw usageError(`${label}: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  const open = (): Readable =>
    size === 0 ? Readable.from([]) : createReadStream(local, { highWaterMark: 256 * 1024, start: 0, end: size - 1 });
  return { path: local, size, open };
}

/** The file of an operation with an upload (model data): checked now, its fields as the headers the spec names. */
export function openUpload(op: Operation, request: Doc): Upload {
  const spec = op.cli.upload;
  if (!spec) throw new Error('no upload');
  const path = request[spec.fileField];
  const flag = `--${kebab(spec.fileField)}`;
  if (typeof path !== 'string' || !path) throw usageError(`${flag}: missing the file to upload`);
  const file = localFile(path, flag);
  // Header values go as given, the way the official CLI sends them (not URL-encoded);
  // HTTP headers can carry only printable Latin-1 text.
  const headers: Record<string, string> = { 'content-length': String(file.size) };
  for (const [field, header] of Object.entries(spec.headers)) {
    const v = request[field];
    if (v === undefined || v === null || v === '') continue;
    const text = String(v);
    if (/[^\t\x20-\x7e\xa0-\xff]/.test(text))
      throw usageError(`--${kebab(field)}: only printable Latin-1 characters can be sent with an upload`);
    headers[header] = text;
  }
  return { open: file.open, headers };
}
