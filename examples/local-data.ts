// Sample items and one input per access pattern for `single-table local`: enough data that every
// pattern of the example manifest returns something, including the sparse index (one task
// running, one not) and the sharded status index.
export const localData = {
  items: {
    Customer: [
      { username: 'ann', email: 'ann@example.com', name: 'Ann Lee', createdAt: '2024-01-02T09:00:00.000Z' },
      { username: 'bob', email: 'bob@example.com', name: 'Bob Stone', createdAt: '2024-01-05T12:00:00.000Z' },
    ],
    Order: [
      {
        username: 'ann',
        orderId: 'o-1',
        status: 'OPEN',
        createdAt: '2024-01-10T10:00:00.000Z',
        amount: 99.99,
        lines: [{ sku: 'BOOK-1', qty: 1 }, { sku: 'PEN-2', qty: 3 }],
      },
      { username: 'ann', orderId: 'o-2', status: 'SHIPPED', createdAt: '2024-01-12T08:30:00.000Z', amount: 250, trackingNumber: '1Z999' },
      { username: 'ann', orderId: 'o-3', status: 'OPEN', createdAt: '2024-02-01T16:45:00.000Z', amount: 12.5 },
      { username: 'bob', orderId: 'o-4', status: 'OPEN', createdAt: '2024-01-20T11:00:00.000Z', amount: 42 },
    ],
    Product: [
      { productId: 'p-1', category: 'books', price: 12.5, name: 'The DynamoDB Book' },
      { productId: 'p-2', category: 'books', price: 45, name: 'Designing Data-Intensive Applications' },
      { productId: 'p-3', category: 'games', price: 60, name: 'Chess set' },
    ],
    Group: [{ groupId: 'g-1', name: 'Readers' }],
    Membership: [
      { username: 'ann', groupId: 'g-1', joinedAt: '2024-01-03T00:00:00.000Z' },
      { username: 'bob', groupId: 'g-1', joinedAt: '2024-01-06T00:00:00.000Z' },
    ],
    Task: [
      { taskId: 't-1', name: 'reindex the catalogue', running: true, startedAt: '2024-01-15T10:30:00.000Z' },
      { taskId: 't-2', name: 'nightly backup', running: false },
    ],
  },
  queries: {
    ordersForCustomer: { username: 'ann' },
    customerWithOrders: { username: 'ann' },
    orderById: { orderId: 'o-1' },
    ordersByStatus: { status: 'OPEN', between: [{ createdAt: '2024-01-01T00:00:00.000Z' }, { createdAt: '2024-12-31T23:59:59.999Z' }] },
    customerByEmail: { email: 'ann@example.com' },
    productsByCategory: { category: 'books', between: [{ price: 10 }, { price: 50 }] },
    groupsForCustomer: { username: 'ann' },
    membersOfGroup: { groupId: 'g-1' },
    runningTasks: { running: true },
    ordersForCustomerByDate: { username: 'ann', between: [{ createdAt: '2024-01-01T00:00:00.000Z' }, { createdAt: '2024-01-31T23:59:59.999Z' }] },
    ordersForCustomerByAmount: { username: 'ann', amount: 50 },
  },
};
