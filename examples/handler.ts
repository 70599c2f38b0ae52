// The example app's Lambda: serves every access pattern of the manifest with the runtime, and
// writes items. Bundled by NodejsFunction (examples/stack.ts) with @aws-sdk/* left to the Lambda
// runtime. It imports the compiled model that `single-table generate examples/manifest.ts` writes
// (the manifest itself only for its type), and the operations it calls; the table is opened once
// per container, at cold start.
import type { manifest } from './manifest';
import model from './manifest.model.json';
import { openTable, PatternName, putItem, queryShards, EntityName } from '../lib/runtime';

const table = openTable<typeof manifest>(model);

/** A query of one access pattern, or a put of one item. */
export type ExampleEvent =
  | { readonly pattern: PatternName<typeof manifest>; readonly input: Record<string, unknown>; readonly cursor?: string; readonly limit?: number }
  | { readonly put: { readonly entity: EntityName<typeof manifest>; readonly item: Record<string, unknown> } };

export async function handler(event: ExampleEvent) {
  if ('put' in event) {
    // Event input is untyped JSON; the runtime validates it against the model before writing.
    await putItem(table, event.put.entity, event.put.item as never);
    return { ok: true };
  }
  // The event names any pattern, sharded ones included: queryShards runs them all.
  return queryShards(table, event.pattern, event.input as never, { cursor: event.cursor, limit: event.limit });
}
