// Every library's builders under one interface, in the order the results table lists them.
// The first is the reference the others are compared to.
import type { PutItemCommandInput, QueryCommandInput } from '@aws-sdk/client-dynamodb';
import * as electrodb from './electrodb';
import * as handWritten from './hand-written';
import * as onetable from './onetable';
import * as ours from './ours';
import * as oursAccess from './ours-access';
import * as toolbox from './toolbox';
import type { Order } from '../model/order';

export interface Peer {
  readonly name: string;
  /** PutItem input of an order, not sent. OneTable's API returns a promise. */
  readonly buildPut: (order: Order) => PutItemCommandInput | Promise<PutItemCommandInput>;
  /** Query input of the orders with a status, on GSI2, not sent. */
  readonly buildQuery: (status: string) => QueryCommandInput | Promise<QueryCommandInput>;
}

export const REFERENCE = 'hand-written';
/** The bench handler's path (the generated access functions): the row whose bundle and targets are ours. */
export const OURS = 'cdk-single-table';
/** The same builds through the generic operations (putItem, query) over the model file. */
export const OURS_GENERIC = 'cdk-single-table (no generated code)';

const peer = (name: string, m: Omit<Peer, 'name'>): Peer => ({ name, buildPut: m.buildPut, buildQuery: m.buildQuery });

export const PEERS: readonly Peer[] = [
  peer(REFERENCE, handWritten),
  peer(OURS, oursAccess),
  peer(OURS_GENERIC, ours),
  peer('dynamodb-toolbox', toolbox),
  peer('dynamodb-onetable', onetable),
  peer('electrodb', electrodb),
];
