/**
 * The wire half of a service model: shapes and per-operation facts that must
 * match the real control plane (paths, request/response shapes, paging keys).
 * Each services/<topic>/wire.ts is written in this format.
 */

/**
 * A field spec: `<type>[!] [attr ...]`.
 * - type: string | int32 | int64 | double | boolean | datetime | bytes |
 *   object (free-form JSON object) | `[T]` (list) | `{T}` (string map) | a shape name
 * - `!` marks a required field
 * - attrs: `enum=A|B`, `min=N`, `max=N`, `minLen=N`, `maxLen=N`, `default=V`
 *   (`default="a JSON string"` when it holds spaces),
 *   `secret` (redacted in logs), `deprecated`, `unique`, `readonly`
 */
export type FieldSpec = string;

/** A structure (field name -> spec) or an enum (`enum A B C`). */
export type ShapeSpec = Readonly<Record<string, FieldSpec>> | `enum ${string}`;
export type Shapes = Readonly<Record<string, ShapeSpec>>;

export interface PagingSpec {
  /** The array in the response that accumulates across pages. */
  readonly result: string;
  readonly inputToken: string;
  readonly outputToken: string;
  readonly pageSize: string;
  /** Items asked for per page when the user sets nothing (the official CLI's default). */
  readonly defaultMaxItems: number;
}

export interface WireOperation {
  readonly input?: string; // default <Op>Request
  readonly output?: string; // default <Op>Response
  readonly path: string;
  readonly mutating: boolean;
  readonly paging?: PagingSpec;
  readonly deprecated?: boolean;
  readonly beta?: boolean;
}

export type WireOperations = Readonly<Record<string, WireOperation>>;

/** What the facts say about a service as a whole. */
export interface ServiceFacts {
  /** Wire service name (`iam`, `cloudprivatelinks`). */
  readonly name: string;
  /** The path segment after /api/v1/ (`environments2` for environments). */
  readonly endpointName: string;
  /**
   * Products the service belongs to: `CDP` only, or `ALTUS` and `CDP` (iam),
   * which decides the config key and `%s` rule of its endpoint.
   */
  readonly products: readonly string[];
  /** Where the service exists: the public cloud control plane, private cloud, or both. */
  readonly formFactors: readonly string[];
  /** The API version the facts were taken from. */
  readonly version: string;
}
