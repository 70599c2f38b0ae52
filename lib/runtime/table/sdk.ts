// The SDK classes the runtime uses, imported in this one module: a bundler keeps every import
// statement of an external package (it cannot know the package has no side effects), so each
// module importing the SDK itself would add a `require` to every handler's bundle.
// The Lambda runtime provides the SDK (an optional dependency of the package).
// eslint-disable-next-line import/no-extraneous-dependencies
export { BatchGetItemCommand, BatchWriteItemCommand, DeleteItemCommand, DynamoDBClient, GetItemCommand, PutItemCommand, QueryCommand, ScanCommand, TransactGetItemsCommand, TransactWriteItemsCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
