// What a generated access module (`single-table generate --access`, lib/generate/access-module.ts)
// holds of the model: the table's key facts, and per entity and pattern only what its functions
// read: each attribute's kind as the runtime object that checks it, each key template as its
// literal text around one encoder per placeholder. A function carries its own slice, so a bundle
// holds the model and the code of the functions it calls only. The table it opens is the runtime's
// `Table`: an operation of `cdk-single-table/runtime` that reads the whole model (updateItem, scan,
// ...) loads it then, once, from the deployed model file or the `model` option. A generated
// function takes any open table, and first checks that its model is the module's.
import { composeParts, partsSource, TemplateParts } from '../../keys/template';
import { MODEL_PATH_ENV } from '../../model/environment';
import type { TableModel } from '../../model/model';
import { checkSize, requiredKey } from '../attributes/item-keys';
import type { AttributeSlot } from '../attributes/values';
import { AccessModel, connect, OpenTableOptions, Table } from '../table/context';
import { SingleTableError } from '../table/errors';
import { deployedModel, loadModel } from '../table/load-model';

/**
 * Opens the table of a generated access module: the table name, the SDK client, and the check
 * that the table was deployed from the manifest the module was generated from (its fingerprint
 * against the stack's SINGLE_TABLE_FINGERPRINT). Its `access` is the module's, its whole `model`
 * is read only by the runtime's operations, when they first ask for it. Generated modules call
 * it; handlers call theirs.
 */
export function openAccess<M>(access: AccessModel, options: OpenTableOptions<unknown> = {}): Table<M> {
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
function wholeModel(access: AccessModel, options: OpenTableOptions<unknown>): TableModel {
  const model = options.model === undefined ? deployedModel() : loadModel(options.model);
  checkModuleTable({ access: model }, access.fingerprint, options.model === undefined ? `the model the stack deployed (${MODEL_PATH_ENV})` : 'the `model` option');
  return model;
}

/**
 * Checks, before a generated function reads the table or sends anything, that the table was
 * opened with a model of the manifest its module was generated from (`fingerprint`, the module's
 * FINGERPRINT): a table the runtime's `openTable` opened with another model, or another module's,
 * is refused with MANIFEST_MISMATCH. `what` names the model in the message.
 */
export function checkModuleTable(table: Pick<Table<unknown>, 'access'>, fingerprint: string, what = 'the model the table was opened with'): void {
  const compiled = table.access.fingerprint;
  if (compiled !== fingerprint) {
    throw new SingleTableError('MANIFEST_MISMATCH', `this access module was generated from manifest ${fingerprint}, ${what} was compiled from manifest ${
      compiled}; generate both from the same manifest (\`single-table generate --access\`)`);
  }
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
