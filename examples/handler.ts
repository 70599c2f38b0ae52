// The example app's Lambda: serves every access pattern of the manifest, and writes items of every
// entity, both named in the event. Bundled by NodejsFunction (examples/stack.ts) with @aws-sdk/*
// left to the Lambda runtime. It calls the typed access module `single-table generate --access`
// writes beside the manifest (examples/manifest.access.ts), whose functions each hold the part of
// the model they read; the table is opened once per container, at cold start.
import type { manifest } from './manifest';
import { openTable, put, query } from './manifest.access';
import type { EntityName, PatternName } from '../lib/runtime';

const table = openTable();

/** A query of one access pattern, or a put of one item. */
export type ExampleEvent =
  | { readonly pattern: PatternName<typeof manifest>; readonly input: Record<string, unknown>; readonly cursor?: string; readonly limit?: number }
  | { readonly put: { readonly entity: EntityName<typeof manifest>; readonly item: Record<string, unknown> } };

export async function handler(event: ExampleEvent) {
  if ('put' in event) {
    // Event input is untyped JSON; the entity's put validates it before writing.
    await put(table, event.put.entity, event.put.item as never);
    return { ok: true };
  }
  // The event names any pattern, sharded ones included: each pattern's query reads all it needs.
  return query(table, event.pattern, event.input as never, { cursor: event.cursor, limit: event.limit });
}
