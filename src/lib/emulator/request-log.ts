/**
 * The emulator's request log: one JSON line per API request it answered
 * (time, request id, service, operation, caller, status, error code,
 * duration), never a body or any field of one. It lives in the data
 * directory as `requests.log`; past 4 MiB it becomes `requests.1.log` (the
 * one before is dropped), so it never takes more than 8 MiB on disk.
 * `cdpctl emulator log` reads it, and follows it with --follow.
 */
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  closeSync,
  renameSync,
  statSync,
  type WriteStream,
} from 'node:fs';
import { join } from 'node:path';

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

export class RequestLog {
  private stream?: WriteStream;
  private size = 0;

  constructor(
    private readonly dir: string,
    private readonly maxBytes = MAX_BYTES,
  ) {}

  private get path(): string {
    return join(this.dir, LOG_FILE);
  }

  private open(): WriteStream {
    if (this.stream) return this.stream;
    mkdirSync(this.dir, { recursive: true });
    this.size = existsSync(this.path) ? statSync(this.path).size : 0;
    // Opened here, not by the stream later: a rotation renames the file this stream already writes to.
    this.stream = createWriteStream('', { fd: openSync(this.path, 'a', 0o600) });
    this.stream.on('error', () => undefined);
    return this.stream;
  }

  write(e: LogEntry): void {
    const line = `${JSON.stringify(e)}\n`;
    const s = this.open();
    s.write(line);
    this.size += Buffer.byteLength(line);
    if (this.size >= this.maxBytes) this.rotate();
  }

  /** The current file becomes the old one; lines still buffered follow it (a rename keeps the open file). */
  private rotate(): void {
    try {
      renameSync(this.path, join(this.dir, OLD_LOG_FILE));
    } catch {
      return;
    }
    this.stream?.end();
    this.stream = undefined;
    this.size = 0;
  }

  close(): Promise<void> {
    const s = this.stream;
    this.stream = undefined;
    return new Promise((resolve) => (s ? s.end(() => resolve()) : resolve()));
  }
}

const parse = (text: string): LogEntry[] =>
  text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as LogEntry];
      } catch {
        return [];
      }
    });

/** Every entry kept in a data directory, oldest first. */
export function readLog(dir: string): LogEntry[] {
  const read = (f: string): string => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : '');
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
      const s = statSync(p);
      return { ino: s.ino, size: s.size };
    } catch {
      return undefined;
    }
  };
  let at = stat(path) ?? { ino: -1, size: 0 };
  let pending = '';
  const readFrom = (p: string, from: number, to: number): void => {
    if (to <= from) return;
    const fd = openSync(p, 'r');
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
