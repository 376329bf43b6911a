import { Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import { nothing, type Note, type Output } from '../../lib/cli/render.js';
import { emulatorDataDirFlag } from '../../lib/cli/flags.js';
import { usageError } from '../../lib/core/errors.js';

export default class EmulatorStart extends BaseCommand<typeof EmulatorStart> {
  static summary = 'Start the local emulator of the control plane.';
  static description = [
    'Time: long operations run on the emulator clock, 60 times faster than real time by default (an emulated minute a second: a 10-minute data lake creation takes 10 s); --time-scale 1 keeps real time, --time-scale 1000 suits tests. Move it yourself with `cdpctl emulator clock --advance 15m`, or hold it with --pause.',
    'Serves all modelled services on loopback (127.0.0.1 and ::1), keeps state in SQLite under --data-dir, and writes a profile (--profile, default "emulator": credentials, endpoint_url and cdp_endpoint_url) without touching other profiles. Each data directory remembers its profile; two instances never share one. `emulator stop` gives the profile back as it was before the instance took it, or removes it.',
    'A new account starts with a few environments (sales-env, ops-env, ...) and their credentials, ready to try things; --empty gives only the account and its admin user, for automation that assumes a clean account.',
    'Resources whose name starts with "fail-" fail their long-running work, so failure paths can be tried.',
    '--seed FILE applies a YAML or JSON list of operations once the account exists, as its admin, each checked like any request (`- iam createGroup: {groupName: data-eng}`); all of it or, with an error naming the line, none of it. A file already applied to the data directory is skipped. Save and load state with `emulator export` and `emulator import`; see what runs with `emulator status`.',
  ].join('\n\n');
  static examples = [
    '<%= config.bin %> emulator start --detach',
    '<%= config.bin %> emulator clock --advance 15m',
    '<%= config.bin %> emulator start --detach --empty --data-dir /tmp/ci-emu --port 0 --profile ci --seed fixtures/seed.yaml',
    '<%= config.bin %> emulator start --port 0 --data-dir /tmp/emu --time-scale 1000 --detach',
    '<%= config.bin %> emulator start --fault-rate 0.2 --fault-kinds 503,429',
  ];
  static flags = {
    'time-scale': Flags.string({
      description: 'How much faster than real time long operations advance (60: an emulated minute a second; 1: real time).',
      default: '60',
    }),
    port: Flags.integer({ description: 'Port to listen on; 0 picks a free one.', default: 48480, min: 0, max: 65535 }),
    'data-dir': emulatorDataDirFlag,
    profile: Flags.string({
      description: 'Profile to write for this emulator (default: the one its data directory remembers, else "emulator").',
    }),
    empty: Flags.boolean({ description: 'A new account with only its admin user: no pre-created environments or credentials.' }),
    detach: Flags.boolean({ description: 'Run in the background; return once it answers.' }),
    'fault-rate': Flags.string({ description: 'Fraction (0..1) of requests answered with an injected fault.' }),
    'fault-kinds': Flags.string({ description: 'Faults to inject: 503, 429, reset (comma separated).', default: '503,429' }),
    'fault-latency': Flags.string({ description: 'Milliseconds added before every answer.' }),
    seed: Flags.string({ description: 'A YAML or JSON list of operations to apply at start (see the description).' }),
  };

  protected async execute(ctx: RunContext, { flags }: ParsedLine<typeof EmulatorStart>): Promise<Output> {
    const { consoleAddress, defaultDataDir, startDetached } = await import('../../lib/emulator/control.js');
    const { parseFaults, serve } = await import('../../lib/emulator/serve.js');
    const timeScale = Number(flags['time-scale']);
    if (!(timeScale > 0)) throw usageError(`--time-scale must be a positive number; got "${flags['time-scale']}"`);
    if (flags.profile !== undefined && !/^[A-Za-z0-9_.-]+$/.test(flags.profile))
      throw usageError(`--profile must be letters, digits, "_", "." or "-"; got "${flags.profile}"`);
    let faults;
    try {
      faults = parseFaults(flags['fault-rate'], flags['fault-kinds'], flags['fault-latency']);
    } catch (err) {
      throw usageError((err as Error).message);
    }
    const opts = {
      dataDir: flags['data-dir'] ?? defaultDataDir(),
      port: flags.port,
      timeScale,
      faults,
      seed: flags.seed,
      profile: flags.profile,
      empty: flags.empty,
    };
    if (flags.detach) {
      const { pid, health, already, repaired } = await startDetached(opts);
      const profile = repaired?.profile ?? health.profile ?? 'emulator';
      const notes: Note[] = [];
      if (repaired?.repaired)
        notes.push({
          info: `profile "${profile}" ${repaired.was ? `pointed at ${repaired.was}` : 'was missing or held a key this emulator does not take'}; repaired: it points at this emulator again`,
        });
      notes.push({ info: `profile "${profile}" is ready: ${ctx.bin} --profile ${profile} iam users get` });
      notes.push({ info: `console: ${consoleAddress(pid)} (what the account holds, the request log, the clock)` });
      return {
        kind: 'text',
        text: `emulator ${already ? 'already ' : ''}running on http://localhost:${pid.port}/ (pid ${pid.pid}, account ${pid.accountId}, time scale ${health.timeScale})\n`,
        notes,
      };
    }
    // In the foreground it serves until stopped, saying what it does as it goes.
    await serve(opts, (line) => ctx.io.info(line));
    return nothing();
  }
}
