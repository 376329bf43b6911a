import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../lib/cli/base-command.js';
import { completionScript, SHELLS, type Shell } from '../lib/cli/completion.js';
import { globalFlagsUsing } from '../lib/cli/flags.js';
import { ioFor } from '../lib/cli/run-operation.js';

/** The shell the user runs, from $SHELL; bash when it is neither. */
const shellOfEnv = (env: NodeJS.ProcessEnv): Shell => (/zsh$/.test(env.SHELL ?? '') ? 'zsh' : 'bash');

export default class Autocomplete extends BaseCommand {
  static summary = 'Set up TAB completion for bash or zsh.';
  static description = [
    'Completes topics and commands in both forms (`iam users list` and the official `iam list-users`), the official service names (`dfworkload`, `cloudprivatelinks`, `lakehouseopt`), flags, the values of flags that have a fixed set (`--output`, enums of the API such as `--cloud-platform`) and profile names for `--profile`.',
    'On a terminal it prints how to set it up; otherwise (inside `$(...)`) the script itself. The script asks cdpctl at each TAB, so it never goes stale after an upgrade.',
  ].join('\n\n');
  static examples = [
    '<%= config.bin %> autocomplete',
    `echo 'eval "$(<%= config.bin %> autocomplete bash)"' >> ~/.bashrc`,
    `echo 'eval "$(<%= config.bin %> autocomplete zsh)"' >> ~/.zshrc`,
  ];
  static args = {
    shell: Args.string({ description: 'bash or zsh (default: from $SHELL).', options: [...SHELLS], required: false }),
  };
  static flags = {
    ...globalFlagsUsing(['color']),
    // Accepted from the earlier completion's instructions: there is no cache any more.
    'refresh-cache': Flags.boolean({ hidden: true, char: 'r' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Autocomplete);
    this.errorStyle = { json: false, debug: Boolean(flags.debug) };
    const io = ioFor(flags, process.env);
    const shell = (args.shell as Shell | undefined) ?? shellOfEnv(process.env);
    const bin = this.config.bin;
    if (flags['refresh-cache']) {
      io.info('Nothing to refresh: completion asks cdpctl at each TAB, so it is always current.');
      return;
    }
    if (!process.stdout.isTTY) {
      process.stdout.write(completionScript(shell, bin));
      return;
    }
    const rc = shell === 'zsh' ? '~/.zshrc' : '~/.bashrc';
    process.stdout.write(
      [
        `Add this line to ${rc}, then open a new shell (or run it once in this one):`,
        '',
        `  eval "$(${bin} autocomplete ${shell})"`,
        '',
        `Then try: ${bin} iam <TAB>, ${bin} iam list-u<TAB>, ${bin} environments list --output <TAB>`,
        '',
      ].join('\n'),
    );
  }
}
