import { Args, Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import type { Output } from '../../lib/cli/render.js';
import { cdpError } from '../../lib/core/errors.js';

export default class ConfigureGet extends BaseCommand<typeof ConfigureGet> {
  static summary = 'Print one value of a profile.';
  static description = 'Exits 1 when the value is not set. The private key is printed only with --show-secrets.';
  static examples = ['<%= config.bin %> configure get cdp_region --profile prod'];
  static args = { key: Args.string({ description: 'Setting name.', required: true }) };
  static flags = {
    profile: Flags.string({ description: 'Profile to read (default: $CDP_PROFILE or "default").' }),
    'show-secrets': Flags.boolean({ description: 'Print the private key too.' }),
  };

  protected async execute(ctx: RunContext, { args, flags }: ParsedLine<typeof ConfigureGet>): Promise<Output> {
    const settings = ctx.profile();
    const value = settings.values[args.key];
    if (value === undefined) {
      throw cdpError({ kind: 'service', code: 'NOT_SET', message: `${args.key} is not set in profile "${settings.profile}"` });
    }
    const secret = args.key === 'cdp_private_key' && !flags['show-secrets'];
    return { kind: 'text', text: `${secret ? `****${value.slice(-4)}` : value}\n` };
  }
}
