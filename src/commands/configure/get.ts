import { Args, Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import type { Output } from '../../lib/cli/render.js';
import { cdpError } from '../../lib/core/errors.js';
import { masked, SETTINGS } from '../../lib/cli/settings.js';

export default class ConfigureGet extends BaseCommand<typeof ConfigureGet> {
  static summary = 'Print one value of a profile.';
  static description = [
    'Prints the value as the files hold it, as `cdp configure get` does (credentials win over config); exits 1 when it is not set.',
    'The private key is masked on a terminal (unless --show-secrets); into a pipe or a file it is printed as it is, so `key=$(cdpctl configure get cdp_private_key)` gets the key.',
  ].join('\n\n');
  static examples = ['<%= config.bin %> configure get cdp_region --profile prod'];
  static args = { key: Args.string({ description: 'Setting name.', required: true }) };
  static flags = {
    profile: Flags.string({ description: 'Profile to read (default: $CDP_PROFILE or "default").' }),
    'show-secrets': Flags.boolean({ description: 'Print the private key on a terminal too (into a pipe or a file it always is).' }),
  };

  protected async execute(ctx: RunContext, { args, flags }: ParsedLine<typeof ConfigureGet>): Promise<Output> {
    const settings = ctx.profile();
    const value = settings.values[args.key];
    if (value === undefined) {
      throw cdpError({ kind: 'service', code: 'NOT_SET', message: `${args.key} is not set in profile "${settings.profile}"` });
    }
    // A person at a terminal sees it masked; a script capturing it gets the key, as from `cdp`.
    if (SETTINGS[args.key]?.secret && !flags['show-secrets'] && ctx.io.stdoutIsTTY)
      return {
        kind: 'text',
        text: `${masked(value)}\n`,
        notes: [{ info: `${args.key} is masked on a terminal; --show-secrets prints it (as does a pipe or a file)` }],
      };
    return { kind: 'text', text: `${value}\n` };
  }
}
