// AttributeValue conversion, written here instead of using @aws-sdk/util-dynamodb: entity
// attributes have declared kinds, so the common case is one type check and one object literal,
// and the bundle stays small. Nested values (LIST, MAP) use the generic conversion below.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/**
 * Whether DynamoDB can store a number: 0, or a magnitude from 1e-130 to below 1e126. Doubles reach
 * further both ways (5e-324, 1e308), and DynamoDB rejects those with a ValidationException.
 */
export function storableNumber(n: unknown): n is number {
  if (typeof n !== 'number' || !Number.isFinite(n)) return false;
  const m = Math.abs(n);
  return m === 0 || (m >= 1e-130 && m < 1e126);
}

/** Whether DynamoDB can store an integer: at most 38 significant digits, magnitude below 1e126. */
function storableInteger(n: bigint): boolean {
  const digits = (n < 0n ? -n : n).toString();
  return digits.length <= 126 && digits.replace(/0+$/, '').length <= 38;
}

/**
 * A stored number as the JavaScript value it was written from. DynamoDB keeps no type and
 * normalizes the text (`1e+23` comes back as `100000000000000000000000`), so the digits decide.
 * A fraction is the shortest form of the number written (or, from another client, has more digits
 * than a double holds and reads as the nearest one). An integer past the safe range is the number
 * whose shortest digits it is, if it is those digits; else it came from a bigint, which keeps them all.
 */
export function numberValue(text: string): number | bigint {
  const n = Number(text);
  if (Number.isSafeInteger(n) || !/^-?\d+$/.test(text)) return n;
  const [digits, exponent] = Math.abs(n).toExponential().replace('.', '').split('e');
  return text.replace('-', '') === digits.padEnd(Number(exponent) + 1, '0') ? n : BigInt(text);
}

/** Converts a nested JavaScript value to an AttributeValue; undefined when it cannot be stored. */
export function toAttributeValue(value: unknown): AttributeValue | undefined {
  switch (typeof value) {
    case 'string': return { S: value };
    case 'number': return storableNumber(value) ? { N: String(value) } : undefined;
    case 'boolean': return { BOOL: value };
    case 'bigint': return storableInteger(value) ? { N: value.toString() } : undefined;
    case 'object': break;
    default: return undefined;
  }
  if (value === null) return { NULL: true };
  if (Array.isArray(value)) {
    const list: AttributeValue[] = [];
    for (const v of value) {
      const av = toAttributeValue(v);
      if (!av) return undefined;
      list.push(av);
    }
    return { L: list };
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : { S: value.toISOString() };
  if (value instanceof Uint8Array) return { B: value };
  if (value instanceof Set) return setValue(value);
  // Only objects whose data is their own properties (plain objects, class instances) become maps:
  // a Map, RegExp or ArrayBuffer would be stored as an empty map, its contents silently dropped.
  if (Object.prototype.toString.call(value) !== '[object Object]') return undefined;
  const map: Record<string, AttributeValue> = {};
  for (const [k, v] of Object.entries(value as object)) {
    if (v === undefined) continue;
    // Assigning it would set the map's prototype, and the SDK cannot send such a key anyway.
    if (k === '__proto__') return undefined;
    const av = toAttributeValue(v);
    if (!av) return undefined;
    map[k] = av;
  }
  return { M: map };
}

/** A non-empty set of strings or finite numbers (DynamoDB has no empty sets). */
export function setValue(set: Set<unknown>, only?: 'string' | 'number'): AttributeValue | undefined {
  const values = [...set];
  if (values.length === 0) return undefined;
  if ((!only || only === 'string') && values.every((v) => typeof v === 'string')) return { SS: values as string[] };
  if ((!only || only === 'number') && values.every(storableNumber)) return { NS: values.map(String) };
  return undefined;
}

/** Every member of an AttributeValue, each optional. */
type Members = Partial<Record<'S' | 'N', string> & Record<'SS' | 'NS', string[]> & Record<'B', Uint8Array> & Record<'BS', Uint8Array[]>
  & { BOOL: boolean; M: Record<string, AttributeValue>; L: AttributeValue[] }>;

/** Converts an AttributeValue back to a JavaScript value (NULL, or a member this runtime does not know, is null). */
export function fromAttributeValue(av: AttributeValue): unknown {
  // One member is set. `??` passes '' and false through; lists, maps, sets and binaries are objects.
  const { S, N, BOOL, M, L, SS, NS, B, BS } = av as Members;
  return S ?? (N !== undefined ? numberValue(N) : BOOL ?? (M ? fromItem(M) : L ? L.map(fromAttributeValue)
    : SS ? new Set(SS) : NS ? new Set(NS.map(Number)) : B ?? (BS ? new Set(BS) : null)));
}

/** Converts a whole item, leaving out the attributes named in `skip`. */
export function fromItem(item: Record<string, AttributeValue>, skip?: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in item) if (!skip?.has(k)) out[k] = fromAttributeValue(item[k]);
  return out;
}
