/**
 * Asking a person: only when IO says someone is there (stdin and stdout are
 * terminals, no --no-input, no CI). Missing required fields are asked for by
 * type: an enum as a select, a boolean as a confirm, secrets masked, anything
 * else as text converted the way its flag would be (lists comma separated,
 * structures as JSON or key=value). Prompts go to stderr, so stdout only
 * ever carries the result. Without a person, nothing is asked and the
 * validator reports what is missing (exit 2).
 */
import type { Doc } from '../core/client.js';
import { CdpError } from '../core/errors.js';
import { kebab } from '../model/names.js';
import type { Operation } from '../model/index.js';
import type { Field, Type } from '../model/shapes.js';
import { convertFlag } from './input.js';
import type { IO } from './io.js';

/** What a prompt needs of enquirer, so tests can stand in for it. */
export type Ask = (question: Record<string, unknown>) => Promise<unknown>;

async function enquirerAsk(io: IO): Promise<Ask> {
  const { default: Enquirer } = await import('enquirer');
  return async (question) => {
    const answers = (await Enquirer.prompt({ ...question, name: 'v', stdin: process.stdin, stdout: io.err } as never)) as { v: unknown };
    return answers.v;
  };
}

/** Ctrl-C or Esc at a prompt: stop, send nothing, exit 130. */
const cancelled = (): CdpError =>
  new CdpError({ kind: 'interrupted', code: 'CANCELLED', message: 'cancelled at the prompt; nothing was sent' });

const missingValue = (request: Doc, f: Field): boolean => request[f.name] === undefined || request[f.name] === null;

/** An answer for a list field is split into words, as a command line would be (one JSON list stays whole). */
const answerWords = (raw: string, type: Type): string[] =>
  type.kind === 'list' && !raw.trim().startsWith('[') ? raw.trim().split(/\s+/) : [raw];

/** The enquirer question for one field, by its type. */
export function questionFor(op: Operation, field: Field): Record<string, unknown> {
  const shapes = op.service.shapes;
  const t = shapes.resolve(field.type);
  const name = kebab(field.name);
  const help = op.service.fieldHelp(op, field.name);
  const message = `--${name}${help ? ` (${help})` : ''}`;
  if (t.enum) return { type: 'select', message, choices: [...t.enum] };
  if (t.kind === 'boolean') return { type: 'confirm', message, initial: false };
  const hint =
    t.kind === 'list'
      ? ' [space separated, or JSON]'
      : t.kind === 'ref' || t.kind === 'map' || t.kind === 'object'
        ? ' [JSON or key=value,...]'
        : '';
  return {
    type: field.secret ? 'password' : 'input',
    message: message + hint,
    // Re-ask until the answer converts; an empty answer is left to the validator.
    validate: (raw: string) => {
      if (raw === '') return true;
      try {
        convertFlag(answerWords(raw, t), field, shapes, name);
        return true;
      } catch (err) {
        return (err as Error).message;
      }
    },
  };
}

export async function promptMissing(op: Operation, request: Doc, io: IO, ask?: Ask): Promise<void> {
  if (!io.canPrompt) return;
  const shapes = op.service.shapes;
  const missing = op.service.requestFields(op).filter((f) => f.required && missingValue(request, f));
  if (missing.length === 0) return;
  const prompt = ask ?? (await enquirerAsk(io));
  for (const field of missing) {
    const question = questionFor(op, field);
    let answer: unknown;
    try {
      answer = await prompt(question);
    } catch {
      throw cancelled();
    }
    if (question.type === 'select' || question.type === 'confirm') request[field.name] = answer;
    else if (typeof answer === 'string' && answer !== '')
      request[field.name] = convertFlag(answerWords(answer, shapes.resolve(field.type)), field, shapes, kebab(field.name));
  }
}

/**
 * Yes/no before something irreversible. Only a person is asked; scripts, CI
 * and --no-input keep the official CLI's behaviour and are not asked.
 */
export async function confirm(io: IO, message: string, ask?: Ask): Promise<boolean> {
  if (!io.canPrompt) return true;
  const prompt = ask ?? (await enquirerAsk(io));
  try {
    return Boolean(await prompt({ type: 'confirm', message, initial: false }));
  } catch {
    throw cancelled();
  }
}
