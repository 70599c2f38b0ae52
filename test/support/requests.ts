// Counts the requests a client sends, by operation: proves "fails before any network call".
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

let counters = 0;

export function countRequests(client: DynamoDBClient): { total: () => number; of: (operation: string) => number } {
  const counts = new Map<string, number>();
  client.middlewareStack.add((next, context) => async (args) => {
    counts.set(context.commandName!, (counts.get(context.commandName!) ?? 0) + 1);
    return next(args);
  }, { step: 'initialize', priority: 'high', name: `countRequests${++counters}` });
  return {
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    of: (operation) => counts.get(operation) ?? 0,
  };
}

/** The partition key value (`:pk`) of every Query the client sends, in order, into the array returned. */
export function recordQueriedPartitions(client: DynamoDBClient): string[] {
  const queried: string[] = [];
  client.middlewareStack.add((next, context) => async (args) => {
    if (context.commandName === 'QueryCommand') queried.push((args.input as { ExpressionAttributeValues: Record<string, { S: string }> }).ExpressionAttributeValues[':pk'].S);
    return next(args);
  }, { step: 'initialize', name: `recordQueriedPartitions${++counters}` });
  return queried;
}

/** Every page of a query, following cursors. */
export async function allPages<T>(
  run: (cursor: string | undefined) => Promise<{ items: T[]; cursor?: string }>,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await run(cursor);
    items.push(...page.items);
    cursor = page.cursor;
    pages++;
  } while (cursor !== undefined);
  return { items, pages };
}
