/**
 * Fakes for in-process tests (the GitHub CLI's httpmock and iostreams.Test):
 * a transport that answers from a script and records what was sent, a clock
 * the test drives, and terminals that are buffers.
 */
import { Writable } from 'node:stream';
import type { Clock } from '../../src/lib/core/clock.js';
import type { ProfileSettings } from '../../src/lib/core/config.js';
import type { HttpRequest, HttpResponse, Transport } from '../../src/lib/core/http.js';
import { RunContext, type ParsedFlags } from '../../src/lib/cli/context.js';
import { IO, type IOOptions, type Question } from '../../src/lib/cli/io.js';

/** A request as the fake transport saw it: the body read (a stream's bytes counted). */
export interface SentRequest {
  readonly method: string;
  readonly url: URL;
  /** The path and query, as a server sees it. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body, parsed (undefined for an upload). */
  readonly body?: unknown;
  /** The bytes of an upload. */
  readonly bytes?: number;
}

/** An answer of the script: a document (200), or a status with its document and headers. */
export type Reply = { readonly status?: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> };

export type Script = (req: SentRequest, index: number) => Reply | undefined;

/** A transport that answers from a script (200 `{}` where it has no answer) and records every request. */
export class FakeTransport implements Transport {
  readonly sent: SentRequest[] = [];
  closed = 0;

  constructor(private readonly script: Script = () => undefined) {}

  /** Answers by the request's path; each value is a reply, or a list of replies given in turn. */
  static byPath(replies: Readonly<Record<string, Reply | readonly Reply[]>>): FakeTransport {
    const seen = new Map<string, number>();
    return new FakeTransport((req) => {
      const path = req.url.pathname;
      const reply = replies[path];
      if (!Array.isArray(reply)) return reply as Reply | undefined;
      const n = seen.get(path) ?? 0;
      seen.set(path, n + 1);
      return reply[Math.min(n, reply.length - 1)] as Reply;
    });
  }

  async send(req: HttpRequest): Promise<HttpResponse> {
    const headers: Record<string, string> = { ...req.headers, ...(req.sign ? req.sign() : {}) };
    let body: unknown;
    let bytes: number | undefined;
    if (Buffer.isBuffer(req.body)) body = req.body.length ? (JSON.parse(req.body.toString('utf8')) as unknown) : undefined;
    else {
      bytes = 0;
      for await (const chunk of req.body()) bytes += (chunk as Buffer).length;
    }
    const sent: SentRequest = {
      method: req.method ?? 'POST',
      url: req.url,
      path: req.url.pathname + req.url.search,
      headers,
      ...(bytes === undefined ? { body } : { bytes }),
    };
    this.sent.push(sent);
    const reply = this.script(sent, this.sent.length - 1) ?? {};
    return {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json', ...reply.headers },
      body: Buffer.from(reply.body === undefined ? '{}' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body)),
    };
  }

  close(): void {
    this.closed++;
  }
}

/** A clock that only moves when told to, or by what is slept. */
export class FakeClock implements Clock {
  /** Every pause asked for, in ms. */
  readonly slept: number[] = [];
  private ticks = new Set<() => void>();

  constructor(public time = Date.UTC(2026, 10, 22, 10, 0, 0)) {}

  now(): number {
    return this.time;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.slept.push(ms);
    if (!signal?.aborted) this.time += ms;
  }

  every(_ms: number, tick: () => void): () => void {
    this.ticks.add(tick);
    return () => this.ticks.delete(tick);
  }

  /** Moves time on and runs every ticking callback once. */
  advance(ms: number): void {
    this.time += ms;
    for (const tick of [...this.ticks]) tick();
  }

  /** Callbacks still ticking. */
  get ticking(): number {
    return this.ticks.size;
  }
}

/** A terminal or a pipe that keeps what is written to it. */
export class BufferStream extends Writable {
  text = '';
  constructor(
    readonly isTTY = false,
    readonly columns?: number,
    readonly rows?: number,
  ) {
    super();
  }
  override _write(chunk: Buffer, _enc: string, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

export interface BufferIOOptions extends IOOptions {
  /** stdout and stderr are terminals (and stdin, unless stdinTTY says otherwise). */
  readonly tty?: boolean;
  readonly stdinTTY?: boolean;
  readonly columns?: number;
  readonly rows?: number;
  /** Answers questions in place of a person. */
  readonly ask?: (q: Question) => Promise<unknown>;
}

/** IO on buffers: what a command wrote to stdout (`out.text`) and stderr (`err.text`). */
export function bufferIO(opts: BufferIOOptions = {}): { io: IO; out: BufferStream; err: BufferStream } {
  const out = new BufferStream(opts.tty ?? false, opts.columns, opts.rows);
  const err = new BufferStream(opts.tty ?? false, opts.columns);
  const io = new IO({ env: {}, ...opts }, { out, err, stdinIsTTY: opts.stdinTTY ?? opts.tty ?? false, ask: opts.ask });
  return { io, out, err };
}

/** A profile as if read from the files (nothing is read). */
export function fakeProfile(values: Readonly<Record<string, string>> = {}, profile = 'default'): ProfileSettings {
  return {
    profile,
    explicit: false,
    values,
    paths: { credentials: '/nonexistent/credentials', config: '/nonexistent/config' },
  };
}

export interface FakeContextOptions extends Omit<BufferIOOptions, keyof IOOptions> {
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly transport?: FakeTransport;
  readonly clock?: FakeClock;
}

/**
 * A run context as an entry builds it from a command line's flags, on
 * fakes: buffers for terminals, a transport that answers from a script, a
 * clock that only moves when slept, no environment but what is given, and
 * Ctrl-C only when the test calls `interrupt`.
 */
export function fakeContext(flags: ParsedFlags = {}, opts: FakeContextOptions = {}) {
  const out = new BufferStream(opts.tty ?? false, opts.columns, opts.rows);
  const err = new BufferStream(opts.tty ?? false, opts.columns);
  const transport = opts.transport ?? new FakeTransport();
  const clock = opts.clock ?? new FakeClock();
  const listeners = new Set<() => void>();
  const ctx = new RunContext(flags, {
    // No HOME of the machine: profiles are read from files that are not there unless a test writes them.
    env: { HOME: '/nonexistent/cdpctl-test-home', ...opts.env },
    streams: { out, err, stdinIsTTY: opts.stdinTTY ?? opts.tty ?? false, ask: opts.ask },
    transport: () => transport,
    clock,
    onInterrupt: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  const interrupt = (): void => listeners.forEach((l) => l());
  return { ctx, out, err, transport, clock, interrupt };
}

/** A listing of sixty users, each row wider than a terminal: long CRNs and emails, a wire time. */
export const sixtyUsers = {
  users: Array.from({ length: 60 }, (_, i) => ({
    userId: `user-${i}`,
    crn: `crn:altus:iam:us-west-1:0f5e8c3a-7d7b-4f0e-9b8e-3f1c2d4e5a6b:user:${String(i).padStart(8, '0')}-aaaa-bbbb-cccc-dddddddddddd`,
    email: `user-${i}@a-rather-long-domain-name.example.com`,
    creationDate: '2026-11-22T10:00:00.000Z',
  })),
};
