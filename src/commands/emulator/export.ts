import { Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import { nothing, type Output } from '../../lib/cli/render.js';
import { emulatorDataDirFlag, emulatorProfileFlag } from '../../lib/cli/flags.js';
import { CdpError, fileProblem, usageError } from '../../lib/core/errors.js';

export default class EmulatorExport extends BaseCommand<typeof EmulatorExport> {
  static summary = "Write the emulator's whole state to a file: every service, the clock.";
  static description = [
    'The file is JSON: every stored record of every service, the files uploaded to the emulator, and the clock (its time and whether it is paused). It holds no private keys (the emulator keeps only public keys and hashes) and never the admin token.',
    'Works on a running emulator and on a stopped one. Load it again with `emulator import`, for CI fixtures or to replay a bug report.',
  ].join('\n\n');
  static examples = ['<%= config.bin %> emulator export --file state.json', '<%= config.bin %> emulator export --file - | jq .clock'];
  static flags = {
    file: Flags.string({ description: 'Where to write the state; - for stdout.', required: true }),
    'data-dir': emulatorDataDirFlag,
    profile: emulatorProfileFlag,
  };

  protected async execute(_ctx: RunContext, { flags }: ParsedLine<typeof EmulatorExport>): Promise<Output> {
    const { adminRequest, emulatorDir, running } = await import('../../lib/emulator/control.js');
    const dataDir = await emulatorDir(flags);
    const found = await running(dataDir);
    let state: unknown;
    if (found) state = await adminRequest(found.pid, 'GET', '/_emulator/state');
    else {
      const { exportStopped } = await import('../../lib/emulator/offline.js');
      const { StateError } = await import('../../lib/emulator/state.js');
      try {
        state = exportStopped(dataDir);
      } catch (err) {
        if (err instanceof StateError) throw usageError(err.message);
        throw err;
      }
    }
    const text = `${JSON.stringify(state, null, 2)}\n`;
    const documents = (state as { documents?: unknown[] }).documents?.length ?? 0;
    const done = {
      info: `exported ${documents} records${flags.file === '-' ? '' : ` to ${flags.file}`} (${found ? 'running' : 'stopped'} emulator)`,
    };
    if (flags.file === '-') return { kind: 'text', text, notes: [done] };
    const { writeFileAtomic } = await import('../../lib/core/config.js');
    try {
      writeFileAtomic(flags.file, text);
    } catch (err) {
      if (err instanceof CdpError) throw err;
      throw usageError(`--file: cannot write ${flags.file}: ${fileProblem(err)}`);
    }
    return nothing(done);
  }
}
