// Deep freeze for models: the runtime caches compiled keys per model object, which is only sound
// while nothing can change the model under the cache.

/** Freezes a value and everything it holds; returns it. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as object)) deepFreeze(v);
  }
  return value;
}
