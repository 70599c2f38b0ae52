// OneTable 2: the Order model as a OneTable schema. With `execute: false` a call returns the
// command it would send instead of sending it; with an SDK v3 client that command is already
// marshalled to AttributeValues. `exists: null` makes `create` an unconditional put, as the
// other builders here; `log: false` keeps the not-executed command out of the log.
import { DynamoDBClient, PutItemCommandInput, QueryCommandInput } from '@aws-sdk/client-dynamodb';
// OneTable's package points its typings at its ES module build; its CommonJS build is what runs here.
type OneTable = typeof import('dynamodb-onetable', { with: { 'resolution-mode': 'import' } });
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Table } = require('dynamodb-onetable') as OneTable;
import { Order, TABLE_NAME } from '../model/order';

const schema = {
  format: 'onetable:1.1.0',
  version: '0.0.1',
  indexes: {
    primary: { hash: 'PK', sort: 'SK' },
    GSI1: { hash: 'GSI1PK', sort: 'GSI1SK' },
    GSI2: { hash: 'GSI2PK', sort: 'GSI2SK' },
  },
  models: {
    Order: {
      PK: { type: String, value: 'CUSTOMER#${username}' },
      SK: { type: String, value: 'ORDER#${orderId}' },
      GSI1PK: { type: String, value: 'ORDER#${orderId}' },
      GSI1SK: { type: String, value: 'ORDER#${orderId}' },
      GSI2PK: { type: String, value: 'ORDER#${status}' },
      GSI2SK: { type: String, value: '${createdAt}' },
      username: { type: String, required: true },
      orderId: { type: String, required: true },
      status: { type: String, required: true },
      createdAt: { type: String, required: true },
      amount: { type: Number, required: true },
    },
  } as const,
  params: { isoDates: true, timestamps: false },
};

// The client is never called (nothing executes); OneTable needs it to marshall for SDK v3.
export const table = new Table({ name: TABLE_NAME, client: new DynamoDBClient({}), schema, partial: false });
export const OrderModel = table.getModel('Order');

// OneTable's API is async even when nothing is sent: the benchmark awaits it, as callers must.
export async function buildPut(order: Order): Promise<PutItemCommandInput> {
  return await OrderModel.create(order, { execute: false, exists: null, log: false }) as unknown as PutItemCommandInput;
}

export async function buildQuery(status: string): Promise<QueryCommandInput> {
  return await OrderModel.find({ status }, { index: 'GSI2', execute: false, log: false }) as unknown as QueryCommandInput;
}
