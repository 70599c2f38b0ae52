// DynamoDB's size rules for an item given as plain values (a sample item), from "Item sizes and
// formats" in the DynamoDB developer guide: names and strings count their UTF-8 bytes, numbers 1
// byte per two significant digits plus 1, booleans and null 1, binary its raw bytes, lists and maps
// 3 bytes plus 1 byte per element plus the elements (a map's keys count as names), sets the sum
// of their elements.
import { utf8Length } from '../keys/encoding';

/** Bytes DynamoDB counts for a value, or undefined for a value DynamoDB cannot store. */
export function valueBytes(value: unknown): number | undefined {
  switch (typeof value) {
    case 'string': return utf8Length(value);
    case 'number': return Number.isFinite(value) ? numberBytes(value) : undefined;
    case 'bigint': return numberBytes(Number(value));
    case 'boolean': return 1;
    case 'object': break;
    default: return undefined;
  }
  if (value === null) return 1;
  // The runtime stores dates as ISO-8601 UTC with milliseconds: always 24 characters.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : 24;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return sum([...value].map(valueBytes));
  if (Array.isArray(value)) return addOverhead(value.map(valueBytes));
  const entries = Object.entries(value as object).filter(([, v]) => v !== undefined);
  return addOverhead(entries.map(([k, v]) => {
    const bytes = valueBytes(v);
    return bytes === undefined ? undefined : utf8Length(k) + bytes;
  }));
}

/** Bytes of one attribute: its name and its value. */
export function attributeBytes(name: string, value: unknown): number | undefined {
  const bytes = valueBytes(value);
  return bytes === undefined ? undefined : utf8Length(name) + bytes;
}

// Leading and trailing zeros do not count; the exponent costs nothing beyond the fixed byte.
function numberBytes(value: number): number {
  if (value === 0) return 2;
  const digits = Math.abs(value).toExponential().split('e')[0].replace('.', '');
  return Math.ceil(digits.length / 2) + 1;
}

function addOverhead(parts: (number | undefined)[]): number | undefined {
  const total = sum(parts);
  return total === undefined ? undefined : 3 + parts.length + total;
}

function sum(parts: (number | undefined)[]): number | undefined {
  let total = 0;
  for (const p of parts) {
    if (p === undefined) return undefined;
    total += p;
  }
  return total;
}
