/**
 * Flag definitions as plain data: the global flags every API command shares
 * and the per-operation ones derived from the request shape. No oclif here:
 * flags.ts turns these into oclif flags, and the fast path (fast-run.ts)
 * parses a command line with them without loading oclif at all.
 */
import { REGIONS } from '../core/endpoint.js';
import { kebab } from '../model/names.js';
import type { Operation } from '../model/index.js';
import type { Field, ShapeIndex } from '../model/shapes.js';
import { sentence } from './help-text.js';
import { OUTPUT_FORMATS } from './output.js';

export interface FlagSpec {
  readonly type: 'boolean' | 'string';
  readonly description: string;
  readonly char?: string;
  readonly multiple?: boolean;
  readonly options?: readonly string[];
  /** Booleans: `--no-<name>` sets false. */
  readonly allowNo?: boolean;
  readonly aliases?: readonly string[];
  readonly helpGroup?: string;
  readonly helpValue?: string;
  readonly hidden?: boolean;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;

const GLOBAL = 'GLOBAL';

export const GLOBAL_FLAG_SPECS = {
  profile: {
    type: 'string',
    description: 'Credential profile to use (default: $CDP_PROFILE or "default").',
    helpValue: '<name>',
    helpGroup: GLOBAL,
  },
  'endpoint-url': {
    type: 'string',
    description:
      'Send requests to this base URL instead of the profile or region default (a %s in it is filled in as by the official CLI).',
    helpValue: '<url>',
    helpGroup: GLOBAL,
  },
  'cdp-region': {
    type: 'string',
    description: "Region whose endpoint to use (default: the profile's cdp_region, else us-west-1).",
    options: ['default', ...REGIONS],
    helpGroup: GLOBAL,
  },
  'form-factor': {
    type: 'string',
    description:
      "The control plane's form factor; commands of services it does not offer are refused (default: the profile's form_factor, else guessed from the endpoint URL).",
    options: ['public', 'private'],
    helpGroup: GLOBAL,
  },
  output: {
    type: 'string',
    char: 'o',
    description: 'Output format (default: the profile\'s "output", else json).',
    options: [...OUTPUT_FORMATS],
    helpGroup: GLOBAL,
  },
  query: {
    type: 'string',
    description: 'JMESPath expression applied to the result before formatting.',
    helpValue: '<jmespath>',
    helpGroup: GLOBAL,
  },
  'ensure-ascii': { type: 'boolean', description: 'Escape non-ASCII characters as \\uXXXX in JSON output.', helpGroup: GLOBAL },
  'no-paginate': {
    type: 'boolean',
    description: 'Make a single call and print that page with its token (no effect on commands that do not page).',
    helpGroup: GLOBAL,
  },
  debug: { type: 'boolean', description: 'Log each request and response to stderr (secrets redacted).', helpGroup: GLOBAL },
  'no-verify-tls': {
    type: 'boolean',
    description: 'Do not verify TLS certificates (and allow plain http:// to other machines, with a warning).',
    helpGroup: GLOBAL,
  },
  'ca-bundle': { type: 'string', description: 'PEM file of certificate authorities to trust.', helpValue: '<file>', helpGroup: GLOBAL },
  'cli-read-timeout': {
    type: 'string',
    description: 'Seconds the whole answer may take before giving up (default 60; 0 waits forever).',
    helpValue: '<seconds>',
    helpGroup: GLOBAL,
  },
  'cli-connect-timeout': {
    type: 'string',
    description: 'Seconds to wait for a connection (default 60; 0 waits forever).',
    helpValue: '<seconds>',
    helpGroup: GLOBAL,
  },
  'force-ipv4': { type: 'boolean', description: 'Connect over IPv4 only.', helpGroup: GLOBAL },
  'access-token': {
    type: 'string',
    description: 'Send this bearer token instead of signing (workload services: instead of exchanging one).',
    helpValue: '<token>',
    helpGroup: GLOBAL,
  },
  'auth-config': {
    type: 'string',
    description: 'JSON file with credentials: {"access_key_id", "private_key"} or {"access_token"}.',
    helpValue: '<file>',
    helpGroup: GLOBAL,
  },
  'no-parameter-expansion': {
    type: 'boolean',
    description: 'Take values that start with file:// or fileb:// as they are, without reading the file.',
    helpGroup: GLOBAL,
  },
  deprecated: {
    type: 'boolean',
    description: 'Accepted for the official CLI; no effect (cdpctl runs deprecated commands and lists them in the reference).',
    helpGroup: GLOBAL,
  },
  color: {
    type: 'string',
    description: 'Colour output: on, off or auto (terminal only, never with NO_COLOR).',
    options: ['on', 'off', 'auto'],
    helpGroup: GLOBAL,
  },
  'no-pager': { type: 'boolean', description: 'Never page long output.', helpGroup: GLOBAL },
  'no-input': { type: 'boolean', description: 'Never prompt; fail when something is missing.', helpGroup: GLOBAL },
  yes: { type: 'boolean', char: 'y', description: 'Do not ask for confirmation.', helpGroup: GLOBAL },
} satisfies FlagSpecs;

export const INPUT_FLAG_SPECS = {
  input: {
    type: 'string',
    aliases: ['cli-input-json'],
    description: 'The whole request as JSON or YAML: a file path, file://path, or - for stdin. Flags override its fields.',
    helpValue: '<file|->',
    helpGroup: 'INPUT',
  },
  'generate-skeleton': {
    type: 'string',
    aliases: ['generate-cli-skeleton'],
    options: ['input', 'output'],
    description:
      'Print a skeleton of the request (input, the default when no value follows) or of the response (output) with every field, and exit.',
    helpValue: '[input|output]',
    helpGroup: 'INPUT',
  },
} satisfies FlagSpecs;

export const PAGING_FLAG_SPECS = {
  'max-items': {
    type: 'string',
    description: 'Stop after this many items and print nextToken to resume.',
    helpValue: '<n>',
    helpGroup: 'PAGING',
  },
  'starting-token': {
    type: 'string',
    description: "Resume a listing from a nextToken printed earlier (with --no-paginate: sent as the request's token).",
    helpValue: '<token>',
    helpGroup: 'PAGING',
  },
  'page-size': {
    type: 'string',
    description: "Items asked for per request (with --no-paginate: sent as the request's page size).",
    helpValue: '<n>',
    helpGroup: 'PAGING',
  },
} satisfies FlagSpecs;

export const WAIT_FLAG_SPECS = {
  wait: { type: 'boolean', description: 'Wait until the work finishes, then print the final state.', helpGroup: 'WAIT' },
  'wait-timeout': { type: 'string', description: 'Seconds to wait before giving up (exit 6).', helpValue: '<seconds>', helpGroup: 'WAIT' },
  'poll-interval': {
    type: 'string',
    description: "Seconds between status checks (default: backs off from the model's interval).",
    helpValue: '<seconds>',
    helpGroup: 'WAIT',
  },
} satisfies FlagSpecs;

/** Operation-specific extras. */
export const DECODE_FLAG_SPEC: FlagSpec = { type: 'boolean', description: 'Show base64 fields of the result decoded as text.' };

/** What a value of a field's type is called in help: `string`, `integer`, `structure`, ... (of the items, for a list). */
export function valueName(shapes: ShapeIndex, field: Field): string {
  const t = shapes.resolve(field.type);
  const of = t.kind === 'list' ? shapes.resolve(t.of ?? { kind: 'string' }) : t;
  return VALUE_NAMES[of.kind] ?? of.kind;
}

const VALUE_NAMES: Readonly<Record<string, string>> = {
  int32: 'integer',
  int64: 'integer',
  double: 'number',
  datetime: 'date-time',
  bytes: 'base64',
  object: 'json',
  map: 'key=value,...',
  ref: 'structure',
};

/** A field's help in parts: whether it is required, our words for it, and what its shape adds (limits, default, fields). */
export interface FieldHelp {
  readonly required: boolean;
  readonly text?: string;
  readonly notes: readonly string[];
}

/** Enum values shown in the value placeholder (`<A|B>`) when they fit; longer lists go into the notes. */
export const INLINE_OPTIONS_MAX = 40;

export function fieldHelp(op: Operation, field: Field): FieldHelp {
  const shapes = op.service.shapes;
  const text = op.service.fieldHelp(op, field.name)?.trim() || undefined;
  const notes: string[] = [];
  const t = shapes.resolve(field.type);
  const of = t.kind === 'list' ? shapes.resolve(t.of ?? { kind: 'string' }) : t;
  if (of.enum && (t.kind === 'list' || of.enum.join('|').length > INLINE_OPTIONS_MAX)) {
    notes.push(`${t.kind === 'list' ? 'Values' : 'One of'}: ${of.enum.join(', ')}.`);
  }
  if (field.min !== undefined && field.max !== undefined) notes.push(`From ${field.min} to ${field.max}.`);
  else if (field.min !== undefined) notes.push(`At least ${field.min}.`);
  else if (field.max !== undefined) notes.push(`At most ${field.max}.`);
  if (field.minLen !== undefined && field.maxLen !== undefined) notes.push(`${field.minLen} to ${field.maxLen} characters.`);
  else if (field.maxLen !== undefined) notes.push(`At most ${field.maxLen} characters.`);
  else if (field.minLen !== undefined && field.minLen > 1) notes.push(`At least ${field.minLen} characters.`);
  if (field.default !== undefined && !/\bdefault\b/i.test(text ?? '')) notes.push(`Default: ${field.default}.`);
  if (field.deprecated) notes.push('Deprecated.');
  const struct = shapes.struct(of);
  if (struct) {
    const of = t.kind === 'list' ? 'Fields of each item' : 'Fields';
    const required = struct.fields.filter((f) => f.required).map((f) => f.name);
    const named = struct.fields.every((f) => new RegExp(`\\b${f.name}\\b`).test(text ?? ''));
    // Our words may already name every field; then only which are required is news.
    if (named) {
      if (required.length) notes.push(`Required${t.kind === 'list' ? ' in each item' : ''}: ${required.join(', ')}.`);
    } else {
      const all = struct.fields.length > 1 && required.length === struct.fields.length;
      const names = struct.fields.map((f) => (f.required && !all ? `${f.name} (required)` : f.name)).join(', ');
      notes.push(`${of}: ${names}${all ? ' (all required)' : ''}.`);
    }
  }
  return { required: field.required, ...(text ? { text } : {}), notes };
}

/**
 * One line: our words where the model has them, then what the shape adds;
 * `(required)` first (`required` overrides the shape's say, for rules that
 * make a field necessary).
 */
export function fieldDescription(op: Operation, field: Field, required?: boolean): string {
  const h = fieldHelp(op, field);
  return [(required ?? h.required) ? '(required)' : '', h.text ? sentence(h.text) : '', ...h.notes].filter(Boolean).join(' ');
}

/** Request fields that become flags (paging fields are driven by the paging flags). */
export function flagFields(op: Operation): Field[] {
  const paging = op.paging;
  const skip = new Set(paging ? [paging.inputToken, paging.pageSize] : []);
  return op.service.requestFields(op).filter((f) => !skip.has(f.name));
}

/** Every flag of an operation's command, in help order. */
export function operationFlagSpecs(op: Operation): Record<string, FlagSpec> {
  const shapes = op.service.shapes;
  const flags: Record<string, FlagSpec> = {};
  for (const field of flagFields(op)) {
    const t = shapes.resolve(field.type);
    const name = kebab(field.name);
    const description = fieldDescription(op, field);
    if (t.kind === 'boolean') {
      flags[name] = { type: 'boolean', description, allowNo: true };
    } else {
      const of = t.kind === 'list' ? shapes.resolve(t.of ?? { kind: 'string' }) : t;
      // Enum values are listed for help and completion; the validator checks them.
      const options = t.kind !== 'list' && of.enum ? [...of.enum] : undefined;
      const helpValue = options ? undefined : `<${valueName(shapes, field)}>`;
      flags[name] = {
        type: 'string',
        description,
        ...(options ? { options } : {}),
        ...(helpValue !== undefined ? { helpValue } : {}),
        ...(t.kind === 'list' ? { multiple: true } : {}),
      };
    }
  }
  Object.assign(flags, INPUT_FLAG_SPECS);
  if (op.paging) Object.assign(flags, PAGING_FLAG_SPECS);
  if (op.cli.wait) Object.assign(flags, WAIT_FLAG_SPECS);
  if (op.cli.decode) flags.decode = DECODE_FLAG_SPEC;
  Object.assign(flags, GLOBAL_FLAG_SPECS);
  return flags;
}
