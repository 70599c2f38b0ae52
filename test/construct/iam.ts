// Evaluates a function's synthesized IAM policy as AWS would (the @cloud-copilot/iam-simulate
// evaluator), against requests taken from the runtime's own request builders: the action, the
// table or index ARN and the `dynamodb:LeadingKeys` values a request carries.
import type { AttributeValue, BatchGetItemCommandInput, GetItemCommandInput, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { Stack } from 'aws-cdk-lib';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { statementsOf } from './policy';
import { shardedKey } from '../../lib/keys/shard';
import { TABLE_INDEX, TableModel } from '../../lib/model/model';
import { shardsToQuery } from '../../lib/runtime/query/fanout-shards';
import { buildQueryInput, planQuery, shardQueryInput } from '../../lib/runtime/query/plan';

const ACCOUNT = '123456789012';
const REGION = 'eu-west-1';
export const TABLE_NAME = 'Orders';
const TABLE_ARN = `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${TABLE_NAME}`;

/** One request as IAM authorizes it. `leadingKeys` undefined: the request carries none. */
export interface IamRequest {
  readonly action: string;
  readonly resource: string;
  readonly leadingKeys?: string[];
  /** Further request context, e.g. the principal's tags. */
  readonly context?: Record<string, string>;
}

/** The identity policy a grant put on the function's role, with the ARNs of a deployment. */
export function policyOf(stack: Stack, fn: IFunction): object {
  const values = { table: TABLE_ARN, key: `arn:aws:kms:${REGION}:${ACCOUNT}:key/k`, region: REGION, partition: 'aws', account: ACCOUNT };
  return { Version: '2012-10-17', Statement: statementsOf(stack, fn, values) };
}

/** Whether the policy allows the request; throws when the evaluator rejects the request or policy as malformed. */
export async function allows(policy: object, request: IamRequest): Promise<boolean> {
  const result = await runSimulation({
    identityPolicies: [{ name: 'grant', policy }],
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    request: {
      action: request.action,
      principal: `arn:aws:iam::${ACCOUNT}:role/fn`,
      resource: { accountId: ACCOUNT, resource: request.resource },
      contextVariables: { ...request.context, ...(request.leadingKeys && { 'dynamodb:LeadingKeys': request.leadingKeys }) },
    },
  }, {});
  if (result.resultType !== 'single') throw new Error(`the evaluator refused the simulation: ${JSON.stringify(result)}`);
  return result.overallResult === 'Allowed';
}

/** Every Query the runtime sends for a pattern and input: one, or one per shard it reads. */
export function patternQueries(model: TableModel, pattern: string, input: Record<string, unknown>): IamRequest[] {
  const plan = planQuery(model, pattern, input);
  const base = buildQueryInput(model, TABLE_NAME, plan, plan.condition.pk);
  const inputs = plan.index.shards
    ? shardsToQuery(model, plan, input).map((shard) => shardQueryInput(base, ':pk', { S: shardedKey(plan.condition.pk, shard, model.delimiter) }, undefined, 100))
    : [base];
  return inputs.map((i) => queryRequest(model, i));
}

/** A Query: on the table or the index it names, carrying the partition key value its key condition sets. */
export function queryRequest(model: TableModel, input: QueryCommandInput): IamRequest {
  const partitionKey = model.indexes[input.IndexName ?? TABLE_INDEX].partitionKey;
  const name = Object.entries(input.ExpressionAttributeNames!).find(([, attribute]) => attribute === partitionKey)![0];
  const value = new RegExp(`(?:^|\\s)${name} = (:\\w+)`).exec(input.KeyConditionExpression!)![1];
  return {
    action: 'dynamodb:Query',
    resource: input.IndexName ? `${TABLE_ARN}/index/${input.IndexName}` : TABLE_ARN,
    leadingKeys: [input.ExpressionAttributeValues![value].S!],
  };
}

/** A GetItem (or another single-item action on a key): the table, the key's partition key value. */
export function itemRequest(model: TableModel, input: Pick<GetItemCommandInput, 'Key'>, action = 'dynamodb:GetItem'): IamRequest {
  return { action, resource: TABLE_ARN, leadingKeys: [input.Key![model.indexes[TABLE_INDEX].partitionKey].S!] };
}

/** A BatchGetItem: the table, the partition key value of every key it asks for. */
export function batchGetRequest(model: TableModel, input: BatchGetItemCommandInput): IamRequest {
  const keys = Object.values(input.RequestItems!).flatMap((r) => r.Keys!);
  return { action: 'dynamodb:BatchGetItem', resource: TABLE_ARN, leadingKeys: keys.map((k) => k[model.indexes[TABLE_INDEX].partitionKey].S!) };
}

/** The same request on another resource, e.g. another index. */
export function onIndex(request: IamRequest, index: string): IamRequest {
  return { ...request, resource: index === TABLE_INDEX ? TABLE_ARN : `${TABLE_ARN}/index/${index}` };
}

/** The BatchGetItem the runtime sends to fetch index entries' items: their table keys, read off the entries. */
export function fetchRequest(model: TableModel, entries: Record<string, AttributeValue>[]): IamRequest {
  const { partitionKey, sortKey } = model.indexes[TABLE_INDEX];
  const Keys = entries.map((e) => ({ [partitionKey]: e[partitionKey], [sortKey!]: e[sortKey!] }));
  return batchGetRequest(model, { RequestItems: { [TABLE_NAME]: { Keys } } });
}
