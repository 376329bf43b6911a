import { Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import type { Output } from '../../lib/cli/render.js';
import { configPaths, profileNames } from '../../lib/core/config.js';
import { masked } from '../../lib/cli/settings.js';

export default class ConfigureList extends BaseCommand<typeof ConfigureList> {
  static summary = 'Show the settings of a profile and where each comes from, or list profiles.';
  static examples = ['<%= config.bin %> configure list', '<%= config.bin %> configure list --profiles'];
  static flags = {
    profile: Flags.string({ description: 'Profile to show (default: $CDP_PROFILE or "default").' }),
    profiles: Flags.boolean({ description: 'List the profile names instead.' }),
  };

  protected async execute(ctx: RunContext, { flags }: ParsedLine<typeof ConfigureList>): Promise<Output> {
    const paths = configPaths(ctx.env);
    if (flags.profiles) {
      const names = profileNames(ctx.env);
      return { kind: 'text', text: names.join('\n') + (names.length ? '\n' : '') };
    }
    const settings = ctx.profile();
    const rows: Array<[string, string, string]> = [['profile', settings.profile, settings.explicit ? 'flag or CDP_PROFILE' : 'default']];
    const envId = ctx.env.CDP_ACCESS_KEY_ID;
    for (const key of ['cdp_access_key_id', 'cdp_private_key', 'cdp_region', 'endpoint_url', 'cdp_endpoint_url', 'form_factor', 'output']) {
      let value = settings.values[key];
      let source = value === undefined ? '' : key.startsWith('cdp_access') || key === 'cdp_private_key' ? paths.credentials : paths.config;
      if (key === 'cdp_access_key_id' && envId && ctx.env.CDP_PRIVATE_KEY) {
        value = envId;
        source = 'environment';
      }
      // Both halves of the key masked, as `cdp configure list` shows them.
      if ((key === 'cdp_access_key_id' || key === 'cdp_private_key') && value) value = masked(value);
      rows.push([key, value ?? '<not set>', source]);
    }
    const w = Math.max(...rows.map((r) => r[0].length));
    const v = Math.max(...rows.map((r) => r[1].length));
    return { kind: 'text', text: rows.map(([k, val, s]) => `${k.padEnd(w)}  ${val.padEnd(v)}  ${s}`.trimEnd()).join('\n') + '\n' };
  }
}
