import { Flags } from '@oclif/core';
import { BaseCommand } from '../../lib/cli/base-command.js';
import { IO } from '../../lib/cli/io.js';
import { emulatorDataDirFlag } from '../../lib/cli/flags.js';
import { CdpError } from '../../lib/core/errors.js';

export default class EmulatorStatus extends BaseCommand {
  static summary = 'Say whether the emulator runs, where it listens and for which account.';
  static description = 'Exits 0 when it runs, 1 when it does not. With --output json prints the details as JSON.';
  static examples = ['<%= config.bin %> emulator status', '<%= config.bin %> emulator status --output json'];
  static flags = {
    'data-dir': emulatorDataDirFlag,
    output: Flags.string({ char: 'o', options: ['text', 'json'], default: 'text', description: 'Output format.' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(EmulatorStatus);
    const { defaultDataDir, running } = await import('../../lib/emulator/control.js');
    const dataDir = flags['data-dir'] ?? defaultDataDir();
    const found = await running(dataDir);
    if (!found) throw new CdpError({ kind: 'service', code: 'NOT_RUNNING', message: `no emulator is running for ${dataDir}` });
    const h = found.health;
    const info = {
      url: `http://localhost:${h.port}/`,
      pid: h.pid,
      accountId: h.accountId,
      region: h.region,
      dataDir: h.dataDir,
      timeScale: h.timeScale,
      clock: h.clock?.now,
      clockPaused: h.clock?.paused ?? false,
      requests: h.stats.requests,
    };
    const io = new IO();
    if (flags.output === 'json') await io.write(JSON.stringify(info, null, 2) + '\n');
    else
      await io.write(
        `running at ${info.url} (pid ${info.pid})\naccount ${info.accountId} in ${info.region}\ndata in ${info.dataDir}, time scale ${info.timeScale}, ${info.requests} requests served\nclock at ${info.clock ?? '?'}${info.clockPaused ? ' (paused)' : ''}\n`,
      );
  }
}
