// What a generated access module (`single-table generate`, lib/codegen/access.ts) holds of the
// model: the table's key facts, and per entity and pattern only what its functions read, with
// each attribute's kind as the runtime object that checks and encodes it. A function carries its
// own slice and kinds, so a bundle holds the model and the code of the functions it calls only.
import { composerWith, Composer } from '../../keys/template';
import type { TableModel } from '../../manifest/model';
import type { SingleTableManifest } from '../../manifest/structs';
import type { TableContext } from '../context';
import { ClientOptions, connect } from '../context';
import type { AttributeSlot } from '../values';

/** The table-wide facts of a model that generated functions read. */
export type AccessModel = Pick<TableModel, 'fingerprint' | 'delimiter' | 'escapeChar' | 'typeAttribute' | 'keyAttributes' | 'localIndexesEnabled'>;

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

/** One key of an index slot: the key attribute and its template, e.g. `['GSI1PK', 'ORDER#{orderId}']`. */
export type KeyAccess = readonly [attribute: string, template: string];

/** An entity's keys on one index slot. */
export interface SlotAccess {
  /** The index name: `table` (always first), a GSI or an LSI slot. */
  readonly index: string;
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

/**
 * A key template compiled with the kinds of the attributes it reads. Segments are whole literals
 * or whole `{attribute}` placeholders (the manifest's rules), so splitting at the delimiter parses it.
 */
export function templateComposer(model: AccessModel, template: string, attributes: readonly AttributeSlot[]): Composer {
  return composerWith(template.split(model.delimiter).map((part) => {
    if (part[0] !== '{') return { literal: part };
    const attribute = part.slice(1, -1);
    return { attribute, encode: attributes.find((a) => a.name === attribute)!.kind.segment };
  }), model.delimiter, model.escapeChar);
}
