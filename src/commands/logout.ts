import { BaseCommand, type ParsedLine } from '../lib/cli/base-command.js';
import type { RunContext } from '../lib/cli/context.js';
import { globalFlagsUsing } from '../lib/cli/flags.js';
import { nothing, type Note, type Output } from '../lib/cli/render.js';
import { configPaths, readIni, sectionName, setCredentials } from '../lib/core/config.js';

export default class Logout extends BaseCommand<typeof Logout> {
  static summary = "Remove a profile's access key from the credentials file.";
  static description = [
    'As `cdp logout`: blanks cdp_access_key_id and cdp_private_key of the profile in ~/.cdp/credentials; its other settings and other profiles stay.',
    'The key itself stays valid in the account until it is deleted: `cdpctl iam access-keys delete --access-key-id ID`.',
  ].join('\n\n');
  static examples = ['<%= config.bin %> logout', '<%= config.bin %> logout --profile emulator'];
  static flags = globalFlagsUsing(['profile', 'color']);

  protected async execute(ctx: RunContext, { flags }: ParsedLine<typeof Logout>): Promise<Output> {
    const env = ctx.env;
    const profile = flags.profile || env.CDP_PROFILE || 'default';
    const path = configPaths(env).credentials;
    const section = readIni(path)[sectionName(profile, 'credentials')];
    const keyId = typeof section?.cdp_access_key_id === 'string' ? section.cdp_access_key_id : '';
    const hasKey = keyId !== '' || (typeof section?.cdp_private_key === 'string' && section.cdp_private_key !== '');
    if (!hasKey) return nothing({ info: `Profile "${profile}" has no access key in ${path}; nothing to remove.` });
    await setCredentials(profile, '', '', env);
    const notes: Note[] = [{ info: `Removed the access key ${keyId || '(unnamed)'} of profile "${profile}" from ${path}.` }];
    if (keyId)
      notes.push({ info: `It stays valid in the account until deleted: ${ctx.bin} iam access-keys delete --access-key-id ${keyId}` });
    if (env.CDP_ACCESS_KEY_ID && env.CDP_PRIVATE_KEY)
      notes.push({ warn: 'CDP_ACCESS_KEY_ID and CDP_PRIVATE_KEY are still set in the environment.' });
    return nothing(...notes);
  }
}
