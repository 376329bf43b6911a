import { Args, Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../lib/cli/base-command.js';
import { completionScript, SHELLS, type Shell } from '../lib/cli/completion.js';
import type { RunContext } from '../lib/cli/context.js';
import { globalFlagsUsing } from '../lib/cli/flags.js';
import { nothing, type Output } from '../lib/cli/render.js';

/** The shell the user runs, from $SHELL; bash when it is neither. */
const shellOfEnv = (env: Readonly<Record<string, string | undefined>>): Shell => (/zsh$/.test(env.SHELL ?? '') ? 'zsh' : 'bash');

export default class Autocomplete extends BaseCommand<typeof Autocomplete> {
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

  protected async execute(ctx: RunContext, { args, flags }: ParsedLine<typeof Autocomplete>): Promise<Output> {
    const shell = (args.shell as Shell | undefined) ?? shellOfEnv(ctx.env);
    const bin = ctx.bin;
    if (flags['refresh-cache'])
      return nothing({ info: 'Nothing to refresh: completion asks cdpctl at each TAB, so it is always current.' });
    // Inside `$(...)` (not a terminal): the script itself, for eval.
    if (!ctx.io.stdoutIsTTY) return { kind: 'text', text: completionScript(shell, bin), styled: true };
    const rc = shell === 'zsh' ? '~/.zshrc' : '~/.bashrc';
    const text = [
      `Add this line to ${rc}, then open a new shell (or run it once in this one):`,
      '',
      `  eval "$(${bin} autocomplete ${shell})"`,
      '',
      `Then try: ${bin} iam <TAB>, ${bin} iam list-u<TAB>, ${bin} environments list --output <TAB>`,
      '',
    ].join('\n');
    return { kind: 'text', text };
  }
}
