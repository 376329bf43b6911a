/**
 * The older way a service module declares itself to the resource engine,
 * kept until every service is on the operation table (table.ts, declare.ts):
 * its resources, each
 * in a few lines of data, and hooks for what the model cannot say. Everything
 * else is derived from the service's model (derive.ts): the record shape,
 * which operation is which verb on which resource, the name, id and CRN
 * fields, the lifecycle from the model's resource facts, paging.
 */
import type { ServiceResources } from '../../model/resources.js';
import type { Service } from '../../model/service.js';
import type { Lifecycle } from './timeline.js';
import type { CallObserver, DependentKind, Doc, Handler, Providers, RequestContext } from './context.js';
import type { RecordFields } from './derive.js';
import type { Engine } from './index.js';
import type { EngineRecord, Records } from './records.js';

/** The standard verbs the engine serves from records. */
export type Verb = 'create' | 'read' | 'list' | 'delete' | 'update' | 'events' | { readonly action: string };

/** How one operation is served: a verb on a resource, with an optional computed answer. */
export interface Binding {
  readonly resource: string;
  readonly verb: Verb;
  /**
   * Computes the answer from the record (read, update and action verbs) or
   * the records (list), instead of the derived answer. What it returns is
   * conformed to the operation's response shape.
   */
  readonly answer?: (h: Hook, rec: EngineRecord, request: Doc) => Doc;
  /** For a list: the records to show, instead of those in the request's scope. */
  readonly select?: (h: Hook, request: Doc) => EngineRecord[];
  /** Request fields that name the resource for this operation, instead of the resource's keys. */
  readonly keys?: readonly string[];
  /** Request fields that name the environment for this operation. */
  readonly environment?: readonly string[];
  /** The lifecycle action an update or create starts (default: `update`, `create`). */
  readonly action?: string;
  /**
   * The request as the verb and the hooks read it, made from the one sent
   * (a restore's new resource, given in a nested field); default: as sent.
   */
  readonly request?: (h: Hook, request: Doc) => Doc;
}

/** A resource of a service, as data. */
export interface ResourceSpec {
  /** Nouns it has in operation names (`Vw`, `Database`); default: its key, capitalised. */
  readonly nouns?: readonly string[];
  /** What it is called in messages (`Virtual Warehouse`); default: its key. */
  readonly noun?: string;
  /** Its record's shape; default: what its describe (or list) operation answers. */
  readonly shape?: string;
  /** Request fields that name it (by id, name or CRN), in the order they are tried. */
  readonly keys: readonly string[];
  /** Request fields that name the environment it lives in (name or CRN). */
  readonly environment?: readonly string[];
  /** The resource it lives in (its key in the service's resources); requests name it by that resource's keys. */
  readonly parent?: string;
  /**
   * It is a part of its parent (an access grant to a cluster, what a parent
   * made itself such as a default catalog, or keeps about itself such as its
   * users): deleting the parent takes it along without force. A function
   * decides per record.
   */
  readonly partOfParent?: boolean | ((rec: EngineRecord) => boolean);
  /**
   * What it lives in when that is neither an environment nor a resource of
   * this service (a cluster of another service): the request fields that
   * name it, and how to find it (throwing NOT_FOUND when there is none).
   */
  readonly within?: Within;
  /**
   * Where it lives when that is a record the engine does not hold (one of the
   * module's own resources): the scope a request names and its words in
   * messages; undefined when the request names none (any scope).
   */
  readonly scope?: (h: Hook, request: Doc) => { readonly scope: string; readonly where: string } | undefined;
  /** Its lifecycle, when the service's model has no facts of it (facts win). Left out: it has no status. */
  readonly lifecycle?: Lifecycle;
  /**
   * Emulated minutes each action of a lifecycle made of the model's facts
   * takes: a number (spread evenly over its states) or one for each state;
   * default create 5, delete 2, any other 3.
   */
  readonly minutes?: Readonly<Record<string, number | readonly number[]>>;
  /** The record field its status is shown in; default `status` when the shape has one. */
  readonly status?: string;
  /** The roles of its record's fields that their names do not tell (`instanceName` its name, `failureMessage` why it failed). */
  readonly fields?: Partial<RecordFields>;
  /** The resource type its CRNs carry (`workspace`, `clustertemplate`, `catalogCollection`); default: its key as it is. */
  readonly crnType?: string;
  /** Makes a new id from the create request (ids that tell the kind, `impala-...`); default a UUID. */
  readonly newId?: (h: Hook, request: Doc) => string;
  /**
   * The name the `fail-` rule reads (default: its name). For a resource named
   * after something that cannot fail on purpose itself, such as the
   * environment it activates, or one without a name (a job).
   */
  readonly subject?: (rec: EngineRecord) => string | undefined;
  /** Its actions record operations of this kind (getOperation-style calls). */
  readonly operations?: boolean;
  /** Operation names the derivation cannot place, or places wrongly. */
  readonly ops?: Readonly<Record<string, Verb | Omit<Binding, 'resource'>>>;
  /** Verb words of this service that mean a standard verb (`grant` is create, `revoke` delete). */
  readonly verbs?: Readonly<Record<string, 'create' | 'delete' | 'update' | 'read' | 'list'>>;
  /** Hand-written rules and computed fields. */
  readonly hooks?: ResourceHooks;
  /** Request fields that mean "remove what it holds too" on delete; default: force, cascade, cascading. */
  readonly forceFields?: readonly string[];
  /** Deleting it removes the records it holds with it, as its API says (default: refused while it holds any, unless forced). */
  readonly cascades?: boolean;
  /** Whether two of its records may not share a name in a scope (default: true; backups taken every night may). */
  readonly uniqueNames?: boolean;
  /** Actions that have no effect on a record already in the state they end in (`suspend` of a suspended warehouse). */
  readonly idempotent?: readonly string[];
  /** Deleting it removes it at once even when its lifecycle has a delete (default: the delete action runs). */
  readonly singleton?: boolean;
  /** What it does as its environment stops or starts: an action of its lifecycle (default: `stop`, `start` when it has them). */
  readonly follows?: Partial<Record<'stop' | 'start', string>>;
  /**
   * It is a part of its environment (FreeIPA's log collections), not something
   * that runs in it: it is none of the environment's dependents in the world
   * (it neither holds up the environment's delete nor follows its stop and
   * start), and it goes when the environment goes.
   */
  readonly partOfEnvironment?: boolean;
}

/** Where a resource lives outside its service, as `ResourceSpec.within` finds it. */
export interface Within {
  readonly fields: readonly string[];
  /** The scope its records are kept under (the thing's CRN) and the words messages name it by. */
  readonly find: (h: Hook, ref: string) => { readonly scope: string; readonly where: string };
}

/** Hooks run inside the request's transaction; they throw ApiErrors for the service's rules. */
export interface ResourceHooks {
  /** Before a new record is saved: check rules, set computed fields on `rec.doc` or `rec.data`. */
  readonly creating?: (h: Hook, rec: EngineRecord, request: Doc) => void;
  /** Before an update is saved (`rec.doc` already has the request's fields). */
  readonly updating?: (h: Hook, rec: EngineRecord, request: Doc) => void;
  /** Before an action starts; may return the fields its success sets. */
  readonly acting?: (h: Hook, rec: EngineRecord, action: string, request: Doc) => Doc | void;
  /** Before a delete starts or the record is removed. */
  readonly deleting?: (h: Hook, rec: EngineRecord, request: Doc) => void;
  /**
   * Fields computed whenever the record is shown, in answers and listings
   * alike (a phase read off the clock, when its status last changed): shown
   * over its stored view. It returns those fields only; `view` is the view
   * so far, and `rec` may be frozen (a describe reads it as kept).
   */
  readonly viewing?: (h: Hook, rec: EngineRecord, view: Doc) => Doc;
}

/** What a hook works with: the request's context and the engine's lookups for this service. */
export interface Hook {
  readonly ctx: RequestContext;
  readonly service: Service;
  /** The records of a resource of this service. */
  readonly resources: (name: string) => Records;
  readonly engine: Engine;
}

/** A service on the engine: its resources, and handlers written by hand for what the engine cannot serve. */
export interface EngineSpec {
  /** What the model says of the service's resources (model/services/<topic>/resources.ts): shapes, CRN types, lifecycles. */
  readonly facts?: ServiceResources;
  readonly resources: Readonly<Record<string, ResourceSpec>>;
  /**
   * Runs before each of its operations: makes what the service has from the
   * start in an account (built-in templates), once; it checks that cheaply.
   */
  readonly setup?: (h: Hook) => void;
  /** Operations served by hand, with the engine's lookups at hand. */
  readonly handlers?: Readonly<Record<string, (h: Hook, request: Doc) => Doc>>;
  /** Plain handlers (the service module's own backend). */
  readonly plain?: Readonly<Record<string, Handler>>;
}

/**
 * A service module not yet on the operation table (table.ts): handlers keyed
 * by wire operation name, or an engine spec of the older shape. A handler
 * gets a request already checked against the model and returns the plain
 * response document, synchronously, inside the request's transaction.
 */
export interface ServiceModule {
  /** Wire service name: iam, datalake, cloudprivatelinks, ... */
  readonly service: string;
  /** For a workload service: the workload name its Bearer tokens must be issued for (DF). */
  readonly workloadName?: string;
  /** Operations served by the module's own code. */
  readonly handlers?: Readonly<Record<string, Handler>>;
  /** Resources served by the resource engine (engine/), derived from the model. */
  readonly engine?: EngineSpec;
  /** Kinds of its records that live in environments (world.ts); the engine's environment resources are added to them. */
  readonly dependents?: readonly DependentKind[];
  /** Sees every mutating call of every service (the audit service keeps them as events). */
  readonly observe?: CallObserver;
  /** What it tells the other services (world/contracts.ts): each contract has one provider. */
  readonly provides?: Providers;
  /**
   * Operations that take their file at another address, as the DataFlow
   * catalog's imports do: operation name -> the path the file goes to. The
   * JSON request is checked and answered with a redirect there (carrying a
   * session); the file sent there, signed, runs the handler with that
   * request and the file as its upload.
   */
  readonly redirectedUploads?: Readonly<Record<string, string>>;
}
