// The DynamoDB Streams record as a consumer receives it. Declared here rather than imported from
// `@types/aws-lambda` or `@aws-sdk/client-dynamodb-streams`, so the runtime needs neither: the
// shapes accept both a Lambda event's records (JSON, where binary values are base64 text and the
// creation time is epoch seconds) and the SDK's GetRecords records (binary values as bytes, the
// time as a Date).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** What changed the item. */
export type StreamEventName = 'INSERT' | 'MODIFY' | 'REMOVE';

/** An attribute value in a stream record: binary values may be base64 text (Lambda events) or bytes (SDK). */
export interface StreamAttributeValue {
  readonly S?: string;
  readonly N?: string;
  readonly B?: string | Uint8Array;
  readonly SS?: readonly string[];
  readonly NS?: readonly string[];
  readonly BS?: readonly (string | Uint8Array)[];
  readonly M?: { readonly [name: string]: StreamAttributeValue };
  readonly L?: readonly StreamAttributeValue[];
  readonly NULL?: boolean;
  readonly BOOL?: boolean;
}

/** An item image or a key in a stream record. */
export type StreamImage = { readonly [name: string]: StreamAttributeValue };

/** The `dynamodb` part of a stream record. */
export interface StreamRecordData {
  readonly Keys?: StreamImage;
  readonly NewImage?: StreamImage;
  readonly OldImage?: StreamImage;
  readonly SequenceNumber?: string;
  readonly ApproximateCreationDateTime?: number | Date;
  readonly StreamViewType?: string;
}

/** One stream record: a Lambda event's `Records[i]` (aws-lambda `DynamoDBRecord`) or a GetRecords record. */
export interface StreamRecordInput {
  readonly eventName?: string;
  readonly eventID?: string;
  readonly dynamodb?: StreamRecordData;
  /** TTL deletions carry the service as the identity: `type` in Lambda events, `Type` in the SDK. */
  readonly userIdentity?: { readonly type?: string; readonly principalId?: string; readonly Type?: string; readonly PrincipalId?: string } | null;
}

/** A Lambda event of a DynamoDB stream (aws-lambda `DynamoDBStreamEvent`). */
export interface StreamEventInput {
  readonly Records: readonly StreamRecordInput[];
}

/** A stream image as the SDK's AttributeValues, base64 binary values turned into bytes. */
export function imageValues(image: StreamImage): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const name in image) out[name] = attributeValueOf(image[name]);
  return out;
}

function attributeValueOf(av: StreamAttributeValue): AttributeValue {
  if (av.B !== undefined) return { B: bytes(av.B) };
  if (av.BS !== undefined) return { BS: av.BS.map(bytes) };
  if (av.M !== undefined) return { M: imageValues(av.M) };
  if (av.L !== undefined) return { L: av.L.map(attributeValueOf) };
  return av as AttributeValue;
}

function bytes(value: string | Uint8Array): Uint8Array {
  return typeof value === 'string' ? Uint8Array.from(atob(value), (c) => c.charCodeAt(0)) : value;
}

/** Whether DynamoDB's TTL process removed the item (rather than a request). */
export function expiredByTtl(record: StreamRecordInput): boolean {
  const identity = record.userIdentity;
  return (identity?.type ?? identity?.Type) === 'Service' && (identity?.principalId ?? identity?.PrincipalId) === 'dynamodb.amazonaws.com';
}
