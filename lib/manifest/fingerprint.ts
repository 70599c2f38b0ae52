/* eslint-disable no-bitwise */
// A stable fingerprint of a manifest: a 64-bit hash (two 32-bit FNV-1a lanes) of its canonical
// JSON (keys sorted). The stack writes it into each function's environment and the runtime compares
// it with the manifest it was bundled with. No crypto module, so it costs nothing in a bundle.

/** Canonical JSON: object keys sorted, undefined dropped. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
  const entries = Object.keys(value as object)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort()
    .map((k) => JSON.stringify(k) + ':' + canonicalJson((value as Record<string, unknown>)[k]));
  return '{' + entries.join(',') + '}';
}

/** 16 hex digits identifying the manifest's content. */
export function fingerprintOf(manifest: unknown): string {
  const text = canonicalJson(manifest);
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15);
  }
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
