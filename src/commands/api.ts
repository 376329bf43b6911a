import { Args } from '@oclif/core';
import { BaseCommand, type ParsedLine } from '../lib/cli/base-command.js';
import type { RunContext } from '../lib/cli/context.js';
import { globalFlags, inputFlags } from '../lib/cli/flags.js';
import { checkRequest, runOperation } from '../lib/cli/run-operation.js';
import { inputFlagOf, loadInputDocument, readAllStdin } from '../lib/cli/input.js';
import type { Output } from '../lib/cli/render.js';
import { usageError } from '../lib/core/errors.js';
import { loadService, topics } from '../lib/model/index.js';
import { suggest } from '../lib/core/validate.js';

export default class Api extends BaseCommand<typeof Api> {
  static summary = 'Call any operation of the model with a raw request document.';
  static description =
    'The escape hatch: names the wire service and operation (camelCase or kebab-case) and sends the request from --input as it is, after checking it against the model. Paging and --wait are not applied.';
  static examples = [
    '<%= config.bin %> api iam listUsers --input \'{"pageSize": 10}\'',
    'echo \'{"groupName": "ops"}\' | <%= config.bin %> api iam createGroup --input -',
    '<%= config.bin %> api datalake list-datalakes',
  ];
  static args = {
    service: Args.string({ description: 'Wire service (iam, datalake, cloudprivatelinks, ...) or CLI topic.', required: true }),
    operation: Args.string({ description: 'Operation name, e.g. listUsers or list-users.', required: true }),
  };
  static flags = { ...inputFlags, ...globalFlags };

  protected async execute(ctx: RunContext, { args, flags }: ParsedLine<typeof Api>): Promise<Output> {
    let svc;
    try {
      svc = await loadService(args.service);
    } catch {
      throw usageError(`unknown service "${args.service}"${suggest(args.service, topics())}; known: ${topics().join(', ')}`);
    }
    const op = svc.findByName(args.operation);
    if (!op) throw usageError(`${svc.name} has no operation "${args.operation}"${suggest(args.operation, svc.operationNames())}`);
    const request = flags.input ? await loadInputDocument(flags.input, readAllStdin, inputFlagOf(this.argv)) : {};
    checkRequest(op, request);
    return runOperation(op, { ...flags, 'no-paginate': true }, ctx, { request });
  }
}
