// What a generated access module (`single-table generate --access`, lib/model/access-module.ts)
// holds of the model: the table's key facts, and per entity and pattern only what its functions
// read: each attribute's kind as the runtime object that checks it, each key template as its
// literal text around one encoder per placeholder. A function carries its own slice, so a bundle
// holds the model and the code of the functions it calls only.
import { composeParts, partsSource, TemplateParts } from '../../keys/template';
import type { TableModel } from '../../manifest/model';
import type { SingleTableManifest } from '../../manifest/structs';
import { checkSize, requiredKey } from '../keys/item-keys';
import type { AttributeSlot } from '../keys/values';
import type { TableContext } from '../table/context';
import { ClientOptions, connect } from '../table/context';

/** The table-wide facts of a model that generated functions read; `localIndexesEnabled` only where it is true. */
export type AccessModel = Pick<TableModel, 'fingerprint' | 'delimiter' | 'escapeChar' | 'typeAttribute' | 'keyAttributes'> & Partial<Pick<TableModel, 'localIndexesEnabled'>>;

/** A table opened by a generated access module (see `openAccess`). */
export interface AccessTable<M = SingleTableManifest> extends Omit<TableContext<M>, 'model'> {
  /** The table-wide facts of the model. */
  readonly model: AccessModel;
}

/**
 * Opens the table of a generated access module: the table name, the SDK client, and the check
 * that the table was deployed from the manifest the module was generated from (its fingerprint
 * against the stack's SINGLE_TABLE_FINGERPRINT). Generated modules call it; handlers call theirs.
 */
export function openAccess<M>(model: AccessModel, options: ClientOptions = {}): AccessTable<M> {
  return { model, ...connect(model.fingerprint, options), strip: new Set([...model.keyAttributes, model.typeAttribute]) };
}

/** One key of an index slot: the key attribute and its template's parts, e.g. `['PK', ['CUSTOMER#', 'username', stringSegment, '']]`. */
export type KeyAccess = readonly [attribute: string, template: TemplateParts];

/** An entity's keys on one index slot. */
export interface SlotAccess {
  /** The partition key; none on an LSI, which shares the table's. */
  readonly pk?: KeyAccess;
  /** The sort key. @default - the index has none */
  readonly sk?: KeyAccess;
  /** A write-sharded partition key: its key with the item's shard suffix (see shardedBy). @default - not sharded */
  readonly shard?: (
    model: AccessModel, entity: EntityAccess, item: Readonly<Record<string, unknown>>, tableKey: { pk: string; sk: string }, key: string,
  ) => string;
}

/** What an entity's generated functions read of it. */
export interface EntityAccess {
  readonly name: string;
  /** Its type attribute's value. */
  readonly typeValue: string;
  /** Its attributes in declaration order. */
  readonly attributes: readonly AttributeSlot[];
  /** Its key slots, the table's first. */
  readonly slots: readonly SlotAccess[];
}

/** The attributes of the table key, in template order. */
export function tableKeyNames(entity: EntityAccess): string[] {
  const { pk, sk } = entity.slots[0];
  return [...new Set([...pk![1], ...sk![1]].filter((_, i, all) => typeof all[i + 1] === 'function'))] as string[];
}

/** A table key composed from values; throws MISSING_ATTRIBUTE, INVALID_VALUE or KEY_TOO_LARGE naming the key and its template. */
export function tableKeyValue(
  model: AccessModel, entity: EntityAccess, key: KeyAccess, values: Readonly<Record<string, unknown>>, limit: number,
  r = composeParts(key[1], values, model.escapeChar),
): string {
  return typeof r === 'string' ? checkSize(entity, key[0], r, limit) : requiredKey(entity, { source: partsSource(key[1]) }, r, key[0], limit);
}
