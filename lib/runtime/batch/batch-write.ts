// BatchWriteItem: puts and deletes of any entities, validated before anything is sent.
import type { AttributeValue, WriteRequest } from '@aws-sdk/client-dynamodb';
import { BatchEntry, batchWriteItems, keyId } from './send-batches';
import { TABLE_INDEX } from '../../model/model';
import { tableKeyNames } from '../attributes/item-keys';
import { entityOf, valuesText } from '../attributes/values';
import { collectionsOf } from '../items/item-collections';
import { itemToWrite, keyFromInput } from '../items/requests';
import { maintainedFor, Table } from '../table/context';
import { SingleTableError } from '../table/errors';
import type { BatchWriteRequest } from '../types';

/** Writes many puts and deletes; a request DynamoDB never processes fails the call with UnprocessedError naming it. */
export async function batchWrite<M>(table: Table<M>, requests: readonly BatchWriteRequest<M>[]): Promise<void> {
  const { model, tableName } = table;
  const { partitionKey: pk, sortKey } = model.indexes[TABLE_INDEX];
  const writeId = (w: WriteRequest) => keyId((w.PutRequest?.Item ?? w.DeleteRequest?.Key) as Record<string, AttributeValue>, pk, sortKey!);
  const entries: BatchEntry<WriteRequest, BatchWriteRequest<M>>[] = [];
  const seen = new Set<string>();
  for (const r of requests) {
    const entity = entityOf(model, r.entity);
    if (r.type !== 'put' && r.type !== 'delete') {
      throw new SingleTableError('INVALID_VALUE', `a batch write has type ${JSON.stringify((r as { type: unknown }).type)}; use 'put' or 'delete'`, { entity: entity.name });
    }
    if (entity.version !== undefined) {
      throw new SingleTableError('INVALID_VALUE', 'is versioned, and BatchWriteItem takes no condition, so it could overwrite a version it did not read: write it with putItem, updateItem or deleteItem', { entity: entity.name });
    }
    const maintained = maintainedFor(table, entity.name);
    if (entity.unique) {
      throw new SingleTableError('UNIQUE_NEEDS_TRANSACTION', `has unique ${entity.unique}, whose guard items BatchWriteItem cannot write with the item (it takes `
        + 'no transaction): write it with putItem or deleteItem, or several at once with transactWrite', { entity: entity.name });
    }
    const request: WriteRequest = r.type === 'put'
      ? { PutRequest: { Item: itemToWrite(model, entity, maintained?.stamp(entity, r.item) ?? r.item) } }
      : { DeleteRequest: { Key: keyFromInput(model, entity, r.key) } };
    const id = writeId(request);
    if (seen.has(id)) {
      const key = valuesText(r.type === 'put' ? r.item : r.key, tableKeyNames(entity));
      throw new SingleTableError('DUPLICATE_BATCH_KEY', `writes the item ${key} twice in one batch; DynamoDB rejects that, keep one request per item`, { entity: r.entity });
    }
    seen.add(id);
    entries.push({ id, request, source: r });
  }
  await batchWriteItems(table.dynamodb, tableName, entries, writeId, table.options.retry ?? {}, collectionsOf(table));
}
