import { Flags } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../../lib/cli/base-command.js';
import type { RunContext } from '../../lib/cli/context.js';
import type { Question } from '../../lib/cli/io.js';
import { OUTPUT_FORMATS } from '../../lib/cli/output.js';
import { nothing, type Output } from '../../lib/cli/render.js';
import { masked, SETTINGS } from '../../lib/cli/settings.js';
import { configPaths, loadProfile, setValue } from '../../lib/core/config.js';
import { REGIONS } from '../../lib/core/endpoint.js';
import { CdpError, usageError, cdpError } from '../../lib/core/errors.js';

/** Both endpoint settings: iam reads endpoint_url, every other service cdp_endpoint_url. */
const ENDPOINT_KEYS = ['cdp_endpoint_url', 'endpoint_url'] as const;

export default class Configure extends BaseCommand<typeof Configure> {
  static summary = 'Set up a credential profile interactively.';
  static description = [
    'Asks for the access key ID, private key, region, endpoint (optional: blank keeps the public endpoints of the region) and output format, and writes them to the same files the official CLI reads (~/.cdp/credentials and ~/.cdp/config, mode 0600, edited in place). An endpoint is written as both cdp_endpoint_url and endpoint_url, so iam goes there too.',
    'Each answer is checked as it is typed. Values you leave empty keep what is there. Without a terminal, use `configure set`.',
  ].join('\n\n');
  static examples = ['<%= config.bin %> configure', '<%= config.bin %> configure --profile prod'];
  static flags = {
    profile: Flags.string({ description: 'Profile to write (default: $CDP_PROFILE or "default").' }),
  };

  protected async execute(ctx: RunContext, { flags }: ParsedLine<typeof Configure>): Promise<Output> {
    const io = ctx.io;
    const profile = flags.profile || ctx.env.CDP_PROFILE || 'default';
    if (!io.canPrompt) {
      throw usageError('configure needs a terminal to ask questions; use `cdpctl configure set KEY VALUE --profile NAME` in scripts');
    }
    let current: Record<string, string> = {};
    try {
      current = { ...loadProfile(profile, { ...ctx.env, CDP_PROFILE: undefined }).values };
    } catch (err) {
      if (!(err instanceof CdpError) || err.code !== 'PROFILE_NOT_FOUND') throw err;
    }
    const mask = (v?: string): string => (v ? masked(v) : 'none');
    /** An answer checked as the setting is checked; blank keeps the current value. */
    const checked = (key: string) => (v: string) => (v === '' ? true : (SETTINGS[key]?.check?.(v.replace(/\r?\n/g, '\\n')) ?? true));
    const regions = ['us-west-1', ...REGIONS.filter((r) => r !== 'us-west-1')];
    const questions: Array<[string, Question]> = [
      ['cdp_access_key_id', { type: 'input', message: `Access key ID [${mask(current.cdp_access_key_id)}]` }],
      [
        'cdp_private_key',
        { type: 'password', message: `Private key [${mask(current.cdp_private_key)}]`, validate: checked('cdp_private_key') },
      ],
      [
        'cdp_region',
        { type: 'select', message: 'Region', choices: regions, initial: Math.max(0, regions.indexOf(current.cdp_region ?? 'us-west-1')) },
      ],
      [
        'cdp_endpoint_url',
        {
          type: 'input',
          message: `Endpoint URL (blank: the region's public endpoints) [${current.cdp_endpoint_url ?? current.endpoint_url ?? 'none'}]`,
          validate: checked('cdp_endpoint_url'),
        },
      ],
      [
        'output',
        {
          type: 'select',
          message: 'Output format',
          choices: [...OUTPUT_FORMATS],
          initial: Math.max(0, OUTPUT_FORMATS.indexOf((current.output ?? 'json') as (typeof OUTPUT_FORMATS)[number])),
        },
      ],
    ];
    const answers: Record<string, string> = {};
    for (const [key, question] of questions) {
      let answer: unknown;
      try {
        answer = await io.ask(question);
      } catch {
        throw cdpError({ kind: 'interrupted', code: 'CANCELLED', message: 'cancelled; nothing was written' });
      }
      answers[key] = String(answer ?? '').trim();
    }
    if (answers.cdp_private_key) answers.cdp_private_key = answers.cdp_private_key.replace(/\r?\n/g, '\\n');
    const endpoint = answers.cdp_endpoint_url;
    delete answers.cdp_endpoint_url;
    for (const [key, value] of Object.entries(answers)) {
      if (value && value !== current[key]) await setValue(profile, key, value, ctx.env);
    }
    if (endpoint) for (const key of ENDPOINT_KEYS) if (endpoint !== current[key]) await setValue(profile, key, endpoint, ctx.env);
    const paths = configPaths(ctx.env);
    return nothing({ info: `Profile "${profile}" saved to ${paths.credentials} and ${paths.config}.` });
  }
}
