// The example app's Lambda: serves every access pattern of the manifest with the runtime, and
// writes items. Bundled by NodejsFunction (examples/stack.ts) with @aws-sdk/* left to the Lambda
// runtime; the runtime client is created once per container, at cold start.
import { manifest } from './manifest';
import { createClient } from '../lib/runtime';

const db = createClient(manifest);

type Client = typeof db;
type Pattern = Parameters<Client['query']>[0];

/** A query of one access pattern, or a put of one item. */
export type ExampleEvent =
  | { readonly pattern: Pattern; readonly input: Record<string, unknown>; readonly cursor?: string; readonly limit?: number }
  | { readonly put: { readonly entity: Parameters<Client['put']>[0]; readonly item: Record<string, unknown> } };

export async function handler(event: ExampleEvent) {
  if ('put' in event) {
    // Event input is untyped JSON; the runtime validates it against the manifest before writing.
    await db.put(event.put.entity, event.put.item as never);
    return { ok: true };
  }
  return db.query(event.pattern, event.input as never, { cursor: event.cursor, limit: event.limit });
}
