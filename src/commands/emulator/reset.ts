import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import { nothing, type Output } from '../../lib/cli/render.js';
import { emulatorDataDirFlag } from '../../lib/cli/flags.js';

export default class EmulatorReset extends BaseCommand<typeof EmulatorReset> {
  static summary = 'Delete all emulator state (it must be stopped).';
  static description = 'The next start creates a new account, admin and key, and rewrites the "emulator" profile.';
  static examples = ['<%= config.bin %> emulator stop && <%= config.bin %> emulator reset'];
  static flags = { 'data-dir': emulatorDataDirFlag };

  protected async execute(_ctx: RunContext, { flags }: ParsedLine<typeof EmulatorReset>): Promise<Output> {
    const { defaultDataDir, resetEmulator } = await import('../../lib/emulator/control.js');
    const dataDir = flags['data-dir'] ?? defaultDataDir();
    await resetEmulator(dataDir);
    return nothing({ info: `emulator state in ${dataDir} deleted` });
  }
}
