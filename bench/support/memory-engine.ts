// An in-memory DynamoDB for the fan-out benchmark: answers the Query inputs the runtime builds
// (an equality on the partition key, index order, Limit, ExclusiveStartKey) after a fixed latency
// per request, and serves concurrent requests truly in parallel, as DynamoDB serves the shards of a
// partition key from separate partitions. Two ways in: `client`, a stand-in for the SDK client's
// `send`; and `requestHandler`, which fakes only HTTP under a real DynamoDBClient (the SDK's own
// serialization, middleware and parsing stay in the measurement).
import { Readable } from 'node:stream';
import type { AttributeValue, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { compareUtf8 } from '../../lib/runtime/query/fanout-order';

type Item = Record<string, AttributeValue>;

/** Physical key attributes of the table and of the indexes the engine serves. */
export interface MemoryIndex {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class MemoryEngine {
  /** Milliseconds every request takes besides the engine's work. */
  public latencyMs = 0;
  /** Requests served so far. */
  public requests = 0;
  private readonly partitions = new Map<string, Map<string, Item[]>>();
  /** The same partitions in descending order, so a descending query copies nothing. */
  private readonly descending = new Map<string, Map<string, Item[]>>();

  constructor(private readonly indexes: readonly MemoryIndex[], private readonly tableKey: readonly [string, string]) {
    for (const index of indexes) this.partitions.set(index.name, new Map());
  }

  /** Stores items into every index whose keys they hold, each partition in index order. */
  load(items: readonly Item[]): void {
    for (const index of this.indexes) {
      const partitions = this.partitions.get(index.name)!;
      for (const item of items) {
        const pk = item[index.partitionKey]?.S;
        if (pk === undefined || item[index.sortKey]?.S === undefined) continue;
        let list = partitions.get(pk);
        if (!list) partitions.set(pk, list = []);
        list.push(item);
      }
      for (const list of partitions.values()) list.sort((a, b) => this.compare(index, a, b));
      this.descending.set(index.name, new Map([...partitions].map(([pk, list]) => [pk, [...list].reverse()])));
    }
  }

  /** The Query's page, after the latency. */
  async query(input: QueryCommandInput): Promise<{ Items: Item[]; Count: number; ScannedCount: number; LastEvaluatedKey?: Item }> {
    this.requests++;
    if (this.latencyMs > 0) await sleep(this.latencyMs);
    const index = this.indexes.find((i) => i.name === input.IndexName);
    if (!index || input.KeyConditionExpression !== '#pk = :pk' || input.FilterExpression) {
      throw new Error(`the memory engine answers '#pk = :pk' on ${this.indexes.map((i) => i.name).join(', ')} only, got ${JSON.stringify(input)}`);
    }
    const forward = input.ScanIndexForward !== false;
    const ordered = (forward ? this.partitions : this.descending).get(index.name)!.get(input.ExpressionAttributeValues![':pk'].S!) ?? [];
    // The first item after the start key, found by bisection: the engine's own work stays small
    // next to the latency, as DynamoDB's does on its own servers.
    let from = 0;
    const start = input.ExclusiveStartKey;
    if (start) {
      let hi = ordered.length;
      while (from < hi) {
        const mid = Math.floor((from + hi) / 2);
        const c = this.compare(index, ordered[mid], start);
        if (forward ? c <= 0 : c >= 0) from = mid + 1;
        else hi = mid;
      }
    }
    const limit = input.Limit ?? ordered.length;
    const page = ordered.slice(from, from + limit);
    // As DynamoDB does: a page that reaches the Limit has a LastEvaluatedKey even when it holds the
    // partition's last item (the next page is then empty).
    const more = from + page.length < ordered.length || page.length === input.Limit;
    const last = page[page.length - 1];
    const keys = [index.partitionKey, index.sortKey, ...this.tableKey];
    return {
      Items: page,
      Count: page.length,
      ScannedCount: page.length,
      LastEvaluatedKey: more && last ? Object.fromEntries(keys.map((k) => [k, last[k]])) : undefined,
    };
  }

  /** A stand-in for DynamoDBClient: `send` answers QueryCommands. */
  client(): { send(command: { input: QueryCommandInput }): Promise<unknown> } {
    return { send: (command) => this.query(command.input) };
  }

  /** A request handler for a real DynamoDBClient: the HTTP exchange is the only fake part. */
  requestHandler() {
    return {
      handle: async (request: { headers: Record<string, string>; body?: string | Uint8Array }) => {
        const target = request.headers['x-amz-target'] ?? request.headers['X-Amz-Target'];
        if (target !== 'DynamoDB_20120810.Query') throw new Error(`the memory engine serves Query only, got ${target}`);
        const text = typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body);
        const body = JSON.stringify(await this.query(JSON.parse(text)));
        return {
          response: {
            statusCode: 200,
            reason: 'OK',
            headers: { 'content-type': 'application/x-amz-json-1.0', 'content-length': String(Buffer.byteLength(body)) },
            body: Readable.from([Buffer.from(body)]),
          },
        };
      },
      updateHttpClientConfig: () => undefined,
      httpHandlerConfigs: () => ({}),
    };
  }

  private compare(index: MemoryIndex, a: Item, b: Item): number {
    for (const key of [index.sortKey, ...this.tableKey]) {
      const c = compareUtf8(a[key]?.S ?? '', b[key]?.S ?? '');
      if (c !== 0) return c;
    }
    return 0;
  }
}
