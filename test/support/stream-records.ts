// Reads a table's stream on the embedded engine (DynamoDB Local keeps one per table, as DynamoDB
// does) and rewrites records the way Lambda delivers them: JSON, binary values as base64 text, the
// creation time as epoch seconds.
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, _Record } from '@aws-sdk/client-dynamodb-streams';
import { LOCAL_CLIENT_CONFIG } from '../../lib/engine/engine';

/** Every record of the table's stream so far, oldest first. */
export async function streamRecords(endpoint: string, dynamodb: DynamoDBClient, tableName: string): Promise<_Record[]> {
  const streams = new DynamoDBStreamsClient({ endpoint, ...LOCAL_CLIENT_CONFIG, maxAttempts: 1 });
  try {
    const table = await dynamodb.send(new DescribeTableCommand({ TableName: tableName }));
    const StreamArn = table.Table?.LatestStreamArn;
    if (!StreamArn) throw new Error(`table ${tableName} has no stream`);
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn }));
    const records: _Record[] = [];
    for (const shard of StreamDescription?.Shards ?? []) {
      let { ShardIterator } = await streams.send(new GetShardIteratorCommand({ StreamArn, ShardId: shard.ShardId, ShardIteratorType: 'TRIM_HORIZON' }));
      while (ShardIterator) {
        const page = await streams.send(new GetRecordsCommand({ ShardIterator }));
        records.push(...(page.Records ?? []));
        // An open shard hands out a next iterator forever: an empty page means caught up.
        ShardIterator = page.Records?.length ? page.NextShardIterator : undefined;
      }
    }
    return records.sort((a, b) => compareSequence(a.dynamodb?.SequenceNumber, b.dynamodb?.SequenceNumber));
  } finally {
    streams.destroy();
  }
}

function compareSequence(a = '0', b = '0'): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** A record as a Lambda event carries it. */
export function asLambdaRecord(record: _Record): any {
  return JSON.parse(JSON.stringify(record, (_key, value) => {
    if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
    return value;
  }), (key, value) => {
    if (key === 'ApproximateCreationDateTime') return Math.floor(Date.parse(value) / 1000);
    if (key === 'userIdentity') return { type: value.Type, principalId: value.PrincipalId };
    return value;
  });
}
