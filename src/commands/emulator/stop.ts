import { BaseCommand } from '../../lib/cli/base-command.js';
import { IO } from '../../lib/cli/io.js';
import { emulatorDataDirFlag } from '../../lib/cli/flags.js';

export default class EmulatorStop extends BaseCommand {
  static summary = 'Stop the emulator started for a data directory.';
  static description = 'Signals only the process recorded in the data directory, after it confirms it is that emulator; never by name.';
  static examples = ['<%= config.bin %> emulator stop'];
  static flags = { 'data-dir': emulatorDataDirFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(EmulatorStop);
    const { defaultDataDir, stopEmulator } = await import('../../lib/emulator/control.js');
    const stopped = await stopEmulator(flags['data-dir'] ?? defaultDataDir());
    new IO().info(
      stopped ? `stopped the emulator on port ${stopped.port} (pid ${stopped.pid})` : 'no emulator is running for that data directory',
    );
  }
}
