/**
 * cdpctl run inside the test's own process: the same steps as bin/run.js
 * (the line normalised, then the fast path), with the run context's
 * terminals as buffers, its environment the test's temp HOME, and its clock
 * one whose pauses move the emulator's clock rather than waiting. What the
 * fast path leaves to oclif (hand-written commands, lines it is unsure of)
 * runs as a real process, as before. The gh CLI's tests run commands this
 * way; ours run them against a real emulator, in process too.
 */
import { Readable } from 'node:stream';
import type { Clock } from '../../src/lib/core/clock.js';
import { fastRun, normalizeCommandLine } from '../../src/lib/cli/fast-run.js';
import { BufferStream } from './fakes.js';

export interface InProcessRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface InProcessOptions {
  readonly root: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly input?: string | Buffer;
  /** Paces waits; default the system's (real time). */
  readonly clock?: Clock;
}

/** Words bin/run.js answers before the fast path, or that need a process of their own. */
function needsProcess(args: readonly string[]): boolean {
  const [first] = args;
  return (
    first === undefined ||
    first === '__complete' ||
    first === 'autocomplete' ||
    (args.length === 1 && /^(--version|-v|version)$/.test(first))
  );
}

/** Variables that steer node or bin/run.js itself, which only a process of its own can honour. */
const PROCESS_VARIABLES = ['NODE_OPTIONS', 'CDPCTL_NO_FAST_PATH', 'XDG_CACHE_HOME'];

/** Runs a command line in this process; undefined when it must run as a process (oclif's, or bin/run.js's own). */
export async function runInProcess(args: readonly string[], opts: InProcessOptions): Promise<InProcessRun | undefined> {
  if (needsProcess(args) || PROCESS_VARIABLES.some((v) => opts.env[v] !== undefined)) return undefined;
  const line = normalizeCommandLine(args);
  const out = new BufferStream(false);
  const err = new BufferStream(false);
  const input = opts.input === undefined ? '' : opts.input;
  const code = await fastRun(line, {
    root: opts.root,
    deps: {
      env: opts.env,
      streams: { out, err, stdinIsTTY: false, in: Readable.from([Buffer.from(input)]) },
      argv: args,
      ...(opts.clock ? { clock: opts.clock } : {}),
      // Ctrl-C goes to a real process (tests that interrupt start one).
      onInterrupt: () => () => undefined,
    },
  });
  if (code === undefined) return undefined;
  return { code, stdout: out.text, stderr: err.text };
}
