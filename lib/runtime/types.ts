// The client's TypeScript surface, inferred from a `defineManifest` literal: item types per
// entity, table keys from the key templates, pattern inputs, tagged results, and no `consistent`
// option on patterns that query a GSI.
import type { Where } from './expressions/where';
import type { PutMode } from './items/requests';
import type { UntypedUpdateItemOptions } from './items/update-options';
import type { PagingOptions } from './query/pages';
import type { UntypedQueryOptions } from './query/plan';
import type { EntityName, ItemOf, LiteralOf, PatternEntities, PatternName, Placeholders, ResultItemOf, TaggedItem } from '../model/infer';

type EntityDef<M, E extends EntityName<M>> = LiteralOf<M> extends { readonly entities: infer X } ? X[E & keyof X] : never;
type TemplateAttributes<D> =
  | Placeholders<D extends { readonly pk: infer P } ? P : never>
  | Placeholders<D extends { readonly sk: infer S } ? S : never>;

/** The table key attributes of an entity: what `get`, `delete` and `update` identify an item by. */
export type KeyOf<M, E extends EntityName<M>> = Pick<ItemOf<M, E>, Extract<TemplateAttributes<EntityDef<M, E>>, keyof ItemOf<M, E>>>;

type NamesWhere<Item, V> = { [K in keyof Item]-?: NonNullable<Item[K]> extends V ? K : never }[keyof Item];

/** Update operators typed by the item: each takes only attributes of the kinds it fits. */
export interface UpdateOperatorsOf<Item> {
  /** Numbers: add (negative to subtract); sets: add the members. */
  readonly add?: { readonly [K in NamesWhere<Item, number | Set<unknown>>]?: NonNullable<Item[K]> };
  /** Lists: append the elements. */
  readonly append?: { readonly [K in NamesWhere<Item, readonly unknown[]>]?: NonNullable<Item[K]> };
  /** Lists: prepend the elements. */
  readonly prepend?: { readonly [K in NamesWhere<Item, readonly unknown[]>]?: NonNullable<Item[K]> };
  /** Sets: delete the members. */
  readonly deleteFromSet?: { readonly [K in NamesWhere<Item, Set<unknown>>]?: NonNullable<Item[K]> };
  /** Any attribute: set it only where the item has none. */
  readonly setIfMissing?: Partial<Item>;
}

/** Options of `updateItem`: removals, operators, `readMissing`, and the caller's condition (made with `where`). */
export type UpdateItemOptions<M, E extends EntityName<M>> = {
  readonly remove?: readonly OptionalAttributeOf<M, E>[];
  readonly condition?: Where<ItemOf<M, E>>;
} & Pick<UntypedUpdateItemOptions, 'readMissing'> & UpdateOperatorsOf<ItemOf<M, E>>;

/** Attributes of an entity that may be removed (the optional ones). */
export type OptionalAttributeOf<M, E extends EntityName<M>> = {
  [K in keyof ItemOf<M, E>]-?: {} extends Pick<ItemOf<M, E>, K> ? K : never;
}[keyof ItemOf<M, E>];

type PatternIndexOf<M, P> = LiteralOf<M> extends { readonly accessPatterns?: infer AP }
  ? NonNullable<AP>[P & keyof NonNullable<AP>] extends { readonly index: infer I extends string } ? I : 'table'
  : 'table';
type OnGsi<I> = I extends 'table' ? false : I extends `LSI${number}` ? false : true;
/** Strong consistency only where the pattern's index allows it. */
type ConsistentOption<M, P> = OnGsi<PatternIndexOf<M, P>> extends true ? { readonly consistent?: false } : { readonly consistent?: boolean };

/** Attribute names of one or more entities. */
export type AttributeNameOf<M, E extends EntityName<M>> = E extends EntityName<M> ? Extract<keyof ItemOf<M, E>, string> : never;

/** A tagged result holding only the attributes `A` (every attribute when `A` is never, or any name). */
export type SelectedItem<M, E extends EntityName<M>, A extends string = never> = [A] extends [never]
  ? TaggedItem<M, E>
  : string extends A ? TaggedItem<M, E>
    : E extends EntityName<M> ? { readonly entity: E; readonly item: Pick<ResultItemOf<M, E>, A & keyof ResultItemOf<M, E>> } : never;

type ValueIn<M, E extends EntityName<M>, K> = E extends EntityName<M> ? (K extends keyof ItemOf<M, E> ? ItemOf<M, E>[K] : never) : never;

/** The attributes a filter over entities `E` may name: each attribute of any of them, with its type. */
export type FilterItem<M, E extends EntityName<M>> = { [K in AttributeNameOf<M, E>]?: ValueIn<M, E, K> };

/** Options of a read that filters (`filter`, a Condition over the entities' attributes) or projects (`attributes`). */
export type ReadOptions<M, E extends EntityName<M>, A extends string> = {
  /**
   * Keeps only the items the condition (made with `where`) holds for. DynamoDB applies it after reading: `limit`
   * counts the items read, so a page can hold fewer than `limit` (or none) and still have a cursor.
   * @default - no filter
   */
  readonly filter?: Where<FilterItem<M, E>>;
  /**
   * The only attributes results hold (the entity tag is always there). Attributes the index
   * projects or holds in its keys are read without fetching the item.
   * @default - every attribute the pattern returns
   */
  readonly attributes?: readonly A[];
};

/** Options of `query`: the pattern's query options, its read options (`filter`, `attributes`) and paging (`pages`). */
export type QueryOptions<M, P extends PatternName<M>, A extends string = string> =
  Omit<UntypedQueryOptions, 'consistent'> & ConsistentOption<M, P> & ReadOptions<M, PatternEntities<M, P>, A> & Pick<PagingOptions, 'pages'>;

/** A key to read in a batch. */
export type BatchGetRequest<M> = { [E in EntityName<M>]: { readonly entity: E; readonly key: KeyOf<M, E> } }[EntityName<M>];

/** A put or delete in a batch. */
export type BatchWriteRequest<M> = {
  [E in EntityName<M>]: { readonly type: 'put'; readonly entity: E; readonly item: ItemOf<M, E> } | { readonly type: 'delete'; readonly entity: E; readonly key: KeyOf<M, E> };
}[EntityName<M>];

/**
 * The condition of a transaction action, made with `where`. TypeScript cannot tell `where` which
 * of the actions' entities it is for, so it types the condition loosely (`where<ItemOf<M, 'Order'>>(...)`
 * types it); the runtime checks it against the action's entity before anything is sent.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ActionCondition = Where<Record<string, any>>;

/** One action of `transactWrite`. */
export type TransactWriteAction<M> = {
  [E in EntityName<M>]:
  | {
    /** Writes a whole item: `upsert` (default), `create` (fails if it exists) or `replace` (fails if it does not). */
    readonly type: 'put';
    readonly entity: E;
    readonly item: ItemOf<M, E>;
    readonly mode?: PutMode;
    /** A condition on the item as stored before the write, made with `where`. */
    readonly condition?: ActionCondition;
  }
  | ({
    /**
     * Sets `changes`, removes `remove`, applies the operators (`add`, `append`, `prepend`,
     * `deleteFromSet`, `setIfMissing`) as updateItem does, recomputes the index keys they move
     * (every input of a moved index key must be given).
     */
    readonly type: 'update';
    readonly entity: E;
    readonly changes: KeyOf<M, E> & Partial<ItemOf<M, E>>;
    readonly remove?: readonly OptionalAttributeOf<M, E>[];
    /** A condition on the item as stored before the write, made with `where`. */
    readonly condition?: ActionCondition;
  } & UpdateOperatorsOf<ItemOf<M, E>>)
  | {
    /** Deletes an item; with `mustExist` a missing item cancels the transaction. */
    readonly type: 'delete';
    readonly entity: E;
    readonly key: KeyOf<M, E>;
    readonly mustExist?: boolean;
    /** A versioned entity: the version the caller read; at another version the transaction is cancelled. */
    readonly version?: number;
    /** A condition on the item as stored before the delete, made with `where`. */
    readonly condition?: ActionCondition;
  }
  | {
    /** Cancels the transaction unless `condition` holds for the item (a missing item has no attributes). */
    readonly type: 'conditionCheck'; readonly entity: E; readonly key: KeyOf<M, E>; readonly condition: ActionCondition;
  };
}[EntityName<M>];
