// Every index as a table of entries, the way NoSQL Workbench's aggregate view shows them: the
// sample items an index holds (an item without the index's key attributes is not in it: sparse),
// grouped by partition key value and sorted by sort key as DynamoDB sorts them (UTF-8 bytes), each
// with the attributes the index projects.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { StoredItem } from './samples';
import { ProjectionKind } from '../../model/manifest';
import { IndexModel, IndexType, populatesIndex, TABLE_INDEX, TableModel, writtenKeyAttributes } from '../../model/model';
import { fromAttributeValue } from '../../runtime/attributes/marshall';
import { compareUtf8 } from '../../runtime/query/fanout-order';
import { projectionText } from '../describe';

/** One entry of an index: the item's keys on it and the attributes it projects. */
export interface IndexEntry {
  readonly entity: string;
  /** The index's partition key value. */
  readonly pk: string;
  /** The index's sort key value. @default - the index has no sort key */
  readonly sk?: string;
  /** Projected attributes other than the index's own keys, in item order. */
  readonly attributes: readonly EntryAttribute[];
  /** The item as stored, for evaluating key conditions. */
  readonly item: StoredItem;
}

/** One projected attribute as display text. */
export interface EntryAttribute {
  readonly name: string;
  readonly value: string;
  /** A key attribute of some index, or the type attribute: written by the library, not the caller. */
  readonly managed: boolean;
}

/** The entries of one partition key value, in sort-key order. */
export interface IndexPartition {
  readonly pk: string;
  readonly entries: readonly IndexEntry[];
}

/** One index with its entries. */
export interface IndexTable {
  readonly index: IndexModel;
  /** `whole item`, `ALL`, `KEYS_ONLY` or `INCLUDE (...)`. */
  readonly projection: string;
  /** Entities whose templates populate the index. */
  readonly entities: readonly string[];
  readonly partitions: readonly IndexPartition[];
}

/** Every index slot of the model (the table first), each with the entries the samples give it. */
export function indexTables(model: TableModel, items: readonly StoredItem[]): IndexTable[] {
  return Object.values(model.indexes).map((index) => {
    const entries = items.filter((i) => inIndex(index, i)).map((i) => entryOf(model, index, i));
    return {
      index,
      projection: projectionText(index),
      entities: Object.values(model.entities).filter((e) => populatesIndex(e, index)).map((e) => e.name),
      partitions: partitionsOf(entries),
    };
  });
}

/** An item is in an index when it holds the index's key attributes (the runtime leaves them out otherwise). */
export function inIndex(index: IndexModel, item: StoredItem): boolean {
  return item.attributes[index.partitionKey] !== undefined && (!index.sortKey || item.attributes[index.sortKey] !== undefined);
}

function entryOf(model: TableModel, index: IndexModel, item: StoredItem): IndexEntry {
  const table = model.indexes[TABLE_INDEX];
  const own = new Set([index.partitionKey, index.sortKey]);
  const keys = new Set([table.partitionKey, table.sortKey, index.partitionKey, index.sortKey]);
  const projected = (name: string) => {
    if (index.type === IndexType.TABLE || index.projection === ProjectionKind.ALL || keys.has(name)) return true;
    return index.projection === ProjectionKind.INCLUDE && index.nonKeyAttributes.includes(name);
  };
  const managed = new Set([model.typeAttribute, ...writtenKeyAttributes(model)]);
  const attributes = Object.entries(item.attributes)
    .filter(([name]) => !own.has(name) && projected(name))
    .map(([name, value]) => ({ name, value: displayValue(value), managed: managed.has(name) }));
  return {
    entity: item.entity,
    pk: item.attributes[index.partitionKey].S!,
    sk: index.sortKey ? item.attributes[index.sortKey].S : undefined,
    attributes,
    item,
  };
}

/** Partitions in order of their key, entries by sort key: the order a Query returns them in. */
function partitionsOf(entries: IndexEntry[]): IndexPartition[] {
  const byPk = new Map<string, IndexEntry[]>();
  for (const e of entries) byPk.set(e.pk, [...(byPk.get(e.pk) ?? []), e]);
  return [...byPk.keys()].sort(compareUtf8).map((pk) => ({
    pk,
    entries: byPk.get(pk)!.sort((a, b) => compareUtf8(a.sk ?? '', b.sk ?? '')),
  }));
}

/** A stored value as short text: strings as they are, lists and maps as JSON, sets in braces. */
export function displayValue(value: AttributeValue): string {
  const plain = fromAttributeValue(value);
  if (typeof plain === 'string') return plain;
  if (plain instanceof Set) return `{${[...plain].map((v) => JSON.stringify(v)).join(', ')}}`;
  return JSON.stringify(plain, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Set ? [...v] : v));
}
