import { Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import type { Output } from '../../lib/cli/render.js';
import { emulatorDataDirFlag, emulatorProfileFlag } from '../../lib/cli/flags.js';
import { formatterFor } from '../../lib/cli/output.js';
import type { LogEntry } from '../../lib/emulator/request-log.js';

/** `type:id` of a caller's CRN (the last two parts), or the text as it is. */
const callerOf = (crn: string): string => (crn.startsWith('crn:') ? crn.split(':').slice(-2).join(':') : crn);

function line(e: LogEntry): string {
  const status = `${e.status === 0 ? 'dropped' : e.status}${e.code ? ` ${e.code}` : ''}`;
  return [e.time, e.requestId, `${e.service} ${e.operation}`, callerOf(e.caller), status, `${e.durationMs.toFixed(1)} ms`].join('  ');
}

export default class EmulatorLog extends BaseCommand<typeof EmulatorLog> {
  static summary = 'Show the requests the emulator answered: time, request id, service, operation, caller, status, duration.';
  static description = [
    'One line per API request, oldest first: when it arrived, the x-cdp-request-id of the answer, the operation, who signed it (the type and id of their CRN; the full CRN with --output json), the HTTP status with the error code of a failure, and how long it took. Bodies are never logged, so no field of a request or answer (secrets included) is ever shown.',
    'The log lives in the data directory (requests.log) and keeps at most about 8 MiB: past 4 MiB the file moves to requests.1.log, replacing the one before. It works whether the emulator runs or not; --follow keeps printing new requests until interrupted.',
  ].join('\n\n');
  static examples = [
    '<%= config.bin %> emulator log',
    '<%= config.bin %> emulator log --tail 20',
    '<%= config.bin %> emulator log --follow --output json',
  ];
  static flags = {
    follow: Flags.boolean({ char: 'f', description: 'Keep printing requests as they are answered, until interrupted.' }),
    tail: Flags.integer({ description: 'Only the last N requests logged so far.', min: 0 }),
    'data-dir': emulatorDataDirFlag,
    profile: emulatorProfileFlag,
    output: Flags.string({
      char: 'o',
      options: ['text', 'json'],
      default: 'text',
      description: 'Output format: text lines, or one JSON object per line.',
    }),
  };

  protected async execute(ctx: RunContext, { flags }: ParsedLine<typeof EmulatorLog>): Promise<Output> {
    const { emulatorDir } = await import('../../lib/emulator/control.js');
    const { followLog, readLog } = await import('../../lib/emulator/request-log.js');
    const dataDir = await emulatorDir(flags);
    // --output json is one compact JSON object a line: the jsonl formatter's items, one at a time as they come.
    const jsonl = flags.output === 'json' ? (await formatterFor('jsonl')).listing : undefined;
    const format = (e: LogEntry): string => (jsonl ? jsonl.items([e]) : `${line(e)}\n`);
    const past = readLog(dataDir);
    const shown = flags.tail === undefined ? past : past.slice(Math.max(0, past.length - flags.tail));
    // Followed from the moment the past was read, so that nothing logged in between is missed.
    const later = flags.follow ? following((onEntry) => followLog(dataDir, onEntry), ctx) : undefined;
    return { kind: 'lines', lines: entries(shown, later, format) };
  }
}

async function* entries(past: readonly LogEntry[], later: AsyncIterable<LogEntry> | undefined, format: (e: LogEntry) => string) {
  for (const e of past) yield format(e);
  if (later) for await (const e of later) yield format(e);
}

/** The entries a follower reports, from now until Ctrl-C or SIGTERM. */
function following(follow: (onEntry: (e: LogEntry) => void) => () => void, ctx: RunContext): AsyncIterable<LogEntry> {
  const queue: LogEntry[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const stopFollowing = follow((e) => {
    queue.push(e);
    wake?.();
  });
  const end = (): void => {
    ended = true;
    wake?.();
  };
  const stopListening = ctx.onInterrupt(end);
  process.once('SIGTERM', end);
  return (async function* () {
    try {
      for (;;) {
        for (let e = queue.shift(); e; e = queue.shift()) yield e;
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    } finally {
      stopFollowing();
      stopListening();
      process.removeListener('SIGTERM', end);
    }
  })();
}
