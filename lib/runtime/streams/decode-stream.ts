// DynamoDB Streams records back to typed entity changes. Decoding sends nothing: it reads the
// table's model only. Items come out exactly as queries return them (key and
// type attributes stripped, numbers and dates as the runtime reads them).
//
// The entity: with an image, its type attribute names it; a record without images (a KEYS_ONLY
// stream, or a REMOVE on a NEW_IMAGE stream) is identified by matching its table key against each
// entity's key templates, which the key collision rule makes unambiguous. A record that is no
// item of this model's entities (no type attribute, a type the model does not declare, or keys
// no template fits) decodes to undefined and the event decoder skips it: the fingerprint check
// at cold start proves the consumer runs the deployed manifest, so such an item was written by
// other code (unique-value guards included), or by an entity since removed from the manifest.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { expiredByTtl, imageValues, StreamEventInput, StreamEventName, StreamRecordInput } from './stream-record';
import { decodeString, encodeString } from '../../keys/encoding';
import { didYouMean } from '../../model/closest-name';
import type { EntityName, ResultItemOf } from '../../model/infer';
import { AttributeKind, SingleTableManifest } from '../../model/manifest';
import { EntityModel, KeyTemplateModel, TABLE_INDEX, TableModel } from '../../model/model';
import { fromItem } from '../attributes/marshall';
import { parseKey } from '../query/results';
import { SingleTableError } from '../table/errors';
import type { KeyOf } from '../types';

export type { StreamAttributeValue, StreamEventInput, StreamEventName, StreamImage, StreamRecordData, StreamRecordInput } from './stream-record';

/** What decoding needs: the model and the attributes results leave out; the table `openTable` opens. */
export interface StreamDecoder<M = SingleTableManifest> {
  /** The compiled model. */
  readonly model: TableModel;
  /** Attributes results leave out: key attributes and the type attribute. */
  readonly strip: ReadonlySet<string>;
  /** Carries the manifest's type; never set. */
  readonly manifestType?: M;
}

/** The table key attributes of an entity as decoded from a record (DATE values as ISO-8601 strings). */
export type StreamKeyOf<M, E extends EntityName<M>> = Pick<ResultItemOf<M, E>, Extract<keyof KeyOf<M, E>, keyof ResultItemOf<M, E>>>;

/** One decoded change of an entity's item. A union over the entities, told apart by `entity`. */
export type StreamChange<M, E extends EntityName<M> = EntityName<M>> = E extends EntityName<M> ? {
  readonly entity: E;
  readonly eventName: StreamEventName;
  /** The item's table key attributes, decoded from the record's keys. */
  readonly keys: StreamKeyOf<M, E>;
  /** The item after the change: on INSERT and MODIFY, when the stream records new images. */
  readonly newItem?: ResultItemOf<M, E>;
  /** The item before the change: on MODIFY and REMOVE, when the stream records old images. */
  readonly oldItem?: ResultItemOf<M, E>;
  /** Whether DynamoDB's time-to-live process removed the item. */
  readonly expired: boolean;
  /** The record's sequence number: the `itemIdentifier` of a partial batch failure. */
  readonly sequenceNumber?: string;
} : never;

/** Options of `decodeStream`. */
export interface DecodeStreamOptions<E extends string = string> {
  /** Only changes of these entities. @default - every entity */
  readonly entities?: readonly E[];
  /** Only these kinds of change. @default - INSERT, MODIFY and REMOVE */
  readonly eventNames?: readonly StreamEventName[];
}

const EVENT_NAMES: ReadonlySet<string> = new Set<StreamEventName>(['INSERT', 'MODIFY', 'REMOVE']);

/** Decodes one record; undefined when it is not an item of this model's entities. */
export function decodeStreamRecord<M>(decoder: StreamDecoder<M>, record: StreamRecordInput): StreamChange<M> | undefined {
  const { model } = decoder;
  const eventName = record.eventName;
  if (eventName === undefined || !EVENT_NAMES.has(eventName)) {
    throw new SingleTableError('INVALID_STREAM_RECORD', `the record's eventName is ${JSON.stringify(eventName)}, not INSERT, MODIFY or REMOVE; pass the records of a DynamoDB stream`);
  }
  const data = record.dynamodb;
  if (!data?.Keys) throw new SingleTableError('INVALID_STREAM_RECORD', 'the record has no dynamodb.Keys; pass the records of a DynamoDB stream');
  const newImage = data.NewImage && imageValues(data.NewImage);
  const oldImage = data.OldImage && imageValues(data.OldImage);
  const keys = imageValues(data.Keys);
  const image = newImage ?? oldImage;
  const entity = image ? entityByType(model, image) : entityByKeys(model, keys);
  if (!entity) return undefined;
  const newItem = newImage && fromItem(newImage, decoder.strip);
  const oldItem = oldImage && fromItem(oldImage, decoder.strip);
  return {
    entity: entity.name,
    eventName: eventName as StreamEventName,
    keys: tableKeyValues(model, entity, keys) ?? keyValuesOf(entity, (newItem ?? oldItem)!),
    newItem,
    oldItem,
    expired: expiredByTtl(record),
    sequenceNumber: data.SequenceNumber,
  } as StreamChange<M>;
}

/**
 * Decodes the records of a stream event in order, skipping records that are not items of this
 * model's entities and, with options, changes of other entities or kinds. Sends nothing.
 */
export function decodeStream<M, E extends EntityName<M> = EntityName<M>>(
  decoder: StreamDecoder<M>, event: StreamEventInput, options: DecodeStreamOptions<E> = {},
): StreamChange<M, E>[] {
  const entities = options.entities && new Set<string>(options.entities);
  entities?.forEach((name) => {
    if (!Object.hasOwn(decoder.model.entities, name)) {
      throw new SingleTableError('UNKNOWN_ENTITY', `is not declared in the manifest; ${didYouMean(name, Object.keys(decoder.model.entities))}known entities: ${Object.keys(decoder.model.entities).join(', ')}`, { entity: name });
    }
  });
  const eventNames = options.eventNames && new Set<string>(options.eventNames);
  const out: StreamChange<M, E>[] = [];
  for (const record of event.Records) {
    const change = decodeStreamRecord(decoder, record);
    if (!change || (entities && !entities.has(change.entity)) || (eventNames && !eventNames.has(change.eventName))) continue;
    out.push(change as StreamChange<M, E>);
  }
  return out;
}

function entityByType(model: TableModel, image: Record<string, AttributeValue>): EntityModel | undefined {
  const type = image[model.typeAttribute]?.S;
  if (type === undefined || !Object.hasOwn(model.entityByType, type)) return undefined;
  return model.entities[model.entityByType[type]];
}

function entityByKeys(model: TableModel, keys: Record<string, AttributeValue>): EntityModel | undefined {
  const table = model.indexes[TABLE_INDEX];
  return Object.values(model.entities).find((entity) => tableKeyValues(model, entity, keys) !== undefined
    && written(model, entity.keys[TABLE_INDEX].pk, keys[table.partitionKey].S!)
    && written(model, entity.keys[TABLE_INDEX].sk!, keys[table.sortKey!].S!));
}

/**
 * Whether each string value in a key that fits the template is in the one form the runtime
 * writes. Decoding alone accepts any escape sequence; keys of other items (the guard items of
 * unique values start with the escape character and a letter no encoding writes) would otherwise
 * pass for an entity whose templates begin with a value.
 */
function written(model: TableModel, template: KeyTemplateModel, key: string): boolean {
  const parts = key.split(model.delimiter);
  return template.segments.every((seg, i) => seg.kind !== AttributeKind.STRING || seg.literal !== undefined
    || encodeString(decodeString(parts[i], model.escapeChar), model.escapeChar) === parts[i]);
}

/** The attribute values inside an entity's table key; undefined when its templates do not fit. */
function tableKeyValues(model: TableModel, entity: EntityModel, keys: Record<string, AttributeValue>): Record<string, unknown> | undefined {
  const table = model.indexes[TABLE_INDEX];
  const templates = entity.keys[TABLE_INDEX];
  const pk = parseKey(model, templates.pk, keys[table.partitionKey]?.S);
  const sk = pk && parseKey(model, templates.sk!, keys[table.sortKey!]?.S);
  return sk && { ...pk, ...sk };
}

/**
 * The key attributes as the image holds them, for an item whose stored key no longer fits the
 * entity's templates (written under an earlier manifest, before a key migration).
 */
function keyValuesOf(entity: EntityModel, item: Record<string, unknown>): Record<string, unknown> {
  const templates = entity.keys[TABLE_INDEX];
  const names = [...templates.pk.attributes, ...templates.sk!.attributes];
  return Object.fromEntries(names.filter((n) => n in item).map((n) => [n, item[n]]));
}
