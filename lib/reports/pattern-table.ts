// The access-pattern table: for every named pattern, the index it queries, the key condition it
// sends, its order and consistency, what the index projects and whether a follow-up fetch is needed.
import { fetchText, partitionKeyText, projectionText } from './describe';
import { ReportTable } from './report-table';
import { AttributeKind, ShardStrategy, SortKeyCondition, SortOrder } from '../model/manifest';
import { IndexModel, PatternModel, SortKeyCoverage, TableModel } from '../model/model';

const COMPARISON: { [condition: string]: string } = {
  [SortKeyCondition.LESS_THAN]: '<',
  [SortKeyCondition.LESS_THAN_OR_EQUAL]: '<=',
  [SortKeyCondition.GREATER_THAN]: '>',
  [SortKeyCondition.GREATER_THAN_OR_EQUAL]: '>=',
};

/** The access-pattern table. */
export function patternTable(model: TableModel): ReportTable {
  const rows = Object.values(model.patterns).map((p) => {
    const index = model.indexes[p.index];
    return [
      p.description ? `${p.name}: ${p.description}` : p.name,
      p.entities.join(', '),
      p.index,
      keyCondition(model, p, index),
      p.order === SortOrder.DESCENDING ? 'descending' : 'ascending',
      p.consistentRead ? 'strong' : 'eventual',
      projectionText(index),
      fetchText(p.fetch),
    ];
  });
  return {
    heading: 'Access patterns',
    headers: ['Pattern', 'Returns', 'Index', 'Key condition', 'Order', 'Consistency', 'Projection', 'Follow-up fetch'],
    rows,
    codeColumns: [3],
  };
}

/** The key condition a pattern's query sends, with templates in place of values. */
export function keyCondition(model: TableModel, p: PatternModel, index: IndexModel): string {
  if (!p.pk) return attributeKeyCondition(p, index);
  let text = `${index.partitionKey} = ${partitionKeyText(p.pk, index, model.delimiter)}`;
  const sk = p.sk?.source;
  const name = index.sortKey;
  if (sk && name) {
    // On a collection a complete prefix stands for the keys under it (and the key itself where an
    // entity's key ends there), as the runtime sends it: up to prefix + escape character, which
    // sorts right after every prefix + delimiter + ... key.
    const coverage = p.skCoverage ?? SortKeyCoverage.KEY;
    const lo = coverage === SortKeyCoverage.BELOW ? sk + model.delimiter : sk;
    const hi = coverage === SortKeyCoverage.KEY ? sk : sk + model.escapeChar;
    switch (p.sortKeyCondition) {
      case SortKeyCondition.NONE: break;
      case SortKeyCondition.EQUALS:
      case SortKeyCondition.BEGINS_WITH:
        if (coverage === SortKeyCoverage.KEY_AND_BELOW) text += ` AND ${name} BETWEEN ${lo} AND ${hi}`;
        else if (coverage === SortKeyCoverage.BELOW || p.sortKeyCondition === SortKeyCondition.BEGINS_WITH) text += ` AND begins_with(${name}, ${lo})`;
        else text += ` AND ${name} = ${sk}`;
        break;
      case SortKeyCondition.BETWEEN: text += ` AND ${name} BETWEEN ${lo} AND ${hi}`; break;
      case SortKeyCondition.GREATER_THAN:
      case SortKeyCondition.LESS_THAN_OR_EQUAL: text += ` AND ${name} ${COMPARISON[p.sortKeyCondition]} ${hi}`; break;
      default: text += ` AND ${name} ${COMPARISON[p.sortKeyCondition]} ${lo}`;
    }
  }
  const shards = index.shards;
  if (shards && shards.readCount > 1) {
    text += shards.strategy === ShardStrategy.ATTRIBUTE
      ? ` (one shard per declared count when ${shards.attribute} is in the key condition, else ${shards.readCount} in parallel)`
      : ` (${shards.readCount} queries in parallel, merged)`;
  }
  return text;
}

/**
 * The key conditions a pattern on a multi-attribute GSI sends, one line per number of sort
 * attributes given (none, the first, the first two, ...): every partition attribute by equality,
 * the given sort attributes left to right by equality but the last one, which takes the condition.
 * A NUMBER last under BEGINS_WITH has no line: the runtime refuses it.
 */
function attributeKeyCondition(p: PatternModel, index: IndexModel): string {
  const equal = (name: string) => `${name} = {${name}}`;
  const partition = index.partitionAttributes!.map((a) => equal(a.name));
  const sort = index.sortAttributes ?? [];
  const lines = [partition.join(' AND ')];
  if (p.sortKeyCondition === SortKeyCondition.NONE) return lines[0];
  sort.forEach((attr, i) => {
    const name = attr.name;
    const before = sort.slice(0, i).map((a) => equal(a.name));
    let last: string;
    switch (p.sortKeyCondition) {
      case SortKeyCondition.EQUALS: last = equal(name); break;
      case SortKeyCondition.BEGINS_WITH:
        if (attr.kind === AttributeKind.NUMBER) return;
        last = `begins_with(${name}, {${name}})`;
        break;
      case SortKeyCondition.BETWEEN: last = `${name} BETWEEN {low.${name}} AND {high.${name}}`; break;
      default: last = `${name} ${COMPARISON[p.sortKeyCondition]} {${name}}`;
    }
    lines.push([...partition, ...before, last].join(' AND '));
  });
  return lines.join('\n');
}
