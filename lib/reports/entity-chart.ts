// The main-table entity chart of a single-table design: one row per entity with its table keys, its
// keys on every GSI and LSI slot it populates, and notes (description, the version and timestamp
// attributes the runtime maintains, sparse-index conditions).
import { keyPairText, secondaryIndexes, sparseCondition } from './describe';
import { ReportTable } from './report-table';
import { guardMark } from '../keys/unique-guard';
import { EntityModel, IndexType, populatesIndex, TABLE_INDEX, TableModel } from '../model/model';

/** The main-table entity chart. */
export function entityChart(model: TableModel): ReportTable {
  const table = model.indexes[TABLE_INDEX];
  const rows = Object.values(model.entities).map((entity) => {
    const keys = entity.keys[TABLE_INDEX];
    const gsi: string[] = [];
    const lsi: string[] = [];
    const notes: string[] = entity.description ? [entity.description] : [];
    if (entity.version) notes.push(`versioned: \`${entity.version}\` checked and incremented by every write`);
    if (entity.timestamps) notes.push(`timestamps: \`${entity.timestamps.createdAt}\` on create, \`${entity.timestamps.updatedAt}\` on every write`);
    for (const index of secondaryIndexes(model)) {
      if (!populatesIndex(entity, index)) continue;
      if (index.type === IndexType.GSI) gsi.push(`${index.name}: ${keyPairText(model, entity, index)}`);
      else lsi.push(`${index.sortKey}: ${entity.keys[index.name].sk!.source}`);
      const when = sparseCondition(entity, index);
      if (when) notes.push(`in ${index.name} only when ${when}`);
    }
    return [entity.name, keys?.pk.source ?? '-', keys?.sk?.source ?? '-', gsi.join('\n') || '-', lsi.join('\n') || '-', notes.join('\n')];
  });
  rows.push(...guardRows(model));
  return {
    heading: 'Main table',
    intro: `Keys ${table.partitionKey} / ${table.sortKey}; every item carries its entity type in \`${model.typeAttribute}\`.`,
    headers: ['Entity', table.partitionKey, table.sortKey!, 'GSI keys', 'LSI sort keys', 'Notes'],
    rows,
    codeColumns: [1, 2, 3, 4],
  };
}

/** One row per unique attribute: the guard items that hold its values. */
function guardRows(model: TableModel): string[][] {
  const mark = guardMark(model.escapeChar);
  const d = model.delimiter;
  return Object.values(model.entities).flatMap((entity) => (entity.unique ?? []).map((attribute) => [
    `${entity.name} ${attribute} guard`,
    [...scopeSegments(entity, attribute), mark, entity.typeValue, attribute, `{${attribute}}`].join(d),
    mark,
    '-',
    '-',
    `one item per ${attribute} value held by an item of ${entity.name}${entity.uniqueScope?.[attribute] ? ` in one ${entity.uniqueScope[attribute]}` : ''} (type \`${mark}\`); `
      + "written and deleted in the item's transactions",
  ]));
}

/** A scoped attribute's guard key prefix as written in its template: `TENANT`, `{tenantId}`. */
function scopeSegments(entity: EntityModel, attribute: string): string[] {
  const scope = entity.uniqueScope?.[attribute];
  if (scope === undefined) return [];
  const segments = entity.keys[TABLE_INDEX].pk.segments;
  return segments.slice(0, segments.findIndex((s) => s.attribute === scope) + 1).map((s) => s.literal ?? `{${s.attribute}}`);
}
