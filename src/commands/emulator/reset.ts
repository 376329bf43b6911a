import { BaseCommand } from '../../lib/cli/base-command.js';
import { IO } from '../../lib/cli/io.js';
import { emulatorDataDirFlag } from '../../lib/cli/flags.js';

export default class EmulatorReset extends BaseCommand {
  static summary = 'Delete all emulator state (it must be stopped).';
  static description = 'The next start creates a new account, admin and key, and rewrites the "emulator" profile.';
  static examples = ['<%= config.bin %> emulator stop && <%= config.bin %> emulator reset'];
  static flags = { 'data-dir': emulatorDataDirFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(EmulatorReset);
    const { defaultDataDir, resetEmulator } = await import('../../lib/emulator/control.js');
    const dataDir = flags['data-dir'] ?? defaultDataDir();
    await resetEmulator(dataDir);
    new IO().info(`emulator state in ${dataDir} deleted`);
  }
}
