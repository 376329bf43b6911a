import { Flags } from '@oclif/core';
import { BaseCommand } from '../../lib/cli/base-command.js';
import { IO } from '../../lib/cli/io.js';
import { emulatorDataDirFlag } from '../../lib/cli/flags.js';
import { usageError } from '../../lib/core/errors.js';

export default class EmulatorStart extends BaseCommand {
  static summary = 'Start the local emulator of the control plane.';
  static description = [
    'Serves all modelled services on loopback (127.0.0.1 and ::1), keeps state in SQLite under --data-dir, and writes a profile named "emulator" (credentials, endpoint_url and cdp_endpoint_url) without touching other profiles.',
    'Long operations run on the emulator clock: --time-scale 1000 makes a 10-minute creation take 0.6 s.',
    'Resources whose name starts with "fail-" fail their long-running work, so failure paths can be tried.',
    '--seed FILE applies a YAML or JSON list of operations once the account exists, as its admin, each checked like any request (`- iam createGroup: {groupName: data-eng}`); all of it or, with an error naming the line, none of it. A file already applied to the data directory is skipped. Drive the clock with `emulator clock`; save and load state with `emulator export` and `emulator import`.',
  ].join('\n\n');
  static examples = [
    '<%= config.bin %> emulator start --detach',
    '<%= config.bin %> emulator start --port 0 --data-dir /tmp/emu --time-scale 1000 --detach',
    '<%= config.bin %> emulator start --fault-rate 0.2 --fault-kinds 503,429',
    '<%= config.bin %> emulator start --detach --seed fixtures/seed.yaml',
  ];
  static flags = {
    port: Flags.integer({ description: 'Port to listen on; 0 picks a free one.', default: 48480, min: 0, max: 65535 }),
    'data-dir': emulatorDataDirFlag,
    detach: Flags.boolean({ description: 'Run in the background; return once it answers.' }),
    'time-scale': Flags.string({ description: 'How much faster than real time long operations advance.', default: '1' }),
    'fault-rate': Flags.string({ description: 'Fraction (0..1) of requests answered with an injected fault.' }),
    'fault-kinds': Flags.string({ description: 'Faults to inject: 503, 429, reset (comma separated).', default: '503,429' }),
    'fault-latency': Flags.string({ description: 'Milliseconds added before every answer.' }),
    seed: Flags.string({ description: 'A YAML or JSON list of operations to apply at start (see the description).' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(EmulatorStart);
    const { defaultDataDir, startDetached } = await import('../../lib/emulator/control.js');
    const { parseFaults, serve } = await import('../../lib/emulator/serve.js');
    const timeScale = Number(flags['time-scale']);
    if (!(timeScale > 0)) throw usageError(`--time-scale must be a positive number; got "${flags['time-scale']}"`);
    let faults;
    try {
      faults = parseFaults(flags['fault-rate'], flags['fault-kinds'], flags['fault-latency']);
    } catch (err) {
      throw usageError((err as Error).message);
    }
    const io = new IO();
    const opts = { dataDir: flags['data-dir'] ?? defaultDataDir(), port: flags.port, timeScale, faults, seed: flags.seed };
    if (flags.detach) {
      const { pid, already } = await startDetached(opts);
      await io.write(
        `emulator ${already ? 'already ' : ''}running on http://localhost:${pid.port}/ (pid ${pid.pid}, account ${pid.accountId})\n`,
      );
      io.info(`profile "emulator" is ready: ${this.config.bin} --profile emulator iam users get`);
      return;
    }
    await serve(opts, (line) => io.info(line));
  }
}
