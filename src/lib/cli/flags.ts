/**
 * oclif flags made from the plain flag definitions of flag-spec.ts: the
 * global ones every API command shares, and the per-operation ones derived
 * from the request shape.
 */
import { Flags } from '@oclif/core';
import type { AlphabetLowercase, BooleanFlag, FlagInput, OptionFlag } from '@oclif/core/interfaces';
import type { Operation } from '../model/index.js';
import {
  DECODE_FLAG_SPEC,
  GLOBAL_FLAG_SPECS,
  INPUT_FLAG_SPECS,
  PAGING_FLAG_SPECS,
  WAIT_FLAG_SPECS,
  operationFlagSpecs,
  type FlagSpec,
  type FlagSpecs,
} from './flag-spec.js';

export { fieldDescription, flagFields } from './flag-spec.js';

/** One oclif flag; keys the spec leaves out stay out (oclif's defaults apply). */
export function oclifFlag(spec: FlagSpec): FlagInput[string] {
  const { type, options, aliases, multiple, char, ...rest } = spec;
  const opts = {
    ...rest,
    ...(char ? { char: char as AlphabetLowercase } : {}),
    ...(options ? { options: [...options] } : {}),
    ...(aliases ? { aliases: [...aliases] } : {}),
  };
  if (type === 'boolean') return Flags.boolean(opts);
  return multiple ? Flags.string({ ...opts, multiple: true }) : Flags.string(opts);
}

/** The oclif flag a spec makes, as a type: what parsing it gives. */
type OclifFlagOf<S extends FlagSpec> = S['type'] extends 'boolean'
  ? BooleanFlag<boolean>
  : S['multiple'] extends true
    ? OptionFlag<string[] | undefined>
    : OptionFlag<string | undefined>;

/** Flags by name, typed by their specs, so that a command's parsed flags have their names and types. */
export type OclifFlags<S extends FlagSpecs> = { [K in keyof S]: OclifFlagOf<S[K]> };

function oclifFlags<S extends FlagSpecs>(specs: S): OclifFlags<S> {
  const out: FlagInput = {};
  for (const [name, spec] of Object.entries(specs)) out[name] = oclifFlag(spec);
  return out as OclifFlags<S>;
}

export const globalFlags = oclifFlags(GLOBAL_FLAG_SPECS);
export const inputFlags = oclifFlags(INPUT_FLAG_SPECS);
export const pagingFlags = oclifFlags(PAGING_FLAG_SPECS);
export const waitFlags = oclifFlags(WAIT_FLAG_SPECS);

/** The oclif flag of each shared spec (global, input, paging, wait, decode): every command holds the same object. */
const SHARED = new Map<FlagSpec, FlagInput[string]>(
  (
    [
      [GLOBAL_FLAG_SPECS, globalFlags],
      [INPUT_FLAG_SPECS, inputFlags],
      [PAGING_FLAG_SPECS, pagingFlags],
      [WAIT_FLAG_SPECS, waitFlags],
      [{ decode: DECODE_FLAG_SPEC }, { decode: oclifFlag(DECODE_FLAG_SPEC) }],
    ] as Array<[FlagSpecs, FlagInput]>
  ).flatMap(([specs, flags]) => Object.entries(specs).map(([name, spec]): [FlagSpec, FlagInput[string]] => [spec, flags[name]!])),
);

export function operationFlags(op: Operation): FlagInput {
  const flags: FlagInput = {};
  for (const [name, spec] of Object.entries(operationFlagSpecs(op))) flags[name] = SHARED.get(spec) ?? oclifFlag(spec);
  return flags;
}

/** Help examples: the model's, as full command lines. */
export function operationExamples(op: Operation): string[] {
  const base = `<%= config.bin %> ${op.commandId}`;
  const list = op.cli.examples ?? [];
  return list.length ? list.map((e) => `${base} ${e}`.trimEnd()) : [base];
}

/** The emulator commands' --data-dir (start, stop, status, reset). */
export const emulatorDataDirFlag = Flags.string({
  description: 'Data directory of the emulator (default ~/.cdpctl/emulator, or $CDPCTL_EMULATOR_DIR).',
});

/** The running emulator that writes a profile, instead of naming its data directory. */
export const emulatorProfileFlag = Flags.string({
  description: 'The running emulator that writes this profile (see emulator status), instead of --data-dir.',
  exclusive: ['data-dir'],
});

/** What a command that makes signed calls of its own uses (login's check, auth status). */
export const CALL_FLAGS = [
  'profile',
  'cdp-region',
  'endpoint-url',
  'debug',
  'no-verify-tls',
  'ca-bundle',
  'cli-read-timeout',
  'cli-connect-timeout',
  'color',
] as const;

/**
 * The global flags for a hand-written command that uses only some of them:
 * all are accepted (a global flag may come before any command), the others
 * are left out of its help.
 */
export function globalFlagsUsing(used: readonly string[]): typeof globalFlags {
  const out: FlagInput = {};
  for (const [name, flag] of Object.entries(globalFlags)) out[name] = used.includes(name) ? flag : { ...flag, hidden: true };
  return out as typeof globalFlags;
}
