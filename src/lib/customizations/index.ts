/**
 * Service customizations: operations the official CLI does not run as the
 * one request the model describes, but as steps of its own (in the spirit of
 * aws-cli's customizations). Each is keyed by `<wire service> <operation>`
 * in one static table and loaded only when that operation runs, so no other
 * command pays for them. The CLI looks an operation up here and knows no
 * service by name; a test checks that every entry loads and names an
 * operation of the model, and that every composed operation has one.
 *
 * A customization may call any operation of any service through the one
 * client: df calls are signed, dfworkload calls carry the workload token.
 */
import type { OperationClient, Doc } from '../core/client.js';
import type { Operation } from '../model/index.js';

export interface CustomizationContext {
  readonly client: OperationClient;
  readonly op: Operation;
  /** The request as the user gave it, checked against the model. */
  readonly request: Doc;
  /** A line for stderr: what a best-effort clean-up could not do. */
  readonly warn: (line: string) => void;
}

export interface Customization {
  /** Runs the operation in place of its one request; resolves with what the command prints. */
  readonly run: (ctx: CustomizationContext) => Promise<Doc>;
  /** What it prints is not the operation's modelled response (e.g. a decoded document). */
  readonly freeForm?: boolean;
}

type Loader = () => Promise<Customization>;

type DfModule = typeof import('./df.js');
type Of<M> = { [K in keyof M]: M[K] extends Customization ? K : never }[keyof M];
const df =
  (name: Of<DfModule>): Loader =>
  async () =>
    (await import('./df.js'))[name];

/** `<wire service> <operation>` -> its customization. */
const TABLE: Readonly<Record<string, Loader>> = {
  'df createDeployment': df('createDeployment'),
  'df addFlowToDeployment': df('addFlowToDeployment'),
  'df changeFlowVersion': df('changeFlowVersion'),
  'df changeFlowVersionInDeployment': df('changeFlowVersionInDeployment'),
  'df retryChangeFlowVersion': df('retryChangeFlowVersion'),
  'df retryChangeFlowVersionInDeployment': df('retryChangeFlowVersionInDeployment'),
  'df importFlowDefinition': df('importFlowDefinition'),
  'df importFlowDefinitionVersion': df('importFlowDefinitionVersion'),
  'df getFlowVersion': df('getFlowVersion'),
};

/** Every key of the table, for the test that each resolves. */
export const CUSTOMIZED: readonly string[] = Object.keys(TABLE);

/** The customization of an operation, or undefined when it is the one request the model describes. */
export function customizationOf(op: Pick<Operation, 'name' | 'service'>): Loader | undefined {
  const key = `${op.service.name} ${op.name}`;
  return Object.hasOwn(TABLE, key) ? TABLE[key] : undefined;
}
