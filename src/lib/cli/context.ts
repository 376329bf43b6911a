/**
 * The run context: what a command runs with, built once at the entry (the
 * fast path, or BaseCommand under oclif) from the global flags of its
 * command line. It holds the IO, the environment, the clock, the profile
 * those flags name (read once, when first asked), the output format, and a
 * factory of clients whose transport can be replaced. Commands receive it
 * and return what they have to show (render.ts); in-process tests build one
 * with a fake transport, a fake clock and buffers for terminals (the GitHub
 * CLI's factory and IOStreams).
 */
import { OperationClient, type ClientSettings } from '../core/client.js';
import { systemClock, type Clock } from '../core/clock.js';
import { loadProfile, type Env, type ProfileSettings } from '../core/config.js';
import { DEFAULT_HTTP, HttpClient, type HttpOptions, type Transport } from '../core/http.js';
import { numberFlag } from './input.js';
import { IO, isTerminal, type ColorMode, type IOStreams } from './io.js';
import { OUTPUT_FORMATS, type OutputFormat } from './output.js';

/** Parsed flags, by flag name; the context reads the global ones (flag-spec.ts GLOBAL_FLAG_SPECS). */
export type ParsedFlags = Readonly<Record<string, unknown>>;

/** What a context is built on; each defaults to the real thing. */
export interface ContextDeps {
  readonly env?: Env;
  /** The program name, for hints (`cdpctl`). */
  readonly bin?: string;
  /** The terminals (default the process's stdout and stderr, and whether fd 0 is a terminal). */
  readonly streams?: IOStreams;
  /** Makes the transport each client sends through (default an HttpClient). */
  readonly transport?: (options: HttpOptions) => Transport;
  readonly clock?: Clock;
  /** Where Ctrl-C is heard (default the process's SIGINT). */
  readonly onInterrupt?: (listener: () => void) => () => void;
  /** The command line as given, before parsing (default the process's): how a flag was spelt matters to some answers. */
  readonly argv?: readonly string[];
}

const onSigint = (listener: () => void): (() => void) => {
  process.once('SIGINT', listener);
  return () => void process.removeListener('SIGINT', listener);
};

/** The most a timer waits: "0 waits forever" is the longest timeout node takes. */
const FOREVER_MS = 2 ** 31 - 1;

export class RunContext {
  readonly io: IO;
  readonly env: Env;
  readonly bin: string;
  readonly clock: Clock;
  /** The command line as given (see ContextDeps.argv). */
  readonly argv: readonly string[];
  private readonly makeTransport: (options: HttpOptions) => Transport;
  private read?: { readonly settings?: ProfileSettings; readonly error?: unknown };
  private readonly clients: OperationClient[] = [];
  private readonly transports: Transport[] = [];

  constructor(
    private readonly flags: ParsedFlags,
    private readonly deps: ContextDeps = {},
  ) {
    this.env = deps.env ?? process.env;
    this.bin = deps.bin ?? 'cdpctl';
    this.clock = deps.clock ?? systemClock;
    this.argv = deps.argv ?? process.argv.slice(2);
    this.makeTransport = deps.transport ?? ((options) => new HttpClient(options));
    this.io = new IO(
      {
        color: (flags.color as ColorMode | undefined) ?? 'auto',
        pager: !flags['no-pager'],
        noInput: Boolean(flags['no-input']),
        env: this.env,
      },
      // Asked of the descriptor: the first touch of process.stdin builds a stream (loading fs streams
      // and fs/promises, 3-10 ms of every call) that a call without --input - never reads.
      { stdinIsTTY: isTerminal(0), ...deps.streams },
    );
  }

  /** The profile the command line names (--profile, else $CDP_PROFILE, else default), read from the files once. */
  profile(): ProfileSettings {
    if (!this.read) {
      try {
        this.read = { settings: loadProfile(this.flags.profile as string | undefined, this.env) };
      } catch (error) {
        this.read = { error };
      }
    }
    if (this.read.error !== undefined || !this.read.settings) throw this.read.error;
    return this.read.settings;
  }

  /** --output, else CDP_DEFAULT_OUTPUT, else the profile's `output` when it is a format, else json. */
  get output(): OutputFormat {
    const given = (this.flags.output as string | undefined) ?? this.env.CDP_DEFAULT_OUTPUT;
    if (given) return given as OutputFormat;
    try {
      const out = this.profile().values.output;
      if (out && (OUTPUT_FORMATS as readonly string[]).includes(out)) return out as OutputFormat;
    } catch {
      // The call itself reports profile problems.
    }
    return 'json';
  }

  /** The HTTP settings of the command line: timeouts (0 waits forever), TLS, IPv4, attempts. */
  private httpSettings(): Partial<Omit<HttpOptions, 'env' | 'debug'>> {
    const flags = this.flags;
    const read = numberFlag(flags, 'cli-read-timeout', { min: 0 });
    const connect = numberFlag(flags, 'cli-connect-timeout', { min: 0 });
    return {
      ...(flags['force-ipv4'] ? { ipv4Only: true } : {}),
      ...(read !== undefined ? { readTimeoutMs: read === 0 ? FOREVER_MS : read * 1000 } : {}),
      ...(connect !== undefined ? { connectTimeoutMs: connect === 0 ? FOREVER_MS : connect * 1000 } : {}),
      verifyTls: !flags['no-verify-tls'],
      caBundle: flags['ca-bundle'] as string | undefined,
      ...(this.env.CDPCTL_MAX_ATTEMPTS ? { maxAttempts: Math.max(1, Number(this.env.CDPCTL_MAX_ATTEMPTS) || 1) } : {}),
    };
  }

  /** --debug: one line a request and answer on stderr. */
  private get debug(): ((line: string) => void) | undefined {
    return this.flags.debug ? (line) => this.io.debug(line) : undefined;
  }

  /** A transport for requests that are no API call (the console's device login); closed with the context. */
  transport(http: Partial<Omit<HttpOptions, 'env' | 'debug'>> = {}): Transport {
    const made = this.makeTransport({ ...DEFAULT_HTTP, ...http, env: this.env, debug: this.debug });
    this.transports.push(made);
    return made;
  }

  /**
   * A client for the call flags of the command line (endpoint, region,
   * credentials, timeouts, TLS), closed with the context. `overrides` name
   * another profile or give a key to sign with (login's check): such a
   * client reads its profile itself; or another endpoint to call.
   */
  client(overrides: Partial<Pick<ClientSettings, 'profile' | 'credentials' | 'accessToken' | 'endpointUrl'>> = {}): OperationClient {
    const flags = this.flags;
    const http = this.httpSettings();
    const own = 'profile' in overrides || 'credentials' in overrides;
    const client = new OperationClient({
      profile: flags.profile as string | undefined,
      endpointUrl: flags['endpoint-url'] as string | undefined,
      region: flags['cdp-region'] as string | undefined,
      formFactor: flags['form-factor'] as string | undefined,
      authConfig: flags['auth-config'] as string | undefined,
      accessToken: flags['access-token'] as string | undefined,
      env: this.env,
      http,
      debug: this.debug,
      warn: (line) => this.io.warn(line),
      clock: this.clock,
      transport: this.makeTransport({ ...DEFAULT_HTTP, ...http, env: this.env, debug: this.debug }),
      ...(own ? {} : { profileSettings: () => this.profile() }),
      ...overrides,
    });
    this.clients.push(client);
    return client;
  }

  /** Calls `listener` on Ctrl-C until the returned function is called. */
  onInterrupt(listener: () => void): () => void {
    return (this.deps.onInterrupt ?? onSigint)(listener);
  }

  /** Lets go of every connection its clients and transports hold. */
  close(): void {
    for (const c of this.clients.splice(0)) c.close();
    for (const t of this.transports.splice(0)) t.close();
  }
}
