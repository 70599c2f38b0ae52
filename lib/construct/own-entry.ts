/** A map entry by a user's name, never an inherited property such as `constructor` or `__proto__`. */
export function ownEntry<T>(map: { readonly [name: string]: T } | undefined, name: string): T | undefined {
  return map !== undefined && map !== null && Object.hasOwn(map, name) ? map[name] : undefined;
}
