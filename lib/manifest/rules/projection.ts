// Projection rules: INCLUDE lists and DynamoDB's limits of 20 projected attributes per index and
// 100 per table.
import type { ManifestRule } from './rule';
import { didYouMean } from '../../model/closest-name';
import { ProjectionKind } from '../../model/manifest';

/** `include` only goes with INCLUDE projection, and INCLUDE names declared attributes. */
export const includeListsAreValid: ManifestRule = (model, manifest, sink) => {
  const declared = new Set(Object.values(model.entities).flatMap((e) => Object.keys(e.attributes)));
  for (const [name, def] of Object.entries(manifest.globalIndexes ?? {})) {
    const projection = def?.projection ?? ProjectionKind.ALL;
    if (projection !== ProjectionKind.INCLUDE && def?.include?.length) {
      sink.error('INCLUDE_WITHOUT_INCLUDE_PROJECTION', `index ${name}`, `lists include attributes but its projection is ${projection}`, 'set projection: ProjectionKind.INCLUDE, or remove `include`');
    }
    // Key and type attributes are never declared, so they are checked before "undeclared" could mislead.
    for (const attr of def?.include ?? []) {
      if (model.keyAttributes.includes(attr)) {
        sink.error('INCLUDE_KEY_ATTRIBUTE', `index ${name}`, `INCLUDE names key attribute '${attr}', which every index projects anyway`, 'remove it from `include`');
      } else if (attr === model.typeAttribute) {
        sink.error('INCLUDE_TYPE_ATTRIBUTE', `index ${name}`, `INCLUDE names the type attribute '${attr}', which INCLUDE indexes project anyway`, 'remove it from `include`');
      } else if (!declared.has(attr)) {
        sink.error('INCLUDE_ATTRIBUTE_UNDECLARED', `index ${name}`, `INCLUDE names '${attr}', which no entity declares`, `${didYouMean(attr, declared)}declare the attribute on the entities that need it, or remove it from \`include\``);
      }
    }
  }
};

/** Most non-key attributes one index may project (`Projection.NonKeyAttributes`). */
export const MAX_PROJECTED_PER_INDEX = 20;

/** An INCLUDE index projects at most 20 non-key attributes, the type attribute counted. */
export const atMostTwentyProjectedPerIndex: ManifestRule = (model, _manifest, sink) => {
  for (const index of Object.values(model.indexes)) {
    const count = index.nonKeyAttributes.length;
    if (index.projection !== ProjectionKind.INCLUDE || count <= MAX_PROJECTED_PER_INDEX) continue;
    sink.error('INCLUDE_TOO_MANY_ATTRIBUTES', `index ${index.name}`, `INCLUDE projects ${count} non-key attributes (${count - 1} listed in \`include\` plus the type attribute '${model.typeAttribute}'); DynamoDB allows ${MAX_PROJECTED_PER_INDEX} per index`,
      `list at most ${MAX_PROJECTED_PER_INDEX - 1} attributes in \`include\`, or use ALL projection`);
  }
};

/**
 * DynamoDB allows 100 non-key projected attributes summed over all secondary indexes, counting an
 * attribute projected into two indexes twice. CDK does not check this.
 */
export const atMostHundredProjectedAttributes: ManifestRule = (model, _manifest, sink) => {
  let total = 0;
  const perIndex: string[] = [];
  for (const index of Object.values(model.indexes)) {
    if (index.projection !== ProjectionKind.INCLUDE) continue;
    total += index.nonKeyAttributes.length;
    perIndex.push(`${index.name}: ${index.nonKeyAttributes.length}`);
  }
  if (total > 100) {
    sink.error('TOO_MANY_PROJECTED_ATTRIBUTES', 'manifest', `INCLUDE projections name ${total} attributes in all (${perIndex.join(', ')}, the type attribute counted in each); DynamoDB allows 100 per table, an attribute in two indexes counting twice`, 'project fewer attributes, or use ALL projection where most attributes are needed');
  }
};
