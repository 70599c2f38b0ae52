// What unique attributes add to an entity's writes. Every put and delete of such an entity, and
// every update of a unique value, is a transaction: the item's write at transaction price (its
// table write twice), a guard item written or deleted per value that changes (also twice), and
// except for a create a strongly consistent read of the item first (billed on the whole item,
// whatever it projects).
import { EntitySizes } from './cost-sizes';
import { writeCost, WriteKind } from './cost-writes';
import { GUARD_OWNER_ATTRIBUTE, guardMark } from '../keys/unique-guard';
import { indexKeyBytes, readUnits, writeUnits } from '../manifest/sizes';
import { AttributeKind } from '../model/manifest';
import { EntityModel, TABLE_INDEX, TableModel } from '../model/model';

/** One write of an entity with unique attributes, as the transaction it is. */
export interface UniqueWriteCost {
  /** The entity. */
  readonly entity: string;
  /** The write: `create`, `put (upsert or replace)`, `update <attribute>` or `delete`. */
  readonly write: string;
  /** Read units of the consistent read before the write (0 for a create). */
  readonly readUnits: number;
  /** Write units of the item's own write inside the transaction. */
  readonly itemUnits: number;
  /** Guard items written or deleted, at most (every unique value changing). */
  readonly guardWrites: number;
  /** Write units of those guard writes inside the transaction. */
  readonly guardUnits: number;
  /** Write units of the whole transaction. */
  readonly totalWriteUnits: number;
}

/** Typical bytes of the guard item of one unique attribute: its key, type and owner's key. */
export function guardItemBytes(model: TableModel, entity: EntityModel, attribute: string): number {
  const table = model.indexes[TABLE_INDEX];
  const mark = guardMark(model.escapeChar).length;
  const attr = entity.attributes[attribute];
  const value = attr.type === AttributeKind.NUMBER ? 12 : attr.typicalSizeBytes;
  const pk = mark + entity.typeValue.length + attribute.length + value + 3 + scopeBytes(entity, attribute);
  // The owner map: 3 bytes, 1 per entry, and the owner's table key attributes.
  const owner = GUARD_OWNER_ATTRIBUTE.length + 3 + 2 + indexKeyBytes(entity, table);
  return table.partitionKey.length + pk + table.sortKey!.length + mark + model.typeAttribute.length + mark + owner;
}

/** Typical bytes of a scoped attribute's guard key prefix: the literals before the scope, its value and a delimiter after each. */
function scopeBytes(entity: EntityModel, attribute: string): number {
  const scope = entity.uniqueScope?.[attribute];
  if (scope === undefined) return 0;
  const segments = entity.keys[TABLE_INDEX].pk.segments;
  const before = segments.slice(0, segments.findIndex((s) => s.attribute === scope));
  return before.reduce((sum, s) => sum + s.literal!.length + 1, 0) + entity.attributes[scope].typicalSizeBytes + 1;
}

/** The transactions of every entity with unique attributes, in entity order. */
export function uniqueWriteCosts(model: TableModel, sizes: EntitySizes[]): UniqueWriteCost[] {
  return sizes.flatMap((s) => {
    const entity = model.entities[s.entity];
    const unique = entity.unique ?? [];
    if (unique.length === 0) return [];
    const guardUnits = (attribute: string) => 2 * writeUnits(guardItemBytes(model, entity, attribute));
    const read = readUnits(s.itemBytes, true);
    const item = (kind: WriteKind, attrs: string[] = []) => writeCost(model, s, kind, attrs).transactionUnits;
    const row = (write: string, readUnitsBefore: number, itemUnits: number, guards: string[]): UniqueWriteCost => {
      const units = guards.reduce((sum, g) => sum + guardUnits(g), 0);
      const totalWriteUnits = itemUnits + units;
      return { entity: s.entity, write, readUnits: readUnitsBefore, itemUnits, guardWrites: guards.length, guardUnits: units, totalWriteUnits };
    };
    return [
      row('create', 0, item(WriteKind.PUT), unique),
      row('put (upsert or replace)', read, item(WriteKind.PUT), [...unique, ...unique]),
      ...unique.map((u) => row(`update ${u}`, read, item(WriteKind.UPDATE, [u]), [u, u])),
      row('delete', read, item(WriteKind.DELETE), unique),
    ];
  });
}
