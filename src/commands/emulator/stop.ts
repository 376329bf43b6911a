import { BaseCommand } from '../../lib/cli/base-command.js';
import { IO } from '../../lib/cli/io.js';
import { emulatorDataDirFlag, emulatorProfileFlag } from '../../lib/cli/flags.js';

export default class EmulatorStop extends BaseCommand {
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

  async run(): Promise<void> {
    const { flags } = await this.parse(EmulatorStop);
    const { emulatorDir, stopEmulator } = await import('../../lib/emulator/control.js');
    const stopped = await stopEmulator(await emulatorDir(flags));
    const io = new IO();
    if (!stopped) {
      io.info('no emulator is running for that data directory');
      return;
    }
    io.info(`stopped the emulator on port ${stopped.port} (pid ${stopped.pid})`);
    const said = {
      restored: 'restored to what it held before this emulator took it',
      removed: 'removed (it held nothing before, or named an emulator that no longer runs)',
      untouched: 'left as it is: it names something else now',
    } as const;
    io.info(`profile "${stopped.profile}" ${said[stopped.release]}`);
  }
}
