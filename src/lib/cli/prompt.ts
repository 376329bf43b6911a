/**
 * Asking a person: only when IO says someone is there (a TTY, no --no-input,
 * no CI). Missing required fields are asked for by type: enum as a select,
 * boolean as a confirm, secrets masked.
 */
import type { Doc } from '../core/client.js';
import { usageError } from '../core/errors.js';
import { kebab } from '../model/names.js';
import type { Operation } from '../model/index.js';
import { convertScalar } from './input.js';
import type { IO } from './io.js';

export async function promptMissing(op: Operation, request: Doc, io: IO): Promise<void> {
  if (!io.canPrompt) return;
  const shapes = op.service.shapes;
  const missing = op.service.requestFields(op).filter((f) => f.required && (request[f.name] === undefined || request[f.name] === null));
  if (missing.length === 0) return;
  const { default: Enquirer } = await import('enquirer');
  for (const field of missing) {
    const t = shapes.resolve(field.type);
    const name = kebab(field.name);
    const message = `--${name}${op.cli.fieldHelp?.[field.name] ? ` (${op.cli.fieldHelp[field.name]})` : ''}`;
    let answer: unknown;
    try {
      if (t.enum) answer = ((await Enquirer.prompt({ type: 'select', name: 'v', message, choices: [...t.enum] })) as { v: string }).v;
      else if (t.kind === 'boolean') answer = ((await Enquirer.prompt({ type: 'confirm', name: 'v', message })) as { v: boolean }).v;
      else if (t.kind === 'string' || t.kind === 'int32' || t.kind === 'int64' || t.kind === 'double' || t.kind === 'datetime') {
        const raw = ((await Enquirer.prompt({ type: field.secret ? 'password' : 'input', name: 'v', message })) as { v: string }).v;
        answer = convertScalar(raw, t, `--${name}`);
      } else if (t.kind === 'list') {
        const raw = ((await Enquirer.prompt({ type: 'list', name: 'v', message: `${message} (comma separated)` })) as { v: string[] }).v;
        answer = raw.map((r) => convertScalar(r, shapes.resolve(t.of ?? { kind: 'string' }), `--${name}`));
      } else continue;
    } catch {
      throw usageError('cancelled at the prompt; nothing was sent');
    }
    if (answer !== '' && answer !== undefined) request[field.name] = answer;
  }
}

/** Yes/no before something irreversible. Without a person there, it refuses rather than guess. */
export async function confirm(io: IO, message: string): Promise<boolean> {
  // Scripts and CI keep the official CLI's behaviour: no question is asked.
  if (!io.canPrompt) return true;
  const { default: Enquirer } = await import('enquirer');
  try {
    const { v } = (await Enquirer.prompt({ type: 'confirm', name: 'v', message, initial: false })) as { v: boolean };
    return v;
  } catch {
    return false;
  }
}
