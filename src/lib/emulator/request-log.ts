/**
 * The emulator's request log: one JSON line per API request it answered
 * (time, request id, service, operation, caller, status, error code,
 * duration), never a body or any field of one. Lines are written in
 * batches, within a tenth of a second (a kill -9 can lose that much). It
 * lives in the data directory as `requests.log`; past 4 MiB it becomes `requests.1.log` (the
 * one before is dropped), so it never takes more than 8 MiB on disk.
 * `cdpctl emulator log` reads it, and follows it with --follow.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { READ_LIMITS, readBounded } from '../core/bounded-read.js';
import { checkDataDir, openPrivateFile } from './data-dir.js';

export interface LogEntry {
  /** Wall-clock time the request arrived (ISO 8601). */
  readonly time: string;
  /** The x-cdp-request-id the answer carried. */
  readonly requestId: string;
  readonly service: string;
  readonly operation: string;
  /** CRN of the signed-in user or machine user; '-' when the request was not authenticated. */
  readonly caller: string;
  /** HTTP status; 0 when the connection was dropped on purpose (fault injection). */
  readonly status: number;
  /** The error code of a failed request. */
  readonly code?: string;
  readonly durationMs: number;
}

export const LOG_FILE = 'requests.log';
export const OLD_LOG_FILE = 'requests.1.log';
const MAX_BYTES = 4 * 1024 * 1024;
const FLUSH_MS = 100;
const FLUSH_BYTES = 64 * 1024;
/** Entries kept in memory for the console. */
export const RECENT_KEPT = 1000;

export class RequestLog {
  private fd?: number;
  private size = 0;
  private pending: string[] = [];
  private pendingBytes = 0;
  private timer?: NodeJS.Timeout;
  /** The newest entries, in memory (the console shows them without reading the file). */
  private readonly latest: LogEntry[] = [];

  /** `dir` undefined: the entries are kept in memory only (an emulator started by the library in memory). */
  constructor(
    private readonly dir: string | undefined,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  /**
   * Keeps the line; lines are written together within a tenth of a second
   * (one write for many requests keeps the cost off each request).
   */
  write(e: LogEntry): void {
    this.latest.push(e);
    // Trimmed by RECENT_KEPT at a time, not one each request: shifting a thousand entries on every request costs more than the rest of the log.
    if (this.latest.length >= 2 * RECENT_KEPT) this.latest.splice(0, this.latest.length - RECENT_KEPT);
    if (this.dir === undefined) return;
    const line = `${JSON.stringify(e)}\n`;
    this.pending.push(line);
    this.pendingBytes += line.length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /** The newest entries this process answered, oldest first (at most RECENT_KEPT). */
  recent(): readonly LogEntry[] {
    return this.latest.length > RECENT_KEPT ? this.latest.slice(-RECENT_KEPT) : this.latest;
  }

  /** Writes what is kept; past the size limit the file moves aside first. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const dir = this.dir;
    if (this.pending.length === 0 || dir === undefined) return;
    const path = join(dir, LOG_FILE);
    const data = this.pending.join('');
    this.pending = [];
    this.pendingBytes = 0;
    try {
      if (this.fd === undefined) {
        checkDataDir(dir, { create: true });
        this.fd = openPrivateFile(path);
        this.size = fstatSync(this.fd).size;
      }
      if (this.size > 0 && this.size + Buffer.byteLength(data) > this.maxBytes) {
        closeSync(this.fd);
        renameSync(path, join(dir, OLD_LOG_FILE));
        this.fd = openPrivateFile(path);
        this.size = 0;
      }
      this.size += writeSync(this.fd, data);
    } catch {
      // The log is for people: losing lines must never fail a request.
    }
  }

  close(): Promise<void> {
    this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    return Promise.resolve();
  }
}

/** A line as the log writes it; anything else in the file (a torn or tampered line) is skipped. */
function isEntry(v: unknown): v is LogEntry {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  return (
    ['time', 'requestId', 'service', 'operation', 'caller'].every((k) => typeof e[k] === 'string') &&
    typeof e.status === 'number' &&
    typeof e.durationMs === 'number' &&
    (e.code === undefined || typeof e.code === 'string')
  );
}

const parse = (text: string): LogEntry[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .flatMap((l) => {
      try {
        const v: unknown = JSON.parse(l);
        return isEntry(v) ? [v] : [];
      } catch {
        return [];
      }
    });

/** Every entry kept in a data directory, oldest first. */
export function readLog(dir: string): LogEntry[] {
  const read = (f: string): string => {
    try {
      return readBounded(join(dir, f), { label: 'the request log', maxBytes: READ_LIMITS.request, noFollow: true }).toString('utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return '';
      throw err;
    }
  };
  return [...parse(read(OLD_LOG_FILE)), ...parse(read(LOG_FILE))];
}

/**
 * Follows the log from its current end: calls `onEntry` for every line
 * written from now on, across rotations, until the returned stop is called.
 */
export function followLog(dir: string, onEntry: (e: LogEntry) => void, intervalMs = 200): () => void {
  const path = join(dir, LOG_FILE);
  const stat = (p: string): { ino: number; size: number } | undefined => {
    try {
      // Only a regular file, never through a link (data-dir.ts).
      const s = lstatSync(p);
      return s.isFile() ? { ino: s.ino, size: s.size } : undefined;
    } catch {
      return undefined;
    }
  };
  let at = stat(path) ?? { ino: -1, size: 0 };
  let pending = '';
  const readFrom = (p: string, from: number, to: number): void => {
    if (to <= from) return;
    let fd: number;
    try {
      fd = openSync(p, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
    } catch {
      // Gone, or replaced by something that is not the log, since it was looked at: read at the next tick.
      return;
    }
    try {
      const buf = Buffer.alloc(to - from);
      readSync(fd, buf, 0, buf.length, from);
      pending += buf.toString('utf8');
    } finally {
      closeSync(fd);
    }
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const e of parse(lines.join('\n'))) onEntry(e);
  };
  const tick = (): void => {
    const now = stat(path);
    if (!now) return;
    if (now.ino !== at.ino) {
      // Rotated: the rest of the file we were reading is now the old one.
      const old = stat(join(dir, OLD_LOG_FILE));
      if (old && old.ino === at.ino) readFrom(join(dir, OLD_LOG_FILE), at.size, old.size);
      pending = '';
      at = { ino: now.ino, size: 0 };
    }
    readFrom(path, at.size, now.size);
    at = now;
  };
  const timer = setInterval(tick, intervalMs);
  return () => {
    clearInterval(timer);
    tick();
  };
}
