// `docs --json`: the design as data shaped like the compiled model (entities, indexes, access
// patterns, in declaration order), for scripts and other tools. Facts only: templates as written,
// physical attribute names, projections, shard counts; nothing rendered for reading.
import { fetchText, partitionKeyText, sparseCondition } from './describe';
import { keyCondition } from './pattern-table';
import { hashKeyAttributes, populatesIndex, ShardModel, TableModel } from '../model/model';

/** One entity's key templates on one index slot. */
export interface DesignJsonKeys {
  readonly index: string;
  /** Partition key template as written. */
  readonly pk: string;
  /** Partition key as stored: with the shard suffix range on a sharded GSI, e.g. `ORDER#{status}#[0-2]`. */
  readonly storedPk: string;
  readonly sk?: string;
  /** When the entity is in the index only for some items (a sparse index), the condition. */
  readonly onlyWhen?: string;
}

/** The design of one table as data. */
export interface DesignJson {
  readonly fingerprint: string;
  readonly delimiter: string;
  readonly typeAttribute: string;
  readonly localIndexesEnabled: boolean;
  readonly entities: {
    readonly name: string;
    readonly typeValue: string;
    readonly description?: string;
    readonly attributes: { readonly name: string; readonly type: string; readonly required: boolean }[];
    /** The table (`table`) first, then each index slot it populates. */
    readonly keys: DesignJsonKeys[];
  }[];
  readonly indexes: {
    readonly name: string;
    readonly type: string;
    /**
     * The partition key's attributes, in key order: the one composed key attribute (`GSI1PK`), or
     * the 1-4 attributes a multi-attribute GSI keys on.
     */
    readonly partitionKey: string[];
    /** The sort key's attributes, in key order; empty without a sort key. */
    readonly sortKey: string[];
    readonly projection: string;
    /** Non-key attributes an INCLUDE index projects. */
    readonly include?: string[];
    readonly shards?: { readonly writeCount: number; readonly readCount: number; readonly strategy: string; readonly attribute?: string };
    /** Entities whose templates populate it; empty for an unused slot. */
    readonly entities: string[];
  }[];
  readonly accessPatterns: {
    readonly name: string;
    readonly description?: string;
    readonly entities: string[];
    readonly index: string;
    readonly sortKeyCondition: string;
    readonly order: string;
    readonly consistentRead: boolean;
    /**
     * The key condition with templates in place of values; on a multi-attribute GSI one line per
     * number of sort attributes given.
     */
    readonly keyCondition: string;
    /** `NONE`, `BATCH_GET` (GSI) or `LSI_FETCH`: how attributes the index lacks are read. */
    readonly fetch: string;
    readonly fetchText: string;
  }[];
}

/** The design as data. */
export function designJson(model: TableModel): DesignJson {
  const entities = Object.values(model.entities);
  return {
    fingerprint: model.fingerprint,
    delimiter: model.delimiter,
    typeAttribute: model.typeAttribute,
    localIndexesEnabled: model.localIndexesEnabled,
    entities: entities.map((e) => ({
      name: e.name,
      typeValue: e.typeValue,
      ...(e.description ? { description: e.description } : {}),
      attributes: Object.values(e.attributes).map((a) => ({ name: a.name, type: a.type, required: a.required })),
      keys: Object.values(e.keys).map((k) => {
        const onlyWhen = sparseCondition(e, model.indexes[k.index]);
        return {
          index: k.index,
          pk: k.pk.source,
          storedPk: partitionKeyText(k.pk, model.indexes[k.index], model.delimiter),
          ...(k.sk ? { sk: k.sk.source } : {}),
          ...(onlyWhen ? { onlyWhen } : {}),
        };
      }),
    })),
    indexes: Object.values(model.indexes).map((i) => ({
      name: i.name,
      type: i.type,
      partitionKey: i.partitionAttributes ? hashKeyAttributes(i).map((a) => a.name) : [i.partitionKey],
      sortKey: i.partitionAttributes ? (i.sortAttributes ?? []).map((a) => a.name) : i.sortKey ? [i.sortKey] : [],
      projection: i.projection,
      ...(i.projection === 'INCLUDE' ? { include: i.nonKeyAttributes } : {}),
      ...(i.shards ? { shards: shardsOf(i.shards) } : {}),
      entities: entities.filter((e) => populatesIndex(e, i)).map((e) => e.name),
    })),
    accessPatterns: Object.values(model.patterns).map((p) => ({
      name: p.name,
      ...(p.description ? { description: p.description } : {}),
      entities: p.entities,
      index: p.index,
      sortKeyCondition: p.sortKeyCondition,
      order: p.order,
      consistentRead: p.consistentRead,
      keyCondition: keyCondition(model, p, model.indexes[p.index]),
      fetch: p.fetch,
      fetchText: fetchText(p.fetch),
    })),
  };
}

function shardsOf(s: ShardModel) {
  return { writeCount: s.writeCount, readCount: s.readCount, strategy: s.strategy, ...(s.attribute ? { attribute: s.attribute } : {}) };
}
