// The options of an update (removals, readMissing) and its operators: types only, so the table's
// maintained-write hooks (table/context.ts) can name them without reaching the update's code.

/** Options of an update. */
export interface UntypedUpdateItemOptions {
  /** Optional attributes to remove. @default - none */
  readonly remove?: readonly string[];
  /**
   * When the update changes some inputs of an index's keys but not all, read the others from the
   * stored item (a consistent GetItem of just those attributes) and update on the condition that
   * they still hold the values read; when another writer changed them in between, read and try
   * again, up to READ_MISSING_ATTEMPTS times. Without it such an update fails with
   * PARTIAL_INDEX_UPDATE naming every missing attribute.
   * @default false
   */
  readonly readMissing?: boolean;
}

/**
 * Update operators beside setting and removing, by attribute. None may touch an attribute a key is
 * composed from: the new value is computed by DynamoDB, so the index keys could not be.
 */
export interface UpdateOperators {
  /** NUMBER: add the number (negative to subtract); STRING_SET / NUMBER_SET: add the members. @default - none */
  readonly add?: Readonly<Record<string, unknown>>;
  /** LIST: append the elements (an absent list starts empty). @default - none */
  readonly append?: Readonly<Record<string, unknown>>;
  /** LIST: prepend the elements (an absent list starts empty). @default - none */
  readonly prepend?: Readonly<Record<string, unknown>>;
  /** STRING_SET / NUMBER_SET: delete the members (a set left empty is removed). @default - none */
  readonly deleteFromSet?: Readonly<Record<string, unknown>>;
  /** Set the value only where the item has none (if_not_exists). @default - none */
  readonly setIfMissing?: Readonly<Record<string, unknown>>;
}
