// The example app's access-pattern manifest: e-commerce orders, an overloaded GSI and an
// adjacency list, a sparse boolean index and overloaded LSI slots, with a write-sharded status index.
// The stack (examples/stack.ts) and the Lambda handler (examples/handler.ts) both import it.
import { AttributeKind, defineManifest, ProjectionKind, SortKeyCondition, SortOrder } from '../lib/runtime';

export const manifest = defineManifest({
  entities: {
    Customer: {
      description: 'A shopper; also a user who joins groups',
      attributes: {
        username: { type: AttributeKind.STRING, required: true },
        email: { type: AttributeKind.STRING, required: true, typicalSizeBytes: 24 },
        name: { type: AttributeKind.STRING, required: true },
        createdAt: { type: AttributeKind.DATE, required: true },
      },
      pk: 'CUSTOMER#{username}',
      sk: 'CUSTOMER#{username}',
      indexes: { GSI1: { pk: 'EMAIL#{email}', sk: 'CUSTOMER#{username}' } },
    },
    Order: {
      description: "A customer's order",
      attributes: {
        username: { type: AttributeKind.STRING, required: true },
        orderId: { type: AttributeKind.STRING, required: true },
        status: { type: AttributeKind.STRING, required: true },
        createdAt: { type: AttributeKind.DATE, required: true },
        amount: { type: AttributeKind.NUMBER, required: true },
        trackingNumber: { type: AttributeKind.STRING },
        lines: { type: AttributeKind.LIST, typicalSizeBytes: 400 },
      },
      pk: 'CUSTOMER#{username}',
      sk: 'ORDER#{orderId}',
      // Bounds each customer's item collection, which LSI1 and LSI2 cap at 10 GB.
      maxItemsPerPartition: 10_000,
      indexes: {
        GSI1: { pk: 'ORDER#{orderId}', sk: 'ORDER#{orderId}' },
        GSI2: { pk: 'ORDER#{status}', sk: '{createdAt}' },
        LSI1: { sk: 'ORDERED#{createdAt}' },
        LSI2: { sk: 'AMOUNT#{amount}' },
      },
    },
    Product: {
      description: 'A catalogue product',
      attributes: {
        productId: { type: AttributeKind.STRING, required: true },
        category: { type: AttributeKind.STRING, required: true },
        price: { type: AttributeKind.NUMBER, required: true },
        name: { type: AttributeKind.STRING, required: true },
      },
      pk: 'PRODUCT#{productId}',
      sk: 'PRODUCT#{productId}',
      indexes: { GSI1: { pk: 'CATEGORY#{category}', sk: 'PRICE#{price}' } },
    },
    Group: {
      description: 'A group customers can join',
      attributes: {
        groupId: { type: AttributeKind.STRING, required: true },
        name: { type: AttributeKind.STRING, required: true },
      },
      pk: 'GROUP#{groupId}',
      sk: 'GROUP#{groupId}',
      indexes: { GSI1: { pk: 'GROUP#{groupId}', sk: 'GROUP#{groupId}' } },
    },
    Membership: {
      description: 'Adjacency-list edge: a customer belongs to a group',
      attributes: {
        username: { type: AttributeKind.STRING, required: true },
        groupId: { type: AttributeKind.STRING, required: true },
        joinedAt: { type: AttributeKind.DATE, required: true },
      },
      pk: 'CUSTOMER#{username}',
      sk: 'GROUP#{groupId}',
      // Memberships share the customer's item collection with the orders on the LSIs.
      maxItemsPerPartition: 1_000,
      indexes: { GSI1: { pk: 'GROUP#{groupId}', sk: 'CUSTOMER#{username}' } },
    },
    Task: {
      description: 'A background task; in the running-tasks index only while running',
      attributes: {
        taskId: { type: AttributeKind.STRING, required: true },
        name: { type: AttributeKind.STRING, required: true },
        running: { type: AttributeKind.BOOLEAN },
        startedAt: { type: AttributeKind.DATE },
      },
      pk: 'TASK#{taskId}',
      sk: 'TASK#{taskId}',
      // Every running task is in one GSI3 partition (RUNNING#true), which takes about 1,000 writes/s.
      writesPerSecond: 50,
      indexes: { GSI3: { pk: 'RUNNING#{running}', sk: '{startedAt}' } },
    },
  },
  globalIndexes: {
    GSI1: { projection: ProjectionKind.ALL, description: 'Overloaded lookups: email, order id, category, group members' },
    GSI2: {
      projection: ProjectionKind.INCLUDE,
      include: ['orderId', 'username', 'status', 'createdAt', 'amount'],
      sharding: { peakWritesPerSecond: 2000 },
      description: 'Orders by status, newest first; write-sharded',
    },
    GSI3: { projection: ProjectionKind.KEYS_ONLY, description: 'Sparse: running tasks only' },
  },
  accessPatterns: {
    ordersForCustomer: {
      entities: ['Order'],
      sortKeyCondition: SortKeyCondition.BEGINS_WITH,
      description: 'Get orders for a customer',
    },
    customerWithOrders: {
      entities: ['Customer', 'Order'],
      description: 'A customer and their orders in one query (item collection)',
    },
    orderById: {
      entities: ['Order'],
      index: 'GSI1',
      sortKeyCondition: SortKeyCondition.EQUALS,
      description: 'Get an order by its id',
    },
    ordersByStatus: {
      entities: ['Order'],
      index: 'GSI2',
      sortKeyCondition: SortKeyCondition.BETWEEN,
      order: SortOrder.DESCENDING,
      attributes: ['orderId', 'username', 'status', 'createdAt', 'amount'],
      description: 'Orders in a status, newest first, within a date range',
    },
    customerByEmail: {
      entities: ['Customer'],
      index: 'GSI1',
      description: 'Get a customer by email',
    },
    productsByCategory: {
      entities: ['Product'],
      index: 'GSI1',
      sortKeyCondition: SortKeyCondition.BETWEEN,
      description: 'Products in a category within a price range, cheapest first',
    },
    groupsForCustomer: {
      entities: ['Membership'],
      sortKeyCondition: SortKeyCondition.BEGINS_WITH,
      description: 'Groups a customer belongs to',
    },
    membersOfGroup: {
      entities: ['Group', 'Membership'],
      index: 'GSI1',
      description: 'A group and its members (inverted adjacency list)',
    },
    runningTasks: {
      entities: ['Task'],
      index: 'GSI3',
      description: 'Tasks currently running, oldest first (sparse boolean index)',
    },
    ordersForCustomerByDate: {
      entities: ['Order'],
      index: 'LSI1',
      sortKeyCondition: SortKeyCondition.BETWEEN,
      order: SortOrder.DESCENDING,
      consistentRead: true,
      description: "A customer's orders in a date range, newest first, strongly consistent",
    },
    ordersForCustomerByAmount: {
      entities: ['Order'],
      index: 'LSI2',
      sortKeyCondition: SortKeyCondition.GREATER_THAN_OR_EQUAL,
      order: SortOrder.DESCENDING,
      description: "A customer's orders from an amount up, largest first (KEYS_ONLY slot: DynamoDB fetches the rest)",
    },
  },
});
