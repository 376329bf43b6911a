/**
 * Asking a person: only when IO says someone is there (stdin and stdout are
 * terminals, no --no-input, no CI). Missing required fields are asked for by
 * type: an enum as a select, a boolean as a confirm, secrets masked (a new
 * password twice), anything else as text converted the way its flag would be.
 * Each answer is checked at once against the model (type, enum, limits and
 * the operation's rules about that field) and asked again when wrong.
 * Prompts go to stderr through IO, so stdout only ever carries the result.
 * Without a person, nothing is asked and the validator reports what is
 * missing (exit 2).
 */
import type { Doc } from '../core/client.js';
import { CdpError, cdpError } from '../core/errors.js';
import { printable, validateRequest, type Issue } from '../core/validate.js';
import { kebab } from '../model/names.js';
import type { Operation } from '../model/index.js';
import type { Field } from '../model/shapes.js';
import { convertFlag } from './input.js';
import { shellQuote, yesNo, type IO, type Question } from './io.js';

/** Ctrl-C or Esc at a prompt: stop, send nothing, exit 130. */
const cancelled = (): CdpError =>
  cdpError({ kind: 'interrupted', code: 'CANCELLED', message: 'cancelled at the prompt; nothing was sent' });

const missingValue = (request: Doc, f: Field): boolean => request[f.name] === undefined || request[f.name] === null;

/** A validation issue in CLI words: flags, not wire fields (`--group-name is required`). */
export function issueText(op: Operation, issue: Issue): string {
  const fields = op.service.requestShape(op).byName;
  const flag = (f: string): string => (fields.has(f) ? `--${kebab(f)}` : `"${f}"`);
  if (issue.say) return issue.say(flag);
  if (issue.unknown) return unknownFieldText(issue, issue.unknown, flag);
  if (!fields.has(issue.field)) return issue.message;
  // A rule's own sentence about one field: said after the flag it is about.
  if (issue.problem === undefined) return `${flag(issue.field)}: ${issue.message}`;
  const rest = issue.path === issue.field ? '' : issue.path.slice(issue.field.length).replace(/^\./, '');
  return rest ? `${flag(issue.field)}: ${rest} ${issue.problem}` : `${flag(issue.field)} ${issue.problem}`;
}

/**
 * A field its object does not have, with the fields it does have, as `cdp`
 * lists them ("must be one of: ..."): at the top, a field of the input
 * (--cli-input-json, --input) that is no field of the request; deeper, one
 * inside a flag's JSON value.
 */
function unknownFieldText(issue: Issue, unknown: NonNullable<Issue['unknown']>, flag: (f: string) => string): string {
  const valid = `must be one of: ${unknown.known.join(', ')}`;
  if (issue.path === issue.field) return `unknown field "${printable(issue.path)}" in the input${unknown.hint}; ${valid}`;
  const inner = issue.path.slice(issue.field.length).replace(/^\./, '');
  return `${flag(issue.field)}: unknown field "${printable(inner)}"${unknown.hint}; ${valid}`;
}

/** How to type a value of this kind, said in the question. */
function hintFor(op: Operation, field: Field): string {
  const shapes = op.service.shapes;
  const t = shapes.resolve(field.type);
  if (t.kind === 'list') {
    const of = shapes.resolve(t.of ?? { kind: 'string' });
    const structured = of.kind === 'ref' || of.kind === 'map' || of.kind === 'object';
    return structured ? ' (a list: a JSON array, or one item as key=value,...)' : ' (a list: separate the values with commas)';
  }
  if (t.kind === 'ref' || t.kind === 'map' || t.kind === 'object') return ' (JSON, or key=value,...)';
  return '';
}

/** The typed text as the field's wire value, the way its flag converts it (a list split at commas). */
export function answerValue(op: Operation, field: Field, raw: string): unknown {
  const shapes = op.service.shapes;
  const t = shapes.resolve(field.type);
  const of = t.kind === 'list' ? shapes.resolve(t.of ?? { kind: 'string' }) : undefined;
  const scalarList = of && !(of.kind === 'ref' || of.kind === 'map' || of.kind === 'object');
  const values =
    scalarList && !raw.trim().startsWith('[')
      ? raw
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean)
      : [raw];
  return convertFlag(values, field, shapes, kebab(field.name));
}

/**
 * What is wrong with an answer, in CLI words, or undefined when it is good:
 * the field's shape, and the operation's rules about that field alone.
 */
export function answerProblem(op: Operation, request: Doc, field: Field, value: unknown): string | undefined {
  const issues = validateRequest(op.service.shapes, op.input, { ...request, [field.name]: value }, op.cli.rules);
  const own = issues.find(
    (i) => i.field === field.name && (i.rule === undefined || i.rule === 'pattern' || i.rule === 'custom') && i.problem !== 'is required',
  );
  return own ? issueText(op, own) : undefined;
}

/** The question for one field, by its type; `request` is what is known so far (for the rules). */
export function questionFor(op: Operation, field: Field, request: Doc = {}): Question {
  const shapes = op.service.shapes;
  const t = shapes.resolve(field.type);
  const name = `--${kebab(field.name)}`;
  const help = op.service.fieldHelp(op, field.name);
  const message = `${name}${help ? ` (${help})` : ''}`;
  if (t.enum) return { type: 'select', message, choices: [...t.enum] };
  if (t.kind === 'boolean') return { type: 'confirm', message, initial: false, format: yesNo };
  return {
    type: field.secret ? 'password' : 'input',
    message: message + hintFor(op, field),
    // Asked again until the answer converts and passes the model's checks.
    validate: (raw: string) => {
      if (raw.trim() === '') return `${name} is required (Ctrl-C to stop)`;
      try {
        return answerProblem(op, request, field, answerValue(op, field, raw)) ?? true;
      } catch (err) {
        return (err as Error).message;
      }
    },
  };
}

/** A new password: a secret the operation sets (never one it only reads). */
const isNewPassword = (op: Operation, field: Field): boolean => field.secret && op.mutating && /password/i.test(field.name);

async function askOnce(io: IO, question: Question): Promise<unknown> {
  try {
    return await io.ask(question);
  } catch {
    throw cancelled();
  }
}

export async function promptMissing(op: Operation, request: Doc, io: IO): Promise<void> {
  if (!io.canPrompt) return;
  const missing = op.service.requestFields(op).filter((f) => f.required && missingValue(request, f));
  for (const field of missing) {
    const question = questionFor(op, field, request);
    if (question.type === 'select' || question.type === 'confirm') {
      request[field.name] = await askOnce(io, question);
      continue;
    }
    for (;;) {
      const answer = String(await askOnce(io, question));
      if (isNewPassword(op, field)) {
        const again = String(await askOnce(io, { type: 'password', message: `${String(question.message)}, once more` }));
        if (again !== answer) {
          io.info('The two answers differ; please type it again.');
          continue;
        }
      }
      request[field.name] = answerValue(op, field, answer);
      break;
    }
  }
}

/** A request's fields as the command line that gives them: `--machine-user-name svc-60`. */
export function asFlags(op: Operation, request: Doc, max = 4): string {
  const parts: string[] = [];
  for (const field of op.service.requestFields(op)) {
    const v = request[field.name];
    if (v === undefined || v === null) continue;
    const flag = `--${kebab(field.name)}`;
    if (typeof v === 'boolean') parts.push(v ? flag : `--no-${kebab(field.name)}`);
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number'))
      parts.push(...v.map((x) => `${flag} ${shellQuote(String(x))}`));
    else parts.push(`${flag} ${shellQuote(typeof v === 'string' ? v : JSON.stringify(v))}`);
  }
  const shown = parts.slice(0, max).join(' ');
  return parts.length > max ? `${shown} …` : shown;
}

/**
 * Yes/no before something irreversible, naming what in CLI words. Only a
 * person is asked; scripts, CI and --no-input keep the official CLI's
 * behaviour and are not asked.
 */
export async function confirm(io: IO, message: string): Promise<boolean> {
  if (!io.canPrompt) return true;
  return (await askOnce(io, { type: 'confirm', message, initial: false, format: yesNo })) === true;
}
