/**
 * The declaration language of a service on the operation table
 * (table.ts): its resources as data, what each verb entry reads differently
 * from its resource, and the hooks for what the data cannot say. What the
 * API says of a resource (its shape, CRN type, states, how a delete ends) is
 * the model's (model/services/<topic>/resources.ts), not declared here.
 *
 * Hooks are named by what they do and keyed by the change they are for, so
 * a hook runs only where it is written and the coverage table can name it:
 * `check` refuses a change the rules forbid, `fill` computes a new record's
 * fields, `show` the fields a record shows beyond its stored ones, `effect`
 * what an action's success sets, `keep` what a change keeps beside the
 * record. An entry's `answer`, `select` and `rewrite` compute its answer,
 * its records, or the request it reads.
 */
import type { PlaceName, WorldReads } from '../world/contracts.js';
import type { Doc, RequestContext } from './context.js';
import type { EngineRecord, Records } from './records.js';

/** Where a resource lives. */
export type Lives<R extends string = string> =
  /** In the account (default). */
  | { readonly in: 'account' }
  /** In an environment, named by these request fields (its name or CRN). */
  | { readonly in: 'environment'; readonly by: readonly string[] }
  /**
   * In a record of another resource of this service, named by that
   * resource's keys; `part`: it goes with its parent without force (true,
   * or the record path that says so per record: `data.isDefault`).
   */
  | { readonly in: 'parent'; readonly parent: R; readonly part?: true | `${'doc' | 'data'}.${string}` }
  /**
   * In a record of another service, found through the world by these
   * request fields (a contract that is a place: `clusters`, a data lake or
   * Data Hub by CRN).
   */
  | { readonly in: 'world'; readonly place: PlaceName; readonly by: readonly string[] };

/** Refuses a change the service's rules forbid (throws an ApiError). */
export type CheckFn<R extends string> = (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc) => void;

/** What a resource's hand-written code does, each hook keyed by the change it is for. */
export interface ResourceHooks<R extends string = string> {
  /** Refuses a change the rules forbid: by `create`, `update`, `delete`, an action's name, or a work kind's. */
  readonly check?: { readonly [change: string]: CheckFn<R> };
  /** Fields a new record gets beyond the request's and the derived ones (id, name, CRN, environment, creator, time); returned, not set. */
  readonly fill?: (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc) => Doc;
  /**
   * Fields computed whenever it is shown (a phase read off the clock), in
   * answers and listings alike: only those, over its stored view (`view`).
   */
  readonly show?: (h: Hook<R>, rec: Readonly<EngineRecord>, view: Doc) => Doc;
  /**
   * Fields an action's success sets (a target version), by action, beyond
   * the request's; `update`, what an update sets beyond the request's
   * fields the shape has (a new version of a kept list); for work (the
   * `work` verb), by kind, set on the record the work is for.
   */
  readonly effect?: { readonly [action: string]: (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc) => Doc };
  /**
   * What a change keeps beside the record once it is accepted (its `data`,
   * never shown: the version an upgrade leaves, to roll back to; credentials
   * a later answer reads), by `create`, `update` or an action's name; merged
   * into what the record keeps. Runs after the change's check, fill and effect.
   */
  readonly keep?: { readonly [change: string]: (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc) => Doc };
}

/** How new ids are made: `cluster-6gqzwzb4` (short), `warehouse-1696571829-pps2` (stamped); default a UUID. */
export interface IdStyle {
  readonly style: 'short' | 'stamped';
  /** The prefix, or one chosen by a request field's value (`vwType`: impala -> `impala`, otherwise `compute`). */
  readonly prefix: string | { readonly field: string; readonly map: Readonly<Record<string, string>>; readonly otherwise: string };
  /** Random characters after the prefix (short, default 8) or the time (stamped, default 4). */
  readonly length?: number;
  /** Those characters: lower-case letters and digits (default), or hex digits. */
  readonly chars?: 'alnum' | 'hex';
}

/** A resource of a service, as data: what the model's resource facts cannot say. */
export interface Resource<R extends string = string> {
  /** What messages call it (`Virtual Warehouse`); default: its key. */
  readonly noun?: string;
  /** Request fields that name it (its id, name or CRN), tried in order. */
  readonly keys: readonly string[];
  /** Where it lives; default: the account. */
  readonly lives?: Lives<R>;
  /** Emulated minutes each action takes: one number (spread evenly over its states) or one per state; default create 5, delete 2, others 3. */
  readonly minutes?: Readonly<Record<string, number | readonly number[]>>;
  readonly ids?: IdStyle;
  /** Its CRNs end with its name and id (`group:admins/<uuid>`, iam's); default its id alone. */
  readonly crnTail?: 'name/id';
  /**
   * `repeat`: two of its records in a scope may share a name (nightly
   * backups); `replace`: a create under a name its scope has changes that
   * record in place, its id, CRN and creation kept (a set-style operation:
   * the account's audit credential of a cloud); default unique.
   */
  readonly names?: 'unique' | 'repeat' | 'replace';
  /**
   * An update that gives a new name renames it: the request's name field, or
   * what its `effect.update` sets there; unique in its scope (ALREADY_EXISTS
   * otherwise) unless names repeat. Lookups by name and messages follow.
   * Default: its name stays.
   */
  readonly renames?: true;
  /** The record path the fail- rule reads (`doc.description`, `data.owner`), for one named after something else; default its name. */
  readonly failsBy?: `${'doc' | 'data'}.${string}`;
  /**
   * Actions of other records that a `fail-<action>-` name of its records
   * names, so that they fail and it does not (a backup named `fail-restore-`
   * backs up, and its restores fail); its own actions and work are known.
   */
  readonly failsFor?: readonly string[];
  /** Actions that change nothing on a record already in the state they end in (`suspend` of a suspended warehouse). */
  readonly idempotent?: readonly string[];
  /**
   * States in which asking for an action changes nothing, by action (it is
   * under way, or where it leads is so already: `suspend` of a deployment
   * SUSPENDING): once its checks pass, it answers the record as it is.
   */
  readonly unchangedIn?: Readonly<Record<string, readonly string[]>>;
  /**
   * What a delete does beyond the model's deletion end: `cascades`, it takes
   * what it holds with it (else it is refused while it holds any, unless
   * forced); `force`, the request fields that force it (default force,
   * forced, cascade, cascading, forceDelete); `forcedAtOnce`, a forced delete
   * ends now, in the deleted state, without failing; `immediate`, it ends at
   * once even when the lifecycle has a delete.
   */
  readonly deletes?: {
    readonly cascades?: true;
    readonly force?: readonly string[];
    readonly forcedAtOnce?: true;
    readonly immediate?: true;
  };
  /**
   * What it does as its environment stops and starts (actions of its
   * lifecycle; default `stop`, `start` when it has them); `part`, it is a
   * part of the environment (it neither holds up its delete nor follows it).
   */
  readonly withEnvironment?: { readonly stop?: string; readonly start?: string } | 'part';
  /** What it is called among its environment's dependents (`Data Hub cluster`: an environment's delete names it); default its noun. */
  readonly environmentNoun?: string;
  /**
   * Its records are work beside its parent (maintenance): the parent's
   * `work(kind)` entries make them, each kind an action of this resource's
   * lifecycle; they run one at a time a parent (or a group of kinds: `groups`
   * maps a kind to its group), and their `effect` reaches the parent when
   * they end. `named: 'operation'`: a refusal while work runs names it by its
   * operation record's name in words (`cm diagnostics collection`), not by
   * its kind. `refusedBy: 'check'`: the engine does not refuse work while
   * other work runs; the resource's `check` does (FreeIPA's names its own
   * state, as clients know it).
   */
  readonly work?:
    true | { readonly groups?: Readonly<Record<string, string>>; readonly named?: 'kind' | 'operation'; readonly refusedBy?: 'check' };
  /**
   * Its records are another service's, read through the world (the DataFlow
   * workload's deployments, which DataFlow's control plane shows), each made
   * a record of this resource by `readRecord` (records.ts): those of a scope
   * (its parent's id; '' in the account). Only reads and lists serve it; a
   * read finds one by the id, CRN or name its keys give.
   */
  readonly readsFrom?: (h: Hook<R>, scope: string) => readonly EngineRecord[];
  /**
   * One record an account, named by the account (its settings), found
   * whatever the request names: a read before anything changed it shows
   * these fields, and its first change makes it with them. Nothing is kept
   * until then, so an account nobody changed holds none (an `--empty` start
   * stays empty after a read).
   */
  readonly perAccount?: (h: Hook<R>) => Doc;
  /**
   * Store kinds of records its service keeps under its id or CRN, as their
   * id or their parent, by hand (an environment's FreeIPA and operation
   * records): they are gone when it is, removed as its delete ends.
   */
  readonly goneWith?: readonly string[];
  /**
   * Records every account sees beside its own (the platform's catalogue:
   * Data Hub's built-in cluster templates), made by this function and never
   * stored (the store's CRNs are unique across accounts): a read finds one
   * when the account has none of that name or CRN, a list shows them before
   * the account's own, a create under one's name is ALREADY_EXISTS, and any
   * other verb on one is FAILED_PRECONDITION.
   */
  readonly builtIns?: (h: Hook<R>) => ReadonlyArray<{ readonly name: string; readonly crn?: string; readonly doc: Doc }>;
  readonly hooks?: ResourceHooks<R>;
}

/** Per operation, what a verb reads differently from its resource's declaration. */
export interface EntryOptions<R extends string = string> {
  /** Request fields that name the record for this operation. */
  readonly keys?: readonly string[];
  /** Request fields that name its environment for this operation. */
  readonly environment?: readonly string[];
  /** The lifecycle action a create or update starts (default: create, update). */
  readonly action?: string;
  /** The request the verb reads, made from the one sent (a restore's target in nested fields). */
  readonly rewrite?: (h: Hook<R>, sent: Doc) => Doc;
  /** The answer, computed from the record instead of the derived one (conformed to the response shape). */
  readonly answer?: (h: Hook<R>, rec: Readonly<EngineRecord>, req: Doc) => Doc;
  /** For a list: the records shown, instead of those in the request's scope (undefined: those, as without it, a page at a time). */
  readonly select?: (h: Hook<R>, req: Doc) => EngineRecord[] | undefined;
  /** For a list: fields its answer has beside its items (the clusters it could not reach); a page's own fields (its next token) win over them. */
  readonly beside?: (h: Hook<R>, req: Doc) => Doc;
  /** For an action: the emulated minutes it takes, when the request chooses them (a rolling restart); else the resource's. */
  readonly minutes?: (h: Hook<R>, req: Doc) => number | undefined;
  /**
   * For a delete: the request field that lists the records it deletes, by
   * name or CRN (deleteRecipes' `recipeNames`): each deleted as a delete of
   * one (its checks apply), all or none; the answer lists them as they were.
   */
  readonly each?: string;
  /**
   * For an update: the name its hooks are keyed by (`check.<change>`,
   * `effect.<change>`, `keep.<change>`) instead of `update`, for a resource
   * changed by several updates that check and set different things (a Data
   * Hub cluster's image catalog, its recipes, its autoscale rules).
   */
  readonly change?: string;
}

/** The verbs the engine serves from records. */
export type Verb =
  | 'create'
  | 'read'
  | 'list'
  | 'update'
  | 'delete'
  | 'events'
  /** getOperation-style: an operation record of the record, by id or its newest. */
  | 'operation'
  /** An action of its lifecycle: its status passes through the action's states. */
  | { readonly action: string }
  /** Work beside the record (its `work` resource): a record of its own with an operation; the record's status stays. */
  | { readonly work: string };

/** An operation served by the engine: a verb on a resource. */
export interface VerbEntry<R extends string = string> {
  readonly serve: 'verb';
  readonly resource: R;
  readonly verb: Verb;
  readonly options: EntryOptions<R>;
}

/** What hooks and code entries work with: the request, and this service's records. */
export interface Hook<R extends string = string> {
  /** The request: store, clock (frozen), caller, account, operation. */
  readonly ctx: RequestContext;
  /** What this service reads of the others (world/contracts.ts), in this request. */
  readonly world: WorldReads;
  /** The records of a resource of this service. */
  records(resource: R): Records;
  /** The record a request names, as a verb finds it (NOT_FOUND otherwise). */
  locate(resource: R, req: Doc): EngineRecord;
  /** Serves an operation of this service's table as a request would be served (a code entry made of others). */
  perform(op: string, req: Doc): Doc;
  /** Serves a verb entry (`verbs('cluster').create()`) as the engine would: for a code entry that answers first, then hands on. */
  serve(entry: VerbEntry<R>, req: Doc): Doc;
  /** A document of a shape of this service's model, from what is given (required fields made up, seeded by `seed`). */
  conform(shape: string, doc: Doc, seed: string): Doc;
  /** The CRN of a record of a resource of this service, by its id (and name, for one whose CRNs end with both): the one place a CRN is minted. */
  crn(resource: R, id: string, name?: string): string;
}
