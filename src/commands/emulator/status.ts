import { Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import type { Output } from '../../lib/cli/render.js';
import { emulatorDataDirFlag, emulatorProfileFlag } from '../../lib/cli/flags.js';
import { cdpError } from '../../lib/core/errors.js';
import type { Health } from '../../lib/emulator/control.js';

/** What status shows of one instance. */
function describe(h: Health, dataDir: string, profile: string): Record<string, unknown> {
  return {
    url: `http://localhost:${h.port}/`,
    port: h.port,
    pid: h.pid,
    profile,
    accountId: h.accountId,
    region: h.region,
    dataDir,
    timeScale: h.timeScale,
    clock: h.clock?.now,
    clockPaused: h.clock?.paused ?? false,
    requests: h.stats.requests,
  };
}

export default class EmulatorStatus extends BaseCommand<typeof EmulatorStatus> {
  static summary = 'List the running emulators: port, data directory, profile and clock.';
  static description = [
    'Without --data-dir or --profile, lists every emulator running for this user (this HOME); with one of them, that emulator only. Exits 0 when one runs, 1 when none does.',
    'With --output json prints the details as JSON (a list without --data-dir or --profile).',
  ].join('\n\n');
  static examples = [
    '<%= config.bin %> emulator status',
    '<%= config.bin %> emulator status --profile ci',
    '<%= config.bin %> emulator status --data-dir /tmp/ci-emu --output json',
  ];
  static flags = {
    'data-dir': emulatorDataDirFlag,
    profile: emulatorProfileFlag,
    output: Flags.string({ char: 'o', options: ['text', 'json'], default: 'text', description: 'Output format.' }),
  };

  protected async execute(_ctx: RunContext, { flags }: ParsedLine<typeof EmulatorStatus>): Promise<Output> {
    const { emulatorDir, running, runningInstances } = await import('../../lib/emulator/control.js');
    const { profileOf } = await import('../../lib/emulator/instances.js');
    const json = (value: unknown): Output => ({ kind: 'answer', value, render: { format: 'json' } });
    if (flags['data-dir'] !== undefined || flags.profile !== undefined) {
      // The one emulator named: by its data directory, or by the profile it writes.
      const dataDir = await emulatorDir(flags);
      const found = await running(dataDir);
      if (!found) throw cdpError({ kind: 'service', code: 'NOT_RUNNING', message: `no emulator is running for ${dataDir}` });
      const info = describe(found.health, found.health.dataDir, found.health.profile ?? profileOf(dataDir));
      return flags.output === 'json' ? json(info) : { kind: 'text', text: lines(info) };
    }
    const all = (await runningInstances()).map((i) => describe(i.health, i.entry.dataDir, i.entry.profile));
    if (all.length === 0)
      throw cdpError({ kind: 'service', code: 'NOT_RUNNING', message: 'no emulator is running (cdpctl emulator start --detach)' });
    return flags.output === 'json' ? json(all) : { kind: 'text', text: all.map(lines).join('\n') };
  }
}

function lines(i: Record<string, unknown>): string {
  return (
    [
      `running at ${String(i.url)} (pid ${String(i.pid)}), profile "${String(i.profile)}"`,
      `account ${String(i.accountId)} in ${String(i.region)}`,
      `data in ${String(i.dataDir)}, time scale ${String(i.timeScale)}, ${String(i.requests)} requests served`,
      `clock at ${String(i.clock ?? '?')}${i.clockPaused ? ' (paused)' : ''}`,
    ].join('\n') + '\n'
  );
}
