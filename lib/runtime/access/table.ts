// What a generated access module (`single-table generate --access`, lib/generate/access-module.ts)
// holds of the model: the table's key facts, and per entity and pattern only what its functions
// read: each attribute's kind as the runtime object that checks it, each key template as its
// literal text around one encoder per placeholder. A function carries its own slice, so a bundle
// holds the model and the code of the functions it calls only. The table it opens is also the
// runtime's: an operation of `cdk-single-table/runtime` that reads the whole model (updateItem,
// scan, ...) loads it then, once, from the deployed model file or the `model` option.
import { composeParts, partsSource, TemplateParts } from '../../keys/template';
import { MODEL_PATH_ENV } from '../../model/environment';
import type { SingleTableManifest } from '../../model/manifest';
import type { TableModel } from '../../model/model';
import { checkSize, requiredKey } from '../attributes/item-keys';
import type { AttributeSlot } from '../attributes/values';
import type { TableContext } from '../table/context';
import { OpenTableOptions, connect } from '../table/context';
import { SingleTableError } from '../table/errors';
import { deployedModel, loadModel } from '../table/load-model';

/** The table-wide facts of a model that generated functions read; `localIndexesEnabled` only where it is true. */
export type AccessModel = Pick<TableModel, 'fingerprint' | 'delimiter' | 'escapeChar' | 'typeAttribute' | 'keyAttributes'> & Partial<Pick<TableModel, 'localIndexesEnabled'>>;

/**
 * A table opened by a generated access module (see `openAccess`): the runtime's table, whose
 * generated functions read `access`, and whose whole `model` is read only by the runtime's
 * operations, when they first ask for it.
 */
export interface AccessTable<M = SingleTableManifest> extends TableContext<M> {
  /** The table-wide facts of the model the generated functions read. */
  readonly access: AccessModel;
}

/**
 * Opens the table of a generated access module: the table name, the SDK client, and the check
 * that the table was deployed from the manifest the module was generated from (its fingerprint
 * against the stack's SINGLE_TABLE_FINGERPRINT). Generated modules call it; handlers call theirs.
 */
export function openAccess<M>(access: AccessModel, options: OpenTableOptions = {}): AccessTable<M> {
  let model: TableModel | undefined;
  return {
    access,
    ...connect(access.fingerprint, options),
    strip: new Set([...access.keyAttributes, access.typeAttribute]),
    maintained: options.maintainedWrites,
    get model() {
      return (model ??= wholeModel(access, options));
    },
  };
}

/**
 * The whole model, for the runtime's operations: the one the stack deployed (SINGLE_TABLE_MODEL), or
 * the `model` option. Throws MANIFEST_MISMATCH when it was compiled from another manifest than the module.
 */
function wholeModel(access: AccessModel, options: OpenTableOptions): TableModel {
  const model = options.model === undefined ? deployedModel() : loadModel(options.model);
  if (model.fingerprint !== access.fingerprint) {
    const source = options.model === undefined ? `the model the stack deployed (${MODEL_PATH_ENV})` : 'the `model` option';
    throw new SingleTableError('MANIFEST_MISMATCH', `this access module was generated from manifest ${access.fingerprint}, ${source} was compiled from manifest ${
      model.fingerprint}; generate both from the same manifest (\`single-table generate --access\`)`);
  }
  return model;
}

/** One key of an index slot: the key attribute and its template's parts, e.g. `['PK', ['CUSTOMER#', 'username', stringSegment, '']]`. */
export type KeyAccess = readonly [attribute: string, template: TemplateParts];

/** An entity's keys on one index slot. */
export interface SlotAccess {
  /** The partition key; none on an LSI, which shares the table's. */
  readonly pk?: KeyAccess;
  /** The sort key. @default - the index has none */
  readonly sk?: KeyAccess;
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
