/**
 * A loaded service: its definition plus lazy lookups of operations by name,
 * command id or alias, and their request/response shapes.
 */
import { kebab } from './names.js';
import { ShapeIndex, type Field, type Shape } from './shapes.js';
import type { OperationCli, PagingSpec, ServiceDefinition, WireOperation } from './types.js';

export interface Operation {
  readonly service: Service;
  /** Wire name, e.g. `createUser`. */
  readonly name: string;
  readonly wire: WireOperation;
  readonly cli: OperationCli;
  readonly input: string;
  readonly output: string;
  readonly path: string;
  readonly mutating: boolean;
  readonly paging?: PagingSpec;
  /** Run on the client from other calls (a ComposedOperation): no request of its own goes out. */
  readonly composed: boolean;
  /** Full command id: `iam users create`. */
  readonly commandId: string;
  /** cdpcli-style alias: `iam create-user`. */
  readonly aliasId: string;
}

const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

export class Service {
  readonly shapes: ShapeIndex;
  private readonly ops = new Map<string, Operation>();
  private byAlias?: Map<string, string>;

  constructor(readonly def: ServiceDefinition) {
    this.shapes = new ShapeIndex(def.shapes);
  }

  get name(): string {
    return this.def.name;
  }

  get topic(): string {
    return this.def.topic;
  }

  /** Wire operations, then the operations composed on the client. */
  operationNames(): string[] {
    return [...Object.keys(this.def.wire), ...Object.keys(this.def.composed ?? {})];
  }

  has(name: string): boolean {
    return Object.hasOwn(this.def.wire, name) || Object.hasOwn(this.def.composed ?? {}, name);
  }

  operation(name: string): Operation {
    const hit = this.ops.get(name);
    if (hit) return hit;
    const onWire = Object.hasOwn(this.def.wire, name) ? this.def.wire[name] : undefined;
    const composed = !onWire && this.def.composed && Object.hasOwn(this.def.composed, name) ? this.def.composed[name] : undefined;
    const wire = onWire ?? (composed ? { path: '', ...composed } : undefined);
    const cli = this.def.cli[name];
    if (!wire || !cli) throw new Error(`unknown operation ${this.def.name} ${name}`);
    const op: Operation = {
      service: this,
      name,
      wire,
      cli,
      input: wire.input ?? `${cap(name)}Request`,
      output: wire.output ?? `${cap(name)}Response`,
      path: wire.path,
      mutating: wire.mutating,
      paging: cli.paging ?? wire.paging,
      composed: composed !== undefined,
      commandId: `${this.def.topic} ${cli.command}`,
      aliasId: `${this.def.topic} ${kebab(name)}`,
    };
    this.ops.set(name, op);
    return op;
  }

  operations(): Operation[] {
    return this.operationNames().map((n) => this.operation(n));
  }

  /**
   * Finds an operation by full command id or alias id (space separated).
   * Ids and aliases never collide (a model invariant), so a command id is
   * looked for first: the aliases (kebab of every operation's name) are
   * worked out only for a line that uses one.
   */
  findByCommand(id: string): Operation | undefined {
    const prefix = `${this.def.topic} `;
    if (!id.startsWith(prefix)) return undefined;
    const words = id.slice(prefix.length);
    for (const [name, cli] of Object.entries(this.def.cli)) if (cli.command === words) return this.operation(name);
    if (!this.byAlias) {
      this.byAlias = new Map();
      for (const name of Object.keys(this.def.cli)) this.byAlias.set(kebab(name), name);
    }
    const name = this.byAlias.get(words);
    return name ? this.operation(name) : undefined;
  }

  /** Finds an operation by its wire name or its kebab-case name. */
  findByName(name: string): Operation | undefined {
    if (this.has(name)) return this.operation(name);
    const hit = this.operationNames().find((n) => kebab(n) === name);
    return hit ? this.operation(hit) : undefined;
  }

  /** Help for one request field of an operation: the operation's own words, else the service's. */
  fieldHelp(op: Operation, field: string): string | undefined {
    return op.cli.fieldHelp?.[field] ?? this.def.fieldHelp?.[field];
  }

  requestShape(op: Operation): Extract<Shape, { kind: 'struct' }> {
    const shape = this.shapes.get(op.input);
    if (shape.kind !== 'struct') throw new Error(`${op.input} is not a structure`);
    return shape;
  }

  requestFields(op: Operation): readonly Field[] {
    return this.requestShape(op).fields;
  }
}
