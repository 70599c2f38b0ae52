// The fix for a use of an index that is not declared. When a declared GSI nothing uses looks like
// the name (`GSl2` beside uses of `GSI2`), the declaration is what is misspelled: renaming it fixes
// every use at once, where "did you mean 'GSl2'?" would spread the typo.
import { closestName, didYouMean } from '../model/closest-name';
import type { SingleTableManifest } from '../model/manifest';

/** The fix for `name`, used somewhere but not an index of `known` (listed as `use one of`). */
export function undeclaredIndexFix(name: string, manifest: SingleTableManifest, known: readonly string[], otherwise: string): string {
  const used = new Set<string>();
  for (const entity of Object.values(manifest.entities ?? {})) Object.keys(entity?.indexes ?? {}).forEach((index) => used.add(index));
  for (const pattern of Object.values(manifest.accessPatterns ?? {})) if (pattern?.index !== undefined) used.add(pattern.index);
  const unused = Object.keys(manifest.globalIndexes ?? {}).filter((index) => !used.has(index));
  const misspelled = closestName(name, unused);
  if (misspelled !== undefined) {
    return `rename the declaration globalIndexes.${misspelled} to ${name} (nothing uses '${misspelled}'), or ${otherwise}`;
  }
  return `${didYouMean(name, known)}${otherwise}`;
}
