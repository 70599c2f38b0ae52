// The SDK commands of the transaction operations, imported in one place: a bundle keeps each
// module's import of the SDK even when tree-shaking drops its code, so the two operations share one.
// The Lambda runtime provides the SDK (an optional dependency of the package).
// eslint-disable-next-line import/no-extraneous-dependencies
export { GetItemCommand, TransactGetItemsCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
