/**
 * The command factory: one oclif command class per model operation. Classes
 * are made on demand from a command id, and their flags come from the model
 * when they run, so a command loads only its own service's model. The build
 * makes fully described classes (`describedOperationCommand`) for the
 * manifest that help and completion read.
 */
import type { Command } from '@oclif/core';
import { loadService, type Operation } from '../model/index.js';
import { BaseCommand, type ParsedLine } from './base-command.js';
import type { ParsedFlags, RunContext } from './context.js';
import { operationExamples, operationFlags } from './flags.js';
import { operationNotes } from './help.js';
import type { Output } from './render.js';
import { runOperation } from './run-operation.js';

/** oclif keeps ids colon-separated internally; the model's are space-separated. */
export const oclifId = (commandId: string): string => commandId.replace(/ /g, ':');

async function findOperation(oclifCommandId: string): Promise<Operation> {
  const id = oclifCommandId.replace(/:/g, ' ');
  const topic = id.split(' ')[0] ?? '';
  const svc = await loadService(topic);
  const op = svc.findByCommand(id);
  if (!op) throw new Error(`no operation for command "${id}"`);
  return op;
}

export abstract class OperationCommand extends BaseCommand {
  static strict = true;
  /** Every operation takes every global flag (its flags come from the model when it runs). */
  protected dropsForeignGlobals = false;
  private op?: Operation;

  /** The command line parsed by the operation's flags, from the model of its service alone. */
  protected async parseLine(): Promise<ParsedLine<typeof Command>> {
    this.op = await findOperation(this.id ?? '');
    const { flags, args, argv } = await this.parse({ flags: operationFlags(this.op), args: {}, strict: true, baseFlags: {} });
    return { flags, args, argv };
  }

  protected async execute(ctx: RunContext, line: ParsedLine<typeof Command>): Promise<Output> {
    if (!this.op) throw new Error('parseLine() runs before execute()');
    return runOperation(this.op, line.flags as ParsedFlags, ctx);
  }
}

/** A thin class for an id; its description comes from the manifest. */
export function operationCommand(id: string): Command.Class {
  return class extends OperationCommand {
    static id = id;
  } as unknown as Command.Class;
}

/** A fully described class for the manifest (flags, help, aliases). */
export function describedOperationCommand(op: Operation): Command.Class {
  const flags = operationFlags(op);
  return class extends OperationCommand {
    static id = oclifId(op.commandId);
    static summary = op.cli.summary;
    // The words help.ts prints (oclif's help delegates to it; completion and the manifest read these).
    static description = [
      op.cli.description,
      ...operationNotes(op, 'cdpctl'),
      `API: ${op.service.name} ${op.name} (${op.composed ? 'run on the client, as the official CLI does' : `POST ${op.path}`})`,
    ]
      .filter(Boolean)
      .join('\n\n');
    static examples = operationExamples(op);
    static flags = flags;
    static hiddenAliases = [oclifId(op.aliasId)];
    static hidden = Boolean(op.cli.hidden || op.wire.deprecated);
  } as unknown as Command.Class;
}
