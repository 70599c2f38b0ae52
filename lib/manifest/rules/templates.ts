// Key template rules: table keys are always composable, and no two entities share a key.
import { entitiesOn, ManifestRule } from './rule';
import { MAX_PARTITION_KEY_BYTES, MAX_SORT_KEY_BYTES, utf8Length } from '../../keys/encoding';
import { segmentsOverlap, SHARD_SEGMENT } from '../../keys/template';
import { AttributeKind } from '../../model/manifest';
import { IndexType, KeySegmentModel, KeyTemplateModel, TABLE_INDEX } from '../../model/model';
import { describeValue } from '../values';

/** Table key attributes must be required, and booleans cannot be table key segments. */
export const tableKeysAreAlwaysComposable: ManifestRule = (model, _manifest, sink) => {
  for (const entity of Object.values(model.entities)) {
    const keys = entity.keys[TABLE_INDEX];
    if (!keys) continue;
    for (const [part, template] of [['pk', keys.pk], ['sk', keys.sk!]] as const) {
      for (const attr of template.attributes) {
        const def = entity.attributes[attr];
        if (def.type === AttributeKind.BOOLEAN) {
          sink.error('TABLE_KEY_BOOLEAN', `entity ${entity.name}, table ${part}`, `template ${JSON.stringify(template.source)} uses boolean '${attr}'; false would leave the item without a key`, 'use a STRING attribute in table keys; booleans belong in sparse index keys');
        } else if (!def.required) {
          sink.error('TABLE_KEY_OPTIONAL_ATTRIBUTE', `entity ${entity.name}, table ${part}`, `template ${JSON.stringify(template.source)} uses '${attr}', which is not required; an item without it has no key`, `mark '${attr}' required: true`);
        }
      }
    }
  }
};

/**
 * Two entities on one index must never produce the same key: on the table that would overwrite
 * an item of another type, on an index it mixes types in one key. Checked on segment shapes.
 */
export const entityKeysDoNotCollide: ManifestRule = (model, _manifest, sink) => {
  for (const index of Object.values(model.indexes)) {
    // Keys on one multi-attribute index may be equal: a GSI key need not be unique (patterns filter by type).
    if (index.partitionAttributes) continue;
    const entities = entitiesOn(model, index.name);
    const shapes = entities.map((e) => {
      const keys = e.keys[index.name];
      const pk: KeySegmentModel[] = index.shards ? [...keys.pk.segments, SHARD_SEGMENT] : keys.pk.segments;
      return { entity: e, pk, sk: keys.sk?.segments ?? [], keys };
    });
    for (let i = 0; i < shapes.length; i++) {
      for (let j = i + 1; j < shapes.length; j++) {
        const a = shapes[i];
        const b = shapes[j];
        if (segmentsOverlap(a.pk, b.pk) && segmentsOverlap(a.sk, b.sk)) {
          const where = index.type === IndexType.TABLE ? 'the table' : `index ${index.name}`;
          sink.error('KEY_COLLISION', `index ${index.name}`, `entities ${a.entity.name} (${describeKeys(a.keys)}) and ${b.entity.name} (${describeKeys(b.keys)}) can produce the same key on ${where}`, `make their templates differ in a literal segment, e.g. prefix the sort key with the entity name ('${b.entity.typeValue.toUpperCase()}#...')`);
        }
      }
    }
  }
};

function describeKeys(keys: { pk: { source: string }; sk?: { source: string } }): string {
  return keys.sk ? `${keys.pk.source} / ${keys.sk.source}` : keys.pk.source;
}

/**
 * The literal text of a template (its literals and delimiters) already fills part of the key;
 * when it alone exceeds DynamoDB's key limits (partition 2048 bytes, sort 1024, UTF-8) every
 * write would fail.
 */
export const literalKeyTextFits: ManifestRule = (model, _manifest, sink) => {
  for (const entity of Object.values(model.entities)) {
    for (const keys of Object.values(entity.keys)) {
      // An LSI's partition key is the table's, reported there.
      const parts: [string, KeyTemplateModel | undefined, number][] = [['sk', keys.sk, MAX_SORT_KEY_BYTES]];
      if (model.indexes[keys.index].type !== IndexType.LSI) parts.unshift(['pk', keys.pk, MAX_PARTITION_KEY_BYTES]);
      for (const [part, template, limit] of parts) {
        if (!template) continue;
        const bytes = literalBytes(template);
        if (bytes <= limit) continue;
        sink.error('TEMPLATE_TOO_LONG', `entity ${entity.name}, ${keys.index === TABLE_INDEX ? 'table' : 'index ' + keys.index} ${part}`,
          `template ${describeValue(template.source)} has ${bytes} bytes of literal text and delimiters; a ${part === 'pk' ? 'partition' : 'sort'} key holds at most ${limit} bytes`,
          'shorten the literal segments');
      }
    }
  }
};

function literalBytes(template: KeyTemplateModel): number {
  return template.segments.reduce((sum, seg) => sum + (seg.literal === undefined ? 0 : utf8Length(seg.literal)), template.segments.length - 1);
}
