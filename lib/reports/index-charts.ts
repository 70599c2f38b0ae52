// One entity chart per secondary index: which entities an index holds, under
// which keys, and the access patterns that read them there. Overloaded indexes show several rows.
import { attributeKeyText, partitionKeyText, projectionText, secondaryIndexes } from './describe';
import { ReportTable } from './report-table';
import { hashKeyAttributes, IndexModel, IndexType, populatesIndex, TableModel } from '../model/model';

/** A chart for every secondary index at least one entity populates, in model order. */
export function indexCharts(model: TableModel): ReportTable[] {
  return secondaryIndexes(model)
    .filter((index) => populating(model, index).length > 0)
    .map((index) => indexChart(model, index));
}

/** Secondary index slots no entity populates (e.g. LSI slots reserved for later). */
export function emptyIndexes(model: TableModel): IndexModel[] {
  return secondaryIndexes(model).filter((index) => populating(model, index).length === 0);
}

function indexChart(model: TableModel, index: IndexModel): ReportTable {
  const rows = populating(model, index).map((entity) => {
    const keys = entity.keys[index.name];
    const patterns = Object.values(model.patterns)
      .filter((p) => p.index === index.name && p.entities.includes(entity.name))
      .map((p) => (p.description ? `${p.name}: ${p.description}` : p.name));
    // A multi-attribute key holds the entity's own attributes: its columns name them.
    const row = index.partitionAttributes ? [entity.name] : [entity.name, partitionKeyText(keys.pk, index, model.delimiter)];
    if (index.sortKey && !index.partitionAttributes) row.push(keys.sk?.source ?? '-');
    row.push(patterns.join('\n') || '-');
    return row;
  });
  const headers = index.partitionAttributes
    ? ['Entity', 'Access patterns']
    : ['Entity', index.partitionKey, ...(index.sortKey ? [index.sortKey] : []), 'Access patterns'];
  return {
    heading: index.description ? `${index.name}: ${index.description}` : index.name,
    intro: describeIndex(index),
    headers,
    rows,
    codeColumns: index.partitionAttributes ? [] : index.sortKey ? [1, 2] : [1],
  };
}

function describeIndex(index: IndexModel): string {
  const keys = index.partitionAttributes
    ? `the items' own attributes: partition ${attributeKeyText(hashKeyAttributes(index))}${index.sortAttributes?.length ? `, sort ${attributeKeyText(index.sortAttributes)}` : ''}`
    : index.sortKey ? `${index.partitionKey} / ${index.sortKey}` : index.partitionKey;
  const parts = [
    `${index.type === IndexType.LSI ? 'LSI' : 'GSI'} on ${keys}`,
    `projection ${projectionText(index)}`,
    index.type === IndexType.LSI ? 'strong or eventual reads' : 'eventually consistent',
  ];
  const shards = index.shards;
  if (shards) {
    const peak = shards.peakWritesPerSecond !== undefined ? ` for a peak of ${shards.peakWritesPerSecond} writes/s` : '';
    const reads = shards.readCount > shards.writeCount ? `, reads fan out over ${shards.readCount}` : '';
    parts.push(`partition key write-sharded ${shards.strategy} over ${shards.writeCount} shard(s)${peak}${reads}`);
  }
  return parts.join('; ') + '.';
}

function populating(model: TableModel, index: IndexModel) {
  return Object.values(model.entities).filter((e) => populatesIndex(e, index));
}
