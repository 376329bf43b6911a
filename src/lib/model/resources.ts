/**
 * The format of a service's resource facts: what the API says of each
 * resource a service keeps (the shape it is shown in, the roles of its
 * fields, the type its CRNs carry, the states each long-running action
 * passes through and ends in, and how a delete ends). Each service's facts
 * are data in `services/<topic>/resources.ts`, reviewed against the model's
 * enums and waiters by a test (test/unit/model/resource-facts.test.ts); the
 * emulator serves its resources from them (its engine adds only emulated
 * minutes). They stay out of the CLI half (`services/<topic>/index.ts`), so
 * the CLI's start-up never loads them. This file imports nothing.
 */

/** One long-running action of a resource, as the API's status enum and descriptions say it. */
export interface ActionFacts {
  /** The states it passes through, in the order a client polling it sees them (from the status enum). */
  readonly through: readonly string[];
  /** The state success ends in; left out: the one it began in. */
  readonly success?: string;
  /** The state failure ends in; left out: it cannot fail. */
  readonly failure?: string;
  /** The states it may begin in; left out: any. */
  readonly from?: readonly string[];
  /**
   * It takes effect when asked: a client polling sees its end at once, never
   * the states `through` names (Replication Manager's policies, whose status
   * is read off their jobs).
   */
  readonly atOnce?: true;
  /** The name of the operation record it makes, as getOperation-style calls show it (`PROVISION`). */
  readonly operation?: string;
}

/**
 * How a resource's delete ends, per the API: `gone`, its describe answers
 * NOT_FOUND once the delete's states are over; `kept`, it stays visible in
 * a terminal status and frees its name.
 */
export type DeletionEnd =
  | { readonly ends: 'gone' }
  | {
      readonly ends: 'kept';
      /** The terminal status a deleted record shows (the delete's success state: `DELETED`, `ClusterDeletionCompleted`). */
      readonly status: string;
      /** How long it stays visible on the emulator clock (`1h`, `30m`, `7d`); left out: for good. */
      readonly retention?: string;
      /**
       * Whether lists show deleted records: `hiddenWhen` a request flag is
       * true (`removeDeleted`), or `shownWhen` one is (`includeDeleted`);
       * left out: lists show them.
       */
      readonly listed?: { readonly hiddenWhen: string } | { readonly shownWhen: string };
    };

/** The roles of a record's fields that their names do not tell (its name is `instanceName`, its status `state`). */
export interface FieldRoles {
  readonly id?: string;
  readonly name?: string;
  readonly crn?: string;
  readonly status?: string;
  readonly statusReason?: string;
  readonly environmentCrn?: string;
  readonly environmentName?: string;
  readonly created?: string;
  readonly creator?: string;
}

/** What the API says of one resource of a service. */
export interface ResourceFacts {
  /** The shape describe and list show it in. */
  readonly shape: string;
  /** The roles of its fields that their names do not tell. */
  readonly fields?: FieldRoles;
  /** The resource type its CRNs carry: crn:cdp:<service>:<region>:<account>:<crnType>:<id>; default its key as it is (`proxyConfig`). */
  readonly crnType?: string;
  /**
   * The CRN types of what its actions make beside it that no resource of
   * the service describes (drscp's deleteBackup answers the CRN of its
   * delete request, `deleteBackupRequest`).
   */
  readonly alsoMints?: readonly string[];
  /** Its CRN ends with its id itself (`cluster:liftie-6gqzwzb4`); default a UUID (its id, or one made from it). */
  readonly crnUsesId?: true;
  /** Its long-running actions, by name (create, delete, start, stop...); left out: it has no status that changes. */
  readonly lifecycle?: Readonly<Record<string, ActionFacts>>;
  /** How its delete ends; default `gone`. */
  readonly deleted?: DeletionEnd;
  /**
   * The operations beside its own delete (`delete<Key>`) that end it or what
   * it holds, by what each ends: `itself`, as `deleted` says (a delete not
   * named for it, datahub's bulk `deleteRecipes`; a second one, Replication
   * Manager's `deleteHbasePolicy`); or `held`, something it holds, gone at
   * once from what shows it while it stays (a group's member, a service's
   * access grant, a workspace's instance group). Where it has no delete named
   * for it, the first that ends `itself` is its delete. The deletion table has
   * a row for each; test/e2e/deletion-ends.test.ts drives each, or says why not.
   */
  readonly deletedBy?: Readonly<Record<string, 'itself' | 'held'>>;
  /**
   * Its string fields whose API descriptions list fixed values (or whose
   * values real clients compare with), each with every value it may hold,
   * in the API's exact case: `{ artifactType: ['flow', 'readyFlow'] }`.
   * Enum-typed fields need no entry: the wire model holds their values.
   */
  readonly values?: Readonly<Record<string, readonly string[]>>;
}

/** A service's resources, by the name the emulator's declarations use for each. */
export interface ServiceResources<R extends string = string> {
  readonly resources: { readonly [key in R]: ResourceFacts };
}

/** The names of a service's resources, from its facts: `ResourceName<typeof resources>`. */
export type ResourceName<F extends ServiceResources> = keyof F['resources'] & string;
