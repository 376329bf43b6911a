/**
 * Flag definitions: the global ones every API command shares, and the
 * per-operation ones derived from the request shape.
 */
import { Flags } from '@oclif/core';
import type { FlagInput } from '@oclif/core/interfaces';
import { kebab } from '../model/names.js';
import type { Operation } from '../model/index.js';
import type { Field, ShapeIndex } from '../model/shapes.js';
import { OUTPUT_FORMATS } from './output.js';

const GLOBAL = 'GLOBAL';

export const globalFlags = {
  profile: Flags.string({ description: 'Credential profile to use (default: $CDP_PROFILE or "default").', helpGroup: GLOBAL }),
  'endpoint-url': Flags.string({
    description: 'Send requests to this base URL instead of the profile or region default.',
    helpGroup: GLOBAL,
  }),
  'cdp-region': Flags.string({
    description: 'Region whose endpoint to use.',
    options: ['us-west-1', 'eu-1', 'ap-1', 'usg-1'],
    helpGroup: GLOBAL,
  }),
  output: Flags.string({
    char: 'o',
    description: 'Output format (default: the profile\'s "output", else json).',
    options: [...OUTPUT_FORMATS],
    helpGroup: GLOBAL,
  }),
  query: Flags.string({ description: 'JMESPath expression applied to the result before formatting.', helpGroup: GLOBAL }),
  debug: Flags.boolean({ description: 'Log each request and response to stderr (secrets redacted).', helpGroup: GLOBAL }),
  'no-verify-tls': Flags.boolean({ description: 'Do not verify TLS certificates.', helpGroup: GLOBAL }),
  'ca-bundle': Flags.string({ description: 'PEM file of certificate authorities to trust.', helpGroup: GLOBAL }),
  'cli-read-timeout': Flags.string({ description: 'Seconds to wait for an answer before giving up (default 60).', helpGroup: GLOBAL }),
  'cli-connect-timeout': Flags.string({ description: 'Seconds to wait for a connection (default 60).', helpGroup: GLOBAL }),
  color: Flags.string({
    description: 'Colour output: on, off or auto (terminal only, never with NO_COLOR).',
    options: ['on', 'off', 'auto'],
    helpGroup: GLOBAL,
  }),
  'no-pager': Flags.boolean({ description: 'Never page long output.', helpGroup: GLOBAL }),
  'no-input': Flags.boolean({ description: 'Never prompt; fail when something is missing.', helpGroup: GLOBAL }),
  yes: Flags.boolean({ char: 'y', description: 'Do not ask for confirmation.', helpGroup: GLOBAL }),
};

export const inputFlags = {
  input: Flags.string({
    aliases: ['cli-input-json'],
    description: 'The whole request as JSON or YAML: a file path, file://path, or - for stdin. Flags override its fields.',
    helpGroup: 'INPUT',
  }),
  'generate-skeleton': Flags.boolean({ description: 'Print a request skeleton with every field and exit.', helpGroup: 'INPUT' }),
};

export const pagingFlags = {
  'max-items': Flags.string({ description: 'Stop after this many items and print nextToken to resume.', helpGroup: 'PAGING' }),
  'starting-token': Flags.string({ description: 'Resume a listing from a nextToken printed earlier.', helpGroup: 'PAGING' }),
  'page-size': Flags.string({ description: 'Items asked for per request.', helpGroup: 'PAGING' }),
  'no-paginate': Flags.boolean({ description: 'Make a single call and print that page with its token.', helpGroup: 'PAGING' }),
};

export const waitFlags = {
  wait: Flags.boolean({ description: 'Wait until the work finishes, then print the final state.', helpGroup: 'WAIT' }),
  'wait-timeout': Flags.string({ description: 'Seconds to wait before giving up (exit 6).', helpGroup: 'WAIT' }),
  'poll-interval': Flags.string({
    description: "Seconds between status checks (default: backs off from the model's interval).",
    helpGroup: 'WAIT',
  }),
};

/** Operation-specific extras. */
const decodeFlag = Flags.boolean({ description: 'Show base64 fields of the result decoded as text.' });
const accessTokenFlag = Flags.string({ description: 'Workload bearer token to use instead of exchanging one.', hidden: true });

function typeWords(shapes: ShapeIndex, field: Field): string {
  const t = shapes.resolve(field.type);
  const base = (k: string): string =>
    ({
      int32: 'integer',
      int64: 'integer',
      double: 'number',
      datetime: 'date-time',
      bytes: 'base64',
      object: 'JSON object',
      map: 'key=value map',
      ref: 'structure',
    })[k] ?? k;
  if (t.kind === 'list') {
    const of = shapes.resolve(t.of ?? { kind: 'string' });
    return `list of ${base(of.kind)}${of.enum ? ` (${of.enum.join('|')})` : ''}`;
  }
  return base(t.kind);
}

/** One help line: our words where the model has them, then type, limits, enum, required. */
export function fieldDescription(op: Operation, field: Field): string {
  const shapes = op.service.shapes;
  const parts: string[] = [];
  const help = op.cli.fieldHelp?.[field.name];
  if (help) parts.push(help);
  const meta: string[] = [typeWords(shapes, field)];
  if (field.min !== undefined || field.max !== undefined) meta.push(`${field.min ?? ''}..${field.max ?? ''}`);
  if (field.maxLen !== undefined) meta.push(`at most ${field.maxLen} chars`);
  if (field.default !== undefined) meta.push(`default ${field.default}`);
  if (field.deprecated) meta.push('deprecated');
  const t = shapes.resolve(field.type);
  const struct = shapes.struct(t.kind === 'list' ? (t.of ?? t) : t);
  if (struct) meta.push(`fields: ${struct.fields.map((f) => f.name + (f.required ? '*' : '')).join(', ')}`);
  parts.push(`[${meta.join('; ')}]`);
  return (field.required ? '(required) ' : '') + parts.join(' ');
}

/** Request fields that become flags (paging fields are driven by the paging flags). */
export function flagFields(op: Operation): Field[] {
  const paging = op.paging;
  const skip = new Set(paging ? [paging.inputToken, paging.pageSize] : []);
  return op.service.requestFields(op).filter((f) => !skip.has(f.name));
}

export function operationFlags(op: Operation): FlagInput {
  const shapes = op.service.shapes;
  const flags: FlagInput = {};
  for (const field of flagFields(op)) {
    const t = shapes.resolve(field.type);
    const name = kebab(field.name);
    const description = fieldDescription(op, field);
    if (t.kind === 'boolean') {
      flags[name] = Flags.boolean({ description, allowNo: true });
    } else {
      const of = t.kind === 'list' ? shapes.resolve(t.of ?? { kind: 'string' }) : t;
      const common = {
        description,
        // Enum values are listed for help and completion; the validator checks them.
        options: t.kind !== 'list' && of.enum ? [...of.enum] : undefined,
        helpValue: of.enum && t.kind !== 'list' ? undefined : `<${typeWords(shapes, field).replace(/ \(.*\)$/, '')}>`,
      };
      flags[name] = t.kind === 'list' ? Flags.string({ ...common, multiple: true }) : Flags.string(common);
    }
  }
  Object.assign(flags, inputFlags);
  if (op.paging) Object.assign(flags, pagingFlags);
  if (op.cli.wait) Object.assign(flags, waitFlags);
  if (op.cli.decode) flags.decode = decodeFlag;
  if (op.service.def.endpoint === 'workload') flags['access-token'] = accessTokenFlag;
  Object.assign(flags, globalFlags);
  return flags;
}

/** Help examples: the model's, as full command lines. */
export function operationExamples(op: Operation): string[] {
  const base = `<%= config.bin %> ${op.commandId}`;
  const list = op.cli.examples ?? [];
  return list.length ? list.map((e) => `${base} ${e}`.trimEnd()) : [base];
}
