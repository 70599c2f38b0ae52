// The shape of a corpus case: the valid fixture manifest after one change (and construct props),
// and what the library must say about it.
import { validManifest } from '../../fixtures/valid-manifest';

/** A manifest (or any part of one) as JSON, Python or Java users can hand it over: anything goes. */
export type Loose = { [key: string]: any };

/** Where a case runs. */
export type Path = 'compile' | 'cli' | 'construct' | 'client';

/** A manifest or props the library must reject with one clear finding. */
export interface InvalidCase {
  /** What is wrong, as the test title. */
  readonly title: string;
  /** The change to the valid fixture manifest. */
  readonly manifest?: (m: Loose) => void;
  /** Construct props besides the manifest. */
  readonly props?: Loose;
  /** The expected code. */
  readonly code: string;
  /** The expected location, exactly. */
  readonly where: string;
  /** Text that shows the bad value in the message. */
  readonly shows: string;
  /** Paths it cannot take (a value JSON cannot hold skips the CLI). */
  readonly skip?: readonly Path[];
  /** The declared name the fix suggests for a misspelt one ("did you mean"). */
  readonly suggests?: string;
}

/** A manifest (and props) at an edge of what is allowed: every path accepts it. */
export interface ValidCase {
  readonly title: string;
  readonly manifest?: (m: Loose) => void;
  readonly props?: Loose;
  /** Extra assertions on the compiled model. */
  readonly then?: (model: Loose) => void;
}

/** The valid fixture manifest after a change. */
export function fixture(change?: (m: Loose) => void): Loose {
  const m = validManifest() as Loose;
  change?.(m);
  return m;
}

/** Stores a value under a key as an own entry, even `__proto__` (as JSON.parse does). */
export function setOwn(target: Loose, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A list of names a0..a(n-1), declared as optional STRING attributes of Order. */
export function orderAttributes(m: Loose, count: number, prefix = 'a'): string[] {
  const names = Array.from({ length: count }, (_, i) => `${prefix}${i}`);
  for (const n of names) m.entities.Order.attributes[n] = { type: 'STRING' };
  return names;
}

/** JavaScript source for a value: NaN, Infinity and `__proto__` keys survive, unlike in JSON. */
export function toSource(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : Object.is(value, -Infinity) ? '-Infinity' : value === Infinity ? 'Infinity' : String(value);
  if (value === undefined) return 'undefined';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(toSource).join(', ')}]`;
  // A computed key defines an own property, even `__proto__`.
  return `{ ${Object.keys(value).map((k) => `[${JSON.stringify(k)}]: ${toSource((value as Loose)[k])}`).join(', ')} }`;
}
