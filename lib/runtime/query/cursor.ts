// Opaque page cursors: base64url JSON of the pattern name, the position (DynamoDB's
// LastEvaluatedKey, or the fan-out state of a sharded query) and a checksum over both and over
// the query they belong to. A cursor from another pattern, from the same pattern with other input
// or order, or edited by hand is rejected before any network call. The checksum detects misuse and
// tampering by accident, it is not a signature: DynamoDB still validates the key it resumes from.
import { createHash } from 'crypto';
import { SingleTableError } from '../table/errors';

interface CursorBody {
  /** Pattern name. */
  readonly p: string;
  /** Position: a LastEvaluatedKey or a fan-out state. */
  readonly k: unknown;
  /** Checksum of the pattern, the query binding and the position. */
  readonly c: string;
}

/** Encodes a position of a query page. `binding` identifies the query (pattern, input, order). */
export function encodeCursor(pattern: string, binding: string, position: unknown): string {
  return Buffer.from(JSON.stringify({ p: pattern, k: position, c: checksum(pattern, binding, position) } satisfies CursorBody)).toString('base64url');
}

const FOREIGN = 'the cursor is not one this runtime issued';

/** Decodes a cursor for `pattern`; throws INVALID_CURSOR saying why it does not fit. */
export function decodeCursor(pattern: string, binding: string, cursor: string): unknown {
  let body: CursorBody;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString());
  } catch (cause) {
    throw new SingleTableError('INVALID_CURSOR', `${FOREIGN} (not base64url JSON)`, { pattern, cause });
  }
  const why = !body || typeof body !== 'object' || typeof body.p !== 'string' || typeof body.c !== 'string' ? FOREIGN
    : body.p !== pattern ? `the cursor belongs to pattern '${body.p}'; pass it to that pattern's query`
      : body.c !== checksum(body.p, binding, body.k) && 'the cursor was altered, or was issued for other input or order of this pattern; start again without a cursor';
  if (why) throw new SingleTableError('INVALID_CURSOR', why, { pattern });
  return body.k;
}

/**
 * SHA-256 (Node's, already loaded by the SDK) of the JSON of the three, cut to 96 bits. The position
 * is hashed as JSON.stringify writes it: a cursor's JSON parses back to an object that writes the
 * same text, so no canonical form is needed.
 */
function checksum(pattern: string, binding: string, position: unknown): string {
  return createHash('sha256').update(JSON.stringify([pattern, binding, position])).digest('base64url').slice(0, 16);
}
