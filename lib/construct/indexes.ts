// Secondary indexes rendered from the model: exactly the declared GSIs and, unless turned off, the
// five LSI slots. Composed key attributes are strings; a multi-attribute GSI keys on the items' own
// attributes with their types (a sharded one also on its NUMBER shard attribute, last). CDK derives the attribute definitions from these key schemas, so only
// key attributes in use are defined.
import { AttributeType, GlobalSecondaryIndexPropsV2, LocalSecondaryIndexProps, ProjectionType } from 'aws-cdk-lib/aws-dynamodb';
import { BillingFacts, globalIndexCapacity } from './billing';
import { globalIndexFeatures } from './features/render';
import type { SingleTableProps } from './props';
import { AttributeKind, ProjectionKind } from '../model/manifest';
import { hashKeyAttributes, IndexModel, IndexType, KeyAttributeModel, TableModel } from '../model/model';

const PROJECTION: Record<ProjectionKind, ProjectionType> = {
  [ProjectionKind.ALL]: ProjectionType.ALL,
  [ProjectionKind.KEYS_ONLY]: ProjectionType.KEYS_ONLY,
  [ProjectionKind.INCLUDE]: ProjectionType.INCLUDE,
};

function projection(index: IndexModel): Pick<GlobalSecondaryIndexPropsV2, 'projectionType' | 'nonKeyAttributes'> {
  return {
    projectionType: PROJECTION[index.projection],
    nonKeyAttributes: index.projection === ProjectionKind.INCLUDE ? [...index.nonKeyAttributes] : undefined,
  };
}

const stringKey = (name: string) => ({ name, type: AttributeType.STRING });

// A DATE is stored as an ISO-8601 string, so it keys (and sorts) as one.
const keyAttribute = (a: KeyAttributeModel) =>
  ({ name: a.name, type: a.kind === AttributeKind.NUMBER ? AttributeType.NUMBER : AttributeType.STRING });

/** An index's key: a composed string key, or its multi-attribute key in TableV2's `partitionKeys`/`sortKeys`. */
function keyOf(index: IndexModel): Pick<GlobalSecondaryIndexPropsV2, 'partitionKey' | 'sortKey' | 'partitionKeys' | 'sortKeys'> {
  if (index.partitionAttributes) {
    const sortKeys = (index.sortAttributes ?? []).map(keyAttribute);
    return { partitionKeys: hashKeyAttributes(index).map(keyAttribute), sortKeys: sortKeys.length ? sortKeys : undefined };
  }
  return { partitionKey: stringKey(index.partitionKey), sortKey: index.sortKey === undefined ? undefined : stringKey(index.sortKey) };
}

/** The declared GSIs, in manifest order. */
export function globalSecondaryIndexes(model: TableModel, props: SingleTableProps, billing: BillingFacts): GlobalSecondaryIndexPropsV2[] {
  return indexesOf(model, IndexType.GSI).map((index) => ({
    indexName: index.name,
    ...keyOf(index),
    ...projection(index),
    ...globalIndexCapacity(index, billing),
    ...globalIndexFeatures(props, index.name),
  }));
}

/** The LSI slots (none when local indexes are turned off). */
export function localSecondaryIndexes(model: TableModel): LocalSecondaryIndexProps[] {
  return indexesOf(model, IndexType.LSI).map((index) => ({
    indexName: index.name,
    sortKey: stringKey(index.sortKey!),
    ...projection(index),
  }));
}

function indexesOf(model: TableModel, type: IndexType): IndexModel[] {
  return Object.values(model.indexes).filter((i) => i.type === type);
}
