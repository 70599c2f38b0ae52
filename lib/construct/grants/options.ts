// What a function may do with a SingleTable: the access patterns it queries, item reads by key,
// and each kind of write, each asked for explicitly. Nothing is granted by default.

/** A kind of item write the runtime performs. */
export enum WriteOperation {
  /** `put`: PutItem. */
  PUT = 'PUT',
  /** `update`: UpdateItem. */
  UPDATE = 'UPDATE',
  /** `delete`: DeleteItem. */
  DELETE = 'DELETE',
  /** `batchWrite`: BatchWriteItem (puts and deletes in batches). */
  BATCH_WRITE = 'BATCH_WRITE',
  /**
   * ConditionCheckItem: the condition checks of a transaction. A transaction needs the action of
   * each item write it holds (PUT, UPDATE, DELETE) and this for its checks; TransactWriteItems
   * itself has no permission of its own.
   */
  CONDITION_CHECK = 'CONDITION_CHECK',
}

/**
 * Restricts a grant to one tenant's items with the `dynamodb:LeadingKeys` condition: every
 * partition key value a request reads or writes must be the tenant's, of a template the request
 * is sent with.
 */
export interface TenantIsolation {
  /**
   * The STRING attribute that holds the tenant id in the partition key templates, e.g. `tenantId`
   * in `TENANT#{tenantId}#ORDER#{orderId}`. Only literal segments may precede it.
   */
  readonly attribute: string;

  /**
   * The tenant id, as the application passes it (it is key-encoded here), or an IAM policy
   * variable such as `${aws:PrincipalTag/tenantId}`, inserted as is: the tag then has to hold the
   * encoded id (ids without control characters, spaces, `!`, `"`, `#` or `$` encode to themselves).
   */
  readonly value: string;
}

/** What a grant on a SingleTable allows. At least one of patterns, readItems, writes and scan. */
export interface SingleTableGrantOptions {
  /**
   * Access patterns the grantee queries: Query on exactly the index each one reads, on the
   * partitions its partition key template composes (`dynamodb:LeadingKeys`), plus BatchGetItem on
   * the table, on its entities' partitions, for patterns whose attributes the index does not
   * project. A template without a literal segment cannot be narrowed: its Query is allowed on
   * the whole index, with a synth warning.
   * @default - no access pattern
   */
  readonly patterns?: string[];

  /**
   * Item reads by key on the table (`get`, `batchGet`, `transactGet`): GetItem and BatchGetItem.
   * @default false
   */
  readonly readItems?: boolean;

  /**
   * Scan of the table (`scan`, by entity or whole): Scan on the table. A scan reads every
   * partition, so it cannot be combined with `tenant`.
   * @default false
   */
  readonly scan?: boolean;

  /**
   * Item writes on the table, each kind named explicitly.
   * @default - no writes
   */
  readonly writes?: WriteOperation[];

  /**
   * Restricts every statement of the grant to one tenant's partition keys.
   * @default - any partition key
   */
  readonly tenant?: TenantIsolation;
}
