import { Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import { nothing, type Output } from '../../lib/cli/render.js';
import { emulatorDataDirFlag, emulatorProfileFlag } from '../../lib/cli/flags.js';
import { READ_LIMITS, readBounded, readStreamBounded } from '../../lib/core/bounded-read.js';
import { CdpError, fileProblem, usageError } from '../../lib/core/errors.js';

export default class EmulatorImport extends BaseCommand<typeof EmulatorImport> {
  static summary = "Replace the emulator's state with a file `emulator export` wrote.";
  static description = [
    'All or nothing: the state is replaced in one transaction, the clock included (its time and pause); a file that is not a valid export changes nothing.',
    'Works on a running emulator (requests see the old state or the new one, never a mix; the "emulator" profile is pointed at the new account, with a new key if the state does not know its key) and on a stopped one (the next start does that).',
  ].join('\n\n');
  static examples = [
    '<%= config.bin %> emulator import --file state.json',
    '<%= config.bin %> emulator import --file fixtures/ci.json --data-dir /tmp/emu',
  ];
  static flags = {
    file: Flags.string({ description: 'The state to load; - for stdin.', required: true }),
    'data-dir': emulatorDataDirFlag,
    profile: emulatorProfileFlag,
  };

  protected async execute(_ctx: RunContext, { flags }: ParsedLine<typeof EmulatorImport>): Promise<Output> {
    const { StateError, parseStateFile } = await import('../../lib/emulator/state.js');
    const { adminRequest, emulatorDir, running } = await import('../../lib/emulator/control.js');
    const bounds = { label: '--file', maxBytes: READ_LIMITS.state };
    let text: string;
    try {
      const bytes =
        flags.file === '-' ? await readStreamBounded(process.stdin, { ...bounds, name: 'stdin' }) : readBounded(flags.file, bounds);
      text = bytes.toString('utf8');
    } catch (err) {
      if (err instanceof CdpError) throw err;
      throw usageError(`--file: cannot read ${flags.file}: ${fileProblem(err)}`);
    }
    let file;
    try {
      file = parseStateFile(text, flags.file === '-' ? 'stdin' : flags.file);
    } catch (err) {
      if (err instanceof StateError) throw usageError(err.message);
      throw err;
    }
    const dataDir = await emulatorDir(flags);
    const found = await running(dataDir);
    if (found) await adminRequest(found.pid, 'POST', '/_emulator/state', file);
    else {
      const { importStopped } = await import('../../lib/emulator/offline.js');
      importStopped(dataDir, file);
    }
    return nothing({
      info: `imported ${file.documents.length} records (account ${file.accountId ?? 'none'}, clock ${file.clock.now}${file.clock.paused ? ', paused' : ''}) into the ${found ? 'running' : 'stopped'} emulator of ${dataDir}`,
    });
  }
}
