// The items a visual view shows: the sample data a project keeps for `single-table local` (items per
// entity, one query input per pattern), or, where it has none, items made up from the manifest.
// Every item becomes what DynamoDB would store, with the keys the runtime composes, so the view
// shows physical keys exactly as a table holds them.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { didYouMean } from '../../model/closest-name';
import { AttributeKind, SortKeyCondition } from '../../model/manifest';
import { EntityModel, IndexModel, PatternModel, patternKeyAttributes, TableModel } from '../../model/model';
import { itemToWrite } from '../../runtime/items/requests';
import { planQuery } from '../../runtime/query/plan';

/** Sample data in the `single-table local` format: items by entity name, a query input by pattern name. */
export interface ViewSamples {
  /** Items by entity name, as the runtime's `put` is given them. */
  readonly items?: { readonly [entity: string]: readonly Record<string, unknown>[] };
  /** One input per access pattern, as the runtime's `query` is given it. */
  readonly queries?: { readonly [pattern: string]: Record<string, unknown> };
}

/** One item as stored: its entity and every attribute DynamoDB holds (keys and type included). */
export interface StoredItem {
  readonly entity: string;
  readonly attributes: Readonly<Record<string, AttributeValue>>;
}

/** Sample data with every gap filled: items for each entity and an input for each pattern. */
export interface CompleteSamples {
  readonly items: { readonly [entity: string]: readonly Record<string, unknown>[] };
  readonly queries: { readonly [pattern: string]: Record<string, unknown> };
  /** Entities and patterns whose samples were made up from the manifest. */
  readonly generated: string[];
}

const ITEMS_PER_ENTITY = 2;

/**
 * Refuses samples the runtime would refuse, before any of them is used: items of an entity the
 * model does not declare, queries of a pattern it does not declare, an item `put` would refuse or
 * a query input `query` would refuse, each named by its position and entity or pattern.
 */
export function checkSamples(model: TableModel, samples: ViewSamples): void {
  checkSampleNames(model, samples);
  storedItems(model, samples.items ?? {});
  for (const [name, input] of Object.entries(samples.queries ?? {})) {
    try {
      planQuery(model, name, input);
    } catch (e) {
      throw new Error(`sample query for '${name}': ${(e as Error).message}`);
    }
  }
}

function checkSampleNames(model: TableModel, samples: ViewSamples): void {
  for (const name of Object.keys(samples.items ?? {})) {
    if (!Object.hasOwn(model.entities, name)) {
      throw new Error(`sample items for '${name}': no such entity; ${didYouMean(name, Object.keys(model.entities))}use one of ${Object.keys(model.entities).join(', ')}`);
    }
  }
  for (const name of Object.keys(samples.queries ?? {})) {
    if (!Object.hasOwn(model.patterns, name)) {
      throw new Error(`sample query for '${name}': no such access pattern; ${didYouMean(name, Object.keys(model.patterns))}use one of ${Object.keys(model.patterns).join(', ')}`);
    }
  }
}

/** The given samples, with items made up for entities that have none and inputs for patterns that have none. */
export function completeSamples(model: TableModel, samples: ViewSamples = {}): CompleteSamples {
  checkSampleNames(model, samples);
  const generated: string[] = [];
  const items: { [entity: string]: readonly Record<string, unknown>[] } = {};
  for (const entity of Object.values(model.entities)) {
    const given = samples.items?.[entity.name];
    if (given && given.length > 0) {
      items[entity.name] = given;
    } else {
      items[entity.name] = Array.from({ length: ITEMS_PER_ENTITY }, (_, i) => madeUpItem(entity, i + 1));
      generated.push(entity.name);
    }
  }
  const queries: { [pattern: string]: Record<string, unknown> } = {};
  for (const pattern of Object.values(model.patterns)) {
    const given = samples.queries?.[pattern.name];
    if (given) {
      queries[pattern.name] = given;
    } else {
      queries[pattern.name] = madeUpInput(pattern, model.indexes[pattern.index], items);
      generated.push(pattern.name);
    }
  }
  return { items, queries, generated };
}

/** Every sample item as stored; a sample the runtime would refuse fails here, naming it. */
export function storedItems(model: TableModel, items: CompleteSamples['items']): StoredItem[] {
  return Object.entries(items).flatMap(([name, list]) => list.map((item, i) => {
    try {
      return { entity: name, attributes: itemToWrite(model, model.entities[name], item) };
    } catch (e) {
      throw new Error(`sample item ${i + 1} of '${name}': ${(e as Error).message}`);
    }
  }));
}

/**
 * A made-up item. An attribute gets the same value in every entity that declares it, so entities
 * that share a partition key template (`CUSTOMER#{username}`) land in one item collection, as
 * real data would. The second item's booleans are false, so sparse boolean indexes show an absence.
 */
function madeUpItem(entity: EntityModel, n: number): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const attr of Object.values(entity.attributes)) {
    item[attr.name] = madeUpValue(attr.name, attr.type, n);
  }
  return item;
}

function madeUpValue(name: string, kind: AttributeKind, n: number): unknown {
  switch (kind) {
    case AttributeKind.NUMBER: return n * 10;
    case AttributeKind.BOOLEAN: return n === 1;
    case AttributeKind.DATE: return `2024-01-0${n}T12:00:00.000Z`;
    case AttributeKind.LIST: return [`${name}-${n}`];
    case AttributeKind.MAP: return { value: `${name}-${n}` };
    case AttributeKind.STRING_SET: return new Set([`${name}-${n}`]);
    case AttributeKind.NUMBER_SET: return new Set([n]);
    default: return `${name}-${n}`;
  }
}

/**
 * A query input taken from the first sample item of the pattern's entities that is in its index:
 * the partition key's attributes, and the sort-key attributes the condition uses (a range around
 * the item's own value, so the example finds it).
 */
function madeUpInput(pattern: PatternModel, index: IndexModel, items: CompleteSamples['items']): Record<string, unknown> {
  const keys = patternKeyAttributes(pattern, index);
  const item = pattern.entities
    .flatMap((e) => (items[e] ?? []).filter((i) => keys.partition.every((a) => present(i[a]))))[0] ?? {};
  const input: Record<string, unknown> = {};
  for (const a of keys.partition) input[a] = item[a];
  const first = keys.sort.find((a) => present(item[a]));
  switch (pattern.sortKeyCondition) {
    case SortKeyCondition.EQUALS:
      for (const a of keys.sort) input[a] = item[a];
      break;
    case SortKeyCondition.BETWEEN:
      input.between = first ? [{ [first]: item[first] }, { [first]: item[first] }] : [{}, {}];
      break;
    case SortKeyCondition.GREATER_THAN_OR_EQUAL:
    case SortKeyCondition.LESS_THAN_OR_EQUAL:
      if (first) input[first] = item[first];
      break;
    default:
      // BEGINS_WITH with no sort-key attribute: the template's leading literals, the whole group.
      // Strict comparisons with no attribute are open: every key of the entity.
      break;
  }
  return input;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && value !== false;
}
