// What applying a fix costs in write units, by the cost model's rules (lib/reports/cost-writes.ts)
// applied to the real item: the table write is 1 unit per KB of the larger of the item before and
// after, and each index slot whose entry the fix inserts, moves, removes or rewrites costs the
// model's index writes times the units of that entry. A dry run sums these.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { ItemFix } from './plan';
import { writeUnits } from '../manifest/sizes';
import { ProjectionKind } from '../model/manifest';
import { attributeKeyNames, IndexModel, IndexType, TABLE_INDEX, TableModel } from '../model/model';
import { IndexEffect, indexWrites } from '../reports/cost-writes';
import { attributeBytes } from '../reports/item-size';
import { fromAttributeValue } from '../runtime/attributes/marshall';

type Item = Record<string, AttributeValue>;

/** Write units the fix of `item` costs on the table and every index of `model`. */
export function fixWriteUnits(model: TableModel, item: Item, fix: Extract<ItemFix, { kind: 'STALE' }>): number {
  const after: Item = { ...item, ...fix.set };
  for (const attr of fix.remove) delete after[attr];
  const sizes = new Map<string, number>();
  const bytes = (name: string, av: AttributeValue | undefined) => {
    if (av === undefined) return 0;
    let size = sizes.get(name + '\u0000' + JSON.stringify(av));
    if (size === undefined) sizes.set(name + '\u0000' + JSON.stringify(av), size = attributeBytes(name, fromAttributeValue(av)) ?? 0);
    return size;
  };
  const itemBytes = (it: Item) => storedItemBytes(it, bytes);
  const afterBytes = itemBytes(after);
  let units = writeUnits(Math.max(itemBytes(item), afterBytes));
  const table = model.indexes[TABLE_INDEX];
  for (const index of Object.values(model.indexes)) {
    if (index.type === IndexType.TABLE) continue;
    const effect = effectOf(index, item, after, fix);
    if (effect === IndexEffect.UNTOUCHED) continue;
    const entry = effect === IndexEffect.REMOVE ? item : after;
    const entryBytes = index.projection === ProjectionKind.ALL
      ? itemBytes(entry)
      : [table.partitionKey, table.sortKey!, ...keyNames(index), ...index.nonKeyAttributes].reduce((sum, name) => sum + bytes(name, entry[name]), 0);
    units += indexWrites(effect) * writeUnits(entryBytes);
  }
  return units;
}

/** Bytes DynamoDB counts for a stored item: each attribute's name and value (`bytes` may memoize them). */
export function storedItemBytes(item: Item, bytes = (name: string, av: AttributeValue) => attributeBytes(name, fromAttributeValue(av)) ?? 0): number {
  return Object.entries(item).reduce((sum, [name, av]) => sum + bytes(name, av), 0);
}

function keyNames(index: IndexModel): string[] {
  if (index.partitionAttributes) return attributeKeyNames(index);
  // An LSI's partition key is the table's, counted with the table key.
  return [...(index.type === IndexType.LSI ? [] : [index.partitionKey]), ...(index.sortKey ? [index.sortKey] : [])];
}

/** An item is in an index when it holds every key attribute of it. */
function effectOf(index: IndexModel, before: Item, after: Item, fix: Extract<ItemFix, { kind: 'STALE' }>): IndexEffect {
  const keys = index.type === IndexType.LSI ? [index.sortKey!] : keyNames(index);
  const inBefore = keys.every((k) => before[k] !== undefined);
  const inAfter = keys.every((k) => after[k] !== undefined);
  if (!inBefore) return inAfter ? IndexEffect.INSERT : IndexEffect.UNTOUCHED;
  if (!inAfter) return IndexEffect.REMOVE;
  if (keys.some((k) => k in fix.set)) return IndexEffect.KEY_CHANGE;
  const projected = index.projection === ProjectionKind.ALL
    ? [...Object.keys(fix.set), ...fix.remove]
    : [...Object.keys(fix.set), ...fix.remove].filter((name) => index.nonKeyAttributes.includes(name));
  return projected.length > 0 ? IndexEffect.PROJECTED_UPDATE : IndexEffect.UNTOUCHED;
}
