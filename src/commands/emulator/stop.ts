import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import { nothing, type Output } from '../../lib/cli/render.js';
import { emulatorDataDirFlag, emulatorProfileFlag } from '../../lib/cli/flags.js';

export default class EmulatorStop extends BaseCommand<typeof EmulatorStop> {
  static summary = 'Stop an emulator, by its data directory or its profile.';
  static description = [
    'Signals only the process recorded in the data directory, after it confirms it is that emulator; never by name.',
    'The profile it wrote is given back: restored to what it held before the emulator took it, or removed when it held nothing (or named an emulator that no longer runs), so that no profile is left pointing at a dead port.',
  ].join('\n\n');
  static examples = [
    '<%= config.bin %> emulator stop',
    '<%= config.bin %> emulator stop --profile ci',
    '<%= config.bin %> emulator stop --data-dir /tmp/ci-emu',
  ];
  static flags = {
    'data-dir': emulatorDataDirFlag,
    profile: emulatorProfileFlag,
  };

  protected async execute(_ctx: RunContext, { flags }: ParsedLine<typeof EmulatorStop>): Promise<Output> {
    const { emulatorDir, runningElsewhere, stopEmulator } = await import('../../lib/emulator/control.js');
    const dataDir = await emulatorDir(flags);
    const stopped = await stopEmulator(dataDir);
    if (!stopped) {
      // Nothing to stop is not an error (scripts stop unconditionally), but one running elsewhere is worth naming.
      const elsewhere = await runningElsewhere(dataDir);
      return nothing({ info: `no emulator is running for that data directory${elsewhere ? `; ${elsewhere}` : ''}` });
    }
    const said = {
      restored: 'restored to what it held before this emulator took it',
      removed: 'removed (it held nothing before, or named an emulator that no longer runs)',
      untouched: 'left as it is: it names something else now',
    } as const;
    return nothing(
      { info: `stopped the emulator on port ${stopped.port} (pid ${stopped.pid})` },
      { info: `profile "${stopped.profile}" ${said[stopped.release]}` },
    );
  }
}
