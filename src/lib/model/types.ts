/**
 * The API model format. Each service is one folder under ./services:
 * wire.ts holds the wire facts (see ./wire.ts) and index.ts the CLI half:
 * command ids, summaries in our own words, examples, waiters and the
 * client-side rules. The CLI, the docs generator and the emulator's request
 * checks all read this one model.
 */
import type { PagingSpec, ServiceFacts, Shapes, WireOperations } from './wire.js';

export type { FieldSpec, PagingSpec, ServiceFacts, ShapeSpec, Shapes, WireOperation, WireOperations } from './wire.js';

/**
 * A waiter turns `--wait` into polling. `poll` names an operation of the same
 * service (or of `service`); `input` maps its request fields to JMESPath
 * expressions evaluated over `{request, response}` of the first call. `state`
 * is a JMESPath expression over the poll response giving a string, or an
 * array of strings (then all must reach success, and any failure fails).
 * `state`, `reason` and `result` may name the first call's request and
 * response as `$request` and `$response`, to pick the resource out of a list
 * (`policies[?name == $request.policyName] | [0].status`).
 */
export interface WaiterSpec {
  readonly poll: string;
  /**
   * The wire name of another service whose operation is polled (a workload
   * change read back through the control plane's describe); the one client
   * signs or uses the workload token as each service needs.
   */
  readonly service?: string;
  readonly input: Readonly<Record<string, string>>;
  readonly state: string;
  readonly success: readonly string[];
  readonly failure?: readonly string[];
  /** NOT_FOUND from the poll means the work is done (deletes). */
  readonly goneIsSuccess?: boolean;
  /** Seconds between polls when the user gives none. */
  readonly interval?: number;
  /** Default --wait-timeout in seconds. */
  readonly timeout?: number;
  /** JMESPath over the poll response giving why it failed. */
  readonly reason?: string;
  /** JMESPath over the poll response giving what to print at the end (default: all of it). */
  readonly result?: string;
  /**
   * JMESPath over the poll response naming what is waited on as its users
   * know it (`cluster.clusterName`), where the first call names it only by
   * CRN or id; the wait's lines use it from the first poll on.
   */
  readonly label?: string;
  /**
   * The first call's answer may already end the work: `state` (JMESPath over
   * that response) in `failure` prints the response and fails at once, with
   * `reason` as the why, and nothing is polled (a create refused by its own
   * validation).
   */
  readonly first?: { readonly state: string; readonly reason?: string };
}

/** A rule beyond what the shapes say; checked by the CLI and the emulator alike. */
export type Rule =
  | { readonly kind: 'pattern'; readonly field: string; readonly pattern: RegExp; readonly message: string }
  | { readonly kind: 'exclusive'; readonly fields: readonly string[]; readonly message?: string }
  | { readonly kind: 'requires'; readonly field: string; readonly needs: string; readonly message?: string }
  | { readonly kind: 'oneOf'; readonly fields: readonly string[]; readonly message?: string }
  | { readonly kind: 'anyOf'; readonly fields: readonly string[]; readonly message: string }
  | {
      readonly kind: 'custom';
      /** The field a failure is reported against. */
      readonly field: string;
      /** Returns a message when the request breaks the rule. */
      readonly check: (request: Readonly<Record<string, unknown>>) => string | undefined;
    };

/** File upload: the body is the named file's bytes; other fields travel as headers. */
export interface UploadSpec {
  readonly path: string;
  readonly fileField: string;
  readonly headers: Readonly<Record<string, string>>; // field -> header name
}

/**
 * Local files named by `parameterGroups[].parameters[].assetReferences[].path`
 * are uploaded before the call, under an asset update request that the call
 * then names, as the official CLI's DataFlow extension does. Each field names
 * an operation of the same service: `open` takes the request's
 * deploymentCrn, environmentCrn (and deployedFlowCrn) and answers with
 * assetUpdateRequestCrn; `upload` is an upload operation; `abort` is sent
 * when an upload fails.
 */
export interface AssetUploadSpec {
  readonly open: string;
  readonly upload: string;
  readonly abort: string;
}

/** The CLI half of an operation. */
export interface OperationCli {
  /** Command id under the service topic, space separated: `users create`. */
  readonly command: string;
  /** One line in our own words. */
  readonly summary: string;
  readonly description?: string;
  /** Example flags following the command. */
  readonly examples?: readonly string[];
  readonly wait?: WaiterSpec;
  readonly rules?: readonly Rule[];
  /** Help for particular request fields. */
  readonly fieldHelp?: Readonly<Record<string, string>>;
  /** Default table columns: header -> dotted path into one item (e.g. `status.state`). */
  readonly columns?: Readonly<Record<string, string>>;
  /** The response key holding the item list, when the operation is not paged. */
  readonly listKey?: string;
  /** Deletes or revokes something: ask first on a TTY unless --yes. */
  readonly destructive?: boolean;
  /** For deprecated operations: what to use instead. */
  readonly replacement?: string;
  readonly hidden?: boolean;
  readonly upload?: UploadSpec;
  /** Paging the facts do not mark (e.g. pageToken/nextPageToken). */
  readonly paging?: PagingSpec;
  /** Base64 (bytes) response fields worth showing decoded with --decode. */
  readonly decode?: readonly string[];
  /**
   * Fills in request fields before the request is checked and sent, as the
   * official CLI's extension for the operation does (changes the request in place).
   */
  readonly prepare?: (request: Record<string, unknown>) => void;
  readonly assetUploads?: AssetUploadSpec;
}

/**
 * An operation the official CLI runs on the client, composing wire calls of
 * this and other services (`cdp df create-deployment`). It has no path of
 * its own: its request and response shapes are among the service's shapes
 * and its steps are the service's customization (src/lib/customizations).
 */
export interface ComposedOperation {
  readonly input: string;
  readonly output: string;
  readonly mutating: boolean;
  readonly deprecated?: boolean;
}

export interface ServiceDefinition {
  /** Wire service name (`iam`, `cloudprivatelinks`). */
  readonly name: string;
  /** CLI topic (`iam`, `privatelink`). */
  readonly topic: string;
  readonly summary: string;
  /** How the endpoint is found: IAM host rules, the API host, or the workload token flow. */
  readonly endpoint: 'iam' | 'api' | 'workload';
  /** The service-wide facts: endpoint name, products, form factors (generated into wire.ts). */
  readonly facts: ServiceFacts;
  /** Resource topics under the service topic (`users`) with one-line descriptions. */
  readonly topics: Readonly<Record<string, string>>;
  /**
   * Help for request fields by wire name, for every operation of the service
   * that does not say otherwise in its own `fieldHelp`: what the value is,
   * its unit, and where it comes from.
   */
  readonly fieldHelp?: Readonly<Record<string, string>>;
  readonly shapes: Shapes;
  readonly wire: WireOperations;
  /** Operations the official CLI composes on the client (no wire path); each has a `cli` entry too. */
  readonly composed?: Readonly<Record<string, ComposedOperation>>;
  readonly cli: Readonly<Record<string, OperationCli>>;
}
