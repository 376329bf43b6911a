import { Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import type { Output } from '../../lib/cli/render.js';
import { emulatorDataDirFlag, emulatorProfileFlag } from '../../lib/cli/flags.js';
import { usageError } from '../../lib/core/errors.js';

export default class EmulatorClock extends BaseCommand<typeof EmulatorClock> {
  static summary = "Show or drive the emulator's clock: pause it, advance it, resume it.";
  static description = [
    'Long-running work in the emulator (creations, upgrades, backups, deployments, tasks) is laid out on its clock and read off it, so the clock decides what state everything is in.',
    'With the clock paused, everything stays in the state it is in (a new data lake stays REQUESTED); --advance moves emulated time forward by a duration (15m, 2h30m, 90s, 1d), paused or not; --resume lets it run again. The clock keeps its time and pause across restarts.',
    'Without flags, shows the emulated time. Needs a running emulator.',
  ].join('\n\n');
  static examples = [
    '<%= config.bin %> emulator clock',
    '<%= config.bin %> emulator clock --pause',
    '<%= config.bin %> emulator clock --advance 15m',
    '<%= config.bin %> emulator clock --resume --output json',
  ];
  static flags = {
    advance: Flags.string({ description: 'Move emulated time forward by a duration: 30s, 15m, 2h, 1d, or combined (1h30m).' }),
    pause: Flags.boolean({
      description: 'Stop emulated time (nothing changes state until it is advanced or resumed).',
      exclusive: ['resume'],
    }),
    resume: Flags.boolean({ description: 'Let emulated time run again.', exclusive: ['pause'] }),
    'data-dir': emulatorDataDirFlag,
    profile: emulatorProfileFlag,
    output: Flags.string({ char: 'o', options: ['text', 'json'], default: 'text', description: 'Output format.' }),
  };

  protected async execute(_ctx: RunContext, { flags }: ParsedLine<typeof EmulatorClock>): Promise<Output> {
    const { parseDuration, formatDuration } = await import('../../lib/emulator/clock.js');
    const { adminRequest, emulatorDir, requireRunning } = await import('../../lib/emulator/control.js');
    let advanceMs: number | undefined;
    if (flags.advance !== undefined) {
      advanceMs = parseDuration(flags.advance);
      if (advanceMs === undefined) throw usageError(`--advance takes a duration such as 30s, 15m, 2h, 1d or 1h30m; got "${flags.advance}"`);
    }
    const { pid } = await requireRunning(await emulatorDir(flags), 'the clock runs with it');
    const change = flags.pause || flags.resume || advanceMs !== undefined;
    const clock = change
      ? await adminRequest(pid, 'POST', '/_emulator/clock', { pause: flags.pause, resume: flags.resume, advanceMs })
      : await adminRequest(pid, 'GET', '/_emulator/clock');
    if (flags.output === 'json') return { kind: 'answer', value: clock, render: { format: 'json' } };
    const ahead = Number(clock.aheadMs);
    const relation =
      Math.abs(ahead) < 1000 ? 'at real time' : `${formatDuration(Math.abs(ahead))} ${ahead > 0 ? 'ahead of' : 'behind'} real time`;
    return {
      kind: 'text',
      text: `${String(clock.now)}  ${clock.paused ? 'paused' : 'running'} (time scale ${String(clock.timeScale)}, ${relation})\n`,
    };
  }
}
