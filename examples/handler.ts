// The example app's Lambda: serves every access pattern of the manifest, and writes items of every
// entity, both named in the event. Bundled by NodejsFunction (examples/stack.ts) with @aws-sdk/*
// left to the Lambda runtime. The table is opened once per container, at cold start, with the
// model the stack deployed with the function (`table.connect`); the manifest is imported for its
// types only.
import type { manifest } from './manifest';
import { EntityName, openTable, PatternName, putItem, query } from '../lib/runtime';

const table = openTable<typeof manifest>();

/** A query of one access pattern, or a put of one item. */
export type ExampleEvent =
  | { readonly pattern: PatternName<typeof manifest>; readonly input: Record<string, unknown>; readonly cursor?: string; readonly limit?: number }
  | { readonly put: { readonly entity: EntityName<typeof manifest>; readonly item: Record<string, unknown> } };

export async function handler(event: ExampleEvent) {
  if ('put' in event) {
    // Event input is untyped JSON; the entity's put validates it before writing.
    await putItem(table, event.put.entity, event.put.item as never);
    return { ok: true };
  }
  // The event names any pattern, sharded ones included: the query reads all it needs.
  return query(table, event.pattern, event.input as never, { cursor: event.cursor, limit: event.limit });
}
