import { Args, Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import { nothing, type Output } from '../../lib/cli/render.js';
import { settingFor, SETTING_NAMES } from '../../lib/cli/settings.js';
import { unsetValue } from '../../lib/core/config.js';

export default class ConfigureUnset extends BaseCommand<typeof ConfigureUnset> {
  static summary = 'Remove one value from a profile.';
  static description = `The key is removed from the file it belongs in (credentials or config), which is edited in place; the profile's other settings stay. Removing a value that is not set changes nothing and says so. Settings: ${SETTING_NAMES.join(', ')}.`;
  static examples = ['<%= config.bin %> configure unset cdp_endpoint_url', '<%= config.bin %> configure unset output --profile prod'];
  static args = { key: Args.string({ description: 'Setting name, e.g. cdp_endpoint_url.', required: true }) };
  static flags = { profile: Flags.string({ description: 'Profile to change (default: $CDP_PROFILE or "default").' }) };

  protected async execute(ctx: RunContext, { args, flags }: ParsedLine<typeof ConfigureUnset>): Promise<Output> {
    settingFor(args.key);
    const profile = flags.profile || ctx.env.CDP_PROFILE || 'default';
    const path = await unsetValue(profile, args.key, ctx.env);
    return path ? nothing() : nothing({ info: `${args.key} was not set in profile "${profile}"; nothing changed.` });
  }
}
