// Bad input fails before any network call, with a code and an error naming the entity or
// pattern, the attribute and the rule. The client counts requests to prove nothing was sent
// (test/engine/engine-differences shows what each engine does when such a request is sent).
import { manifest } from '../../examples/manifest';
import { createClient } from '../../lib/runtime';
import { compileModelFile } from '../../lib/testing';
import { Engine, startEngine } from '../support/engine';
import { countRequests } from '../support/requests';

let engine: Engine;
let tableName: string;
let db: ReturnType<typeof createClient<typeof manifest>>;
let requests: ReturnType<typeof countRequests>;
const loose = () => db as unknown as {
  putItem(e: string, i: unknown, o?: unknown): Promise<void>;
  updateItem(e: string, i: unknown): Promise<unknown>;
  query(p: string, i: unknown, o?: unknown): Promise<unknown>;
};

beforeAll(async () => {
  engine = await startEngine();
  tableName = await engine.createTable();
  db = createClient({ model: compileModelFile(manifest), client: engine.newClient(), tableName });
  requests = countRequests(db.table.dynamodb);
});
afterAll(() => engine.stop());
let sentBefore = 0;
beforeEach(() => {
  sentBefore = requests.total();
});
const sent = () => requests.total() - sentBefore;

const order = { username: 'alice', orderId: 'o1', status: 'OPEN', createdAt: '2024-01-01T00:00:00Z', amount: 5 };

test.each([
  ['unknown entity', () => loose().putItem('Invoice', order), { code: 'UNKNOWN_ENTITY', entity: 'Invoice' }, /known entities: Customer, Order/],
  ['misspelled entity', () => loose().putItem('Ordr', order), { code: 'UNKNOWN_ENTITY', entity: 'Ordr' }, /is not declared in the manifest; did you mean 'Order'\? known entities: Customer, Order/],
  ['misspelled attribute', () => loose().putItem('Order', { ...order, ammount: 5 }), { code: 'UNKNOWN_ATTRIBUTE', attribute: 'ammount' }, /is not declared; did you mean 'amount'\? declared attributes/],
  ['misspelled pattern', () => loose().query('ordersForCustomr', { username: 'a' }), { code: 'UNKNOWN_PATTERN', pattern: 'ordersForCustomr' }, /did you mean 'ordersForCustomer'\? known patterns/],
  ['missing required attribute', () => loose().putItem('Order', { ...order, amount: undefined }), { code: 'MISSING_ATTRIBUTE', entity: 'Order', attribute: 'amount' }, /is required/],
  ['wrong type', () => loose().putItem('Order', { ...order, amount: '5' }), { code: 'INVALID_VALUE', attribute: 'amount' }, /must be a finite number .*got "5"/],
  ['number DynamoDB cannot store (dynalite rejects it only on send)', () => loose().putItem('Order', { ...order, amount: 5e-324 }),
    { code: 'INVALID_VALUE', attribute: 'amount' }, /magnitude 1e-130 to below 1e126/],
  ['invalid date', () => loose().putItem('Order', { ...order, createdAt: 'yesterday' }), { code: 'INVALID_VALUE', attribute: 'createdAt' }, /ISO-8601/],
  ['unknown attribute', () => loose().putItem('Order', { ...order, colour: 'red' }), { code: 'UNKNOWN_ATTRIBUTE', attribute: 'colour' }, /declared attributes/],
  ['empty table key value', () => loose().putItem('Order', { ...order, orderId: '' }), { code: 'MISSING_ATTRIBUTE', attribute: 'orderId' }, /non-empty/],
  // dynalite stores it as is; in UTF-8 it can only become a replacement character, merging keys that differ.
  ['key value with an unpaired surrogate', () => loose().putItem('Order', { ...order, orderId: 'o\ud800' }), { code: 'INVALID_VALUE', entity: 'Order', attribute: 'orderId' }, /unpaired UTF-16 surrogate/],
  ['query key value with an unpaired surrogate', () => loose().query('ordersForCustomer', { username: '\udc00a' }), { code: 'INVALID_VALUE', attribute: 'username' }, /unpaired UTF-16 surrogate/],
  ['sort key over 1024 UTF-8 bytes (400 characters)', () => loose().putItem('Order', { ...order, orderId: '€'.repeat(400) }),
    { code: 'KEY_TOO_LARGE', entity: 'Order', attribute: 'SK' }, /1206 bytes of UTF-8; DynamoDB allows 1024/],
  ['partition key over 2048 bytes', () => loose().putItem('Order', { ...order, username: '😀'.repeat(520) }), { code: 'KEY_TOO_LARGE', attribute: 'PK' }, /DynamoDB allows 2048/],
  ['GSI sort key over 1024 bytes while the table keys fit', () => loose().putItem('Membership', { username: 'é'.repeat(600), groupId: 'g', joinedAt: '2024-01-01' }),
    { code: 'KEY_TOO_LARGE', entity: 'Membership', attribute: 'GSI1SK' }, /1209 bytes of UTF-8; DynamoDB allows 1024/],
  ['unknown pattern', () => loose().query('ordersByColour', {}), { code: 'UNKNOWN_PATTERN', pattern: 'ordersByColour' }, /known patterns/],
  ['missing partition key input', () => loose().query('ordersForCustomer', {}), { code: 'MISSING_ATTRIBUTE', attribute: 'username' }, /partition key CUSTOMER#\{username\}/],
  ['input the pattern does not use', () => loose().query('customerByEmail', { email: 'e', name: 'x' }), { code: 'INVALID_QUERY_INPUT', attribute: 'name' }, /not used/],
  ['BETWEEN without bounds', () => loose().query('productsByCategory', { category: 'c' }), { code: 'INVALID_QUERY_INPUT' }, /between: \[low, high\]/],
  // DynamoDB (and dynalite) reject BETWEEN with a low bound above the high one: a ValidationException after the call.
  ['BETWEEN with the low bound above the high one', () => loose().query('productsByCategory', { category: 'c', between: [{ price: 100 }, { price: 99.99 }] }),
    // The message showed the key encodings (PRICE#P5021, PRICE#P5019999): the values as given say it plainly.
    { code: 'INVALID_QUERY_INPUT', pattern: 'productsByCategory' }, /the low bound \(price: 100\) is above the high bound \(price: 99\.99\) in PRICE#\{price\}; swap the bounds/],
  ['BETWEEN with partial bounds the wrong way round', () => loose().query('ordersForCustomerByDate', { username: 'a', between: [{ createdAt: '2024-02-01' }, { createdAt: '2024-01-01' }] }),
    { code: 'INVALID_QUERY_INPUT', pattern: 'ordersForCustomerByDate' }, /the low bound \(createdAt: "2024-02-01"\) is above the high bound \(createdAt: "2024-01-01"\)/],
  // Sent, these come back as an empty page from both DynamoDB Local and dynalite: the mistake would pass unseen.
  ['query partition key over 2048 bytes', () => loose().query('ordersForCustomer', { username: 'x'.repeat(2100) }),
    { code: 'KEY_TOO_LARGE', pattern: 'ordersForCustomer', attribute: 'PK' }, /2109 bytes of UTF-8; DynamoDB allows 2048/],
  ['query sort key over 1024 bytes', () => loose().query('orderById', { orderId: 'é'.repeat(520) }),
    { code: 'KEY_TOO_LARGE', pattern: 'orderById', attribute: 'GSI1SK' }, /1046 bytes of UTF-8; DynamoDB allows 1024/],
  ['sharded query partition key over 2048 bytes with its shard suffix', () => loose().query('ordersByStatus', { status: 'x'.repeat(2042), between: [{}, {}] }),
    { code: 'KEY_TOO_LARGE', pattern: 'ordersByStatus', attribute: 'GSI2PK' }, /2050 bytes of UTF-8; DynamoDB allows 2048/],
  // Names from a request (the example handler passes them through) that are Object.prototype members
  // were found on the model's maps: a TypeError, or an unknown attribute silently left out of the item.
  ['pattern named like an Object.prototype member', () => loose().query('constructor', {}), { code: 'UNKNOWN_PATTERN', pattern: 'constructor' }, /known patterns/],
  ['entity named like an Object.prototype member', () => loose().putItem('toString', order), { code: 'UNKNOWN_ENTITY', entity: 'toString' }, /known entities/],
  ['attribute named like an Object.prototype member', () => loose().putItem('Order', { ...order, constructor: 'x' }),
    { code: 'UNKNOWN_ATTRIBUTE', entity: 'Order', attribute: 'constructor' }, /declared attributes/],
  ['update of an attribute named like an Object.prototype member', () => loose().updateItem('Order', { username: 'alice', orderId: 'o1', valueOf: 'x' }),
    { code: 'UNKNOWN_ATTRIBUTE', entity: 'Order', attribute: 'valueOf' }, /declared attributes/],
  ['consistent read on a GSI', () => loose().query('orderById', { orderId: 'o1' }, { consistent: true }), { code: 'CONSISTENT_READ_ON_GSI', pattern: 'orderById' }, /eventually consistent/],
  ['put mode that does not exist', () => loose().putItem('Order', order, { mode: 'creat' }), { code: 'INVALID_VALUE', entity: 'Order' }, /'upsert', 'create' or 'replace'/],
  ['bad limit', () => loose().query('ordersForCustomer', { username: 'a' }, { limit: 0 }), { code: 'INVALID_QUERY_INPUT' }, /positive whole number/],
])('%s', async (_name, run, fields, message) => {
  const attempt = run();
  await expect(attempt).rejects.toMatchObject(fields);
  await expect(attempt).rejects.toThrow(message);
  expect(sent()).toBe(0);
});

test('the type system refuses a consistent read on a GSI pattern and accepts it on an LSI', async () => {
  // @ts-expect-error orderById queries GSI1
  await expect(db.query('orderById', { orderId: 'o1' }, { consistent: true })).rejects.toMatchObject({ code: 'CONSISTENT_READ_ON_GSI' });
  expect(sent()).toBe(0);
  await db.query('ordersForCustomerByDate', { username: 'a', between: [{}, {}] }, { consistent: true });
  expect(sent()).toBe(1);
});
