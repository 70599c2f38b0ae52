// The design as a Mermaid flowchart, for Markdown viewers that draw Mermaid blocks: entities on the
// left, the indexes they populate (edges labelled with their key templates) in the middle, and the
// access patterns on the right, each pointing at the index it queries with its key condition.
import { keyPairText, partitionKeyText, projectionText } from './describe';
import { SortKeyCondition } from '../model/manifest';
import { IndexType, populatesIndex, TableModel } from '../model/model';

const CONDITION_TEXT: { [condition: string]: string } = {
  [SortKeyCondition.NONE]: 'partition',
  [SortKeyCondition.EQUALS]: 'sk =',
  [SortKeyCondition.BEGINS_WITH]: 'begins_with',
  [SortKeyCondition.BETWEEN]: 'between',
  [SortKeyCondition.LESS_THAN]: 'sk <',
  [SortKeyCondition.LESS_THAN_OR_EQUAL]: 'sk <=',
  [SortKeyCondition.GREATER_THAN]: 'sk >',
  [SortKeyCondition.GREATER_THAN_OR_EQUAL]: 'sk >=',
};

/**
 * Text inside a quoted Mermaid label, which reads as written (`CUSTOMER#{username}`): only a quote
 * (it ends the label), angle brackets (an HTML label reads them as markup) and a `#` that would
 * start an entity code (`#name;`, `#123;`) are written as numeric codes; line breaks become `<br/>`.
 */
export function mermaidText(text: string): string {
  return text
    .replace(/["<>]|#(?=\w+;)/g, (c) => `#${c.charCodeAt(0)};`)
    .replace(/\n/g, '<br/>');
}

/** The entity / index / access-pattern diagram as Mermaid source (no fences). */
export function mermaidDiagram(model: TableModel): string {
  const entities = Object.values(model.entities);
  const indexes = Object.values(model.indexes).filter((i) => entities.some((e) => populatesIndex(e, i)));
  const patterns = Object.values(model.patterns);
  const entityId = (name: string) => `E${entities.findIndex((e) => e.name === name)}`;
  const indexId = (name: string) => `I${indexes.findIndex((i) => i.name === name)}`;
  const lines = ['flowchart LR'];

  lines.push('  subgraph entities ["Entities"]');
  for (const e of entities) lines.push(`    ${entityId(e.name)}["${mermaidText(e.name)}"]`);
  lines.push('  end');
  lines.push('  subgraph indexes ["Indexes"]');
  for (const i of indexes) {
    const keys = i.sortKey ? `${i.partitionKey} / ${i.sortKey}` : i.partitionKey;
    const shards = i.shards ? `\n${i.shards.readCount} shards` : '';
    const kind = i.type === IndexType.TABLE ? 'table' : `${i.name} (${i.type})`;
    lines.push(`    ${indexId(i.name)}[("${mermaidText(`${kind}\n${keys}\n${projectionText(i)}${shards}`)}")]`);
  }
  lines.push('  end');
  lines.push('  subgraph patterns ["Access patterns"]');
  patterns.forEach((p, n) => lines.push(`    P${n}(["${mermaidText(p.name)}"])`));
  lines.push('  end');

  for (const e of entities) {
    for (const i of indexes) {
      if (populatesIndex(e, i)) lines.push(`  ${entityId(e.name)} -- "${mermaidText(keyPairText(model, e, i))}" --> ${indexId(i.name)}`);
    }
  }
  patterns.forEach((p, n) => {
    const index = model.indexes[p.index];
    const pk = partitionKeyText(p.pk, index, model.delimiter);
    const label = p.sk && p.sortKeyCondition !== SortKeyCondition.NONE ? `${pk}\n${CONDITION_TEXT[p.sortKeyCondition]} ${p.sk.source}` : pk;
    lines.push(`  P${n} -- "${mermaidText(label)}" --> ${indexId(p.index)}`);
  });
  return lines.join('\n') + '\n';
}
