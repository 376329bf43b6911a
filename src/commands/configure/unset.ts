import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../lib/cli/base-command.js';
import { IO } from '../../lib/cli/io.js';
import { settingFor, SETTING_NAMES } from '../../lib/cli/settings.js';
import { unsetValue } from '../../lib/core/config.js';

export default class ConfigureUnset extends BaseCommand {
  static summary = 'Remove one value from a profile.';
  static description = `The key is removed from the file it belongs in (credentials or config), which is edited in place; the profile's other settings stay. Removing a value that is not set changes nothing and says so. Settings: ${SETTING_NAMES.join(', ')}.`;
  static examples = ['<%= config.bin %> configure unset cdp_endpoint_url', '<%= config.bin %> configure unset output --profile prod'];
  static args = { key: Args.string({ description: 'Setting name, e.g. cdp_endpoint_url.', required: true }) };
  static flags = { profile: Flags.string({ description: 'Profile to change (default: $CDP_PROFILE or "default").' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigureUnset);
    settingFor(args.key);
    const profile = flags.profile || process.env.CDP_PROFILE || 'default';
    const path = await unsetValue(profile, args.key);
    if (!path) new IO().info(`${args.key} was not set in profile "${profile}"; nothing changed.`);
  }
}
