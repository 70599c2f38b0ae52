// The benchmark's Order model as a cdk-single-table manifest: the same keys the peers write.
// LSIs are off because no peer model has them (they would add nothing to a put, but keep the
// models identical).
import { AttributeKind, defineManifest } from '../../lib/runtime';

export const manifest = defineManifest({
  entities: {
    Order: {
      attributes: {
        username: { type: AttributeKind.STRING, required: true },
        orderId: { type: AttributeKind.STRING, required: true },
        status: { type: AttributeKind.STRING, required: true },
        createdAt: { type: AttributeKind.DATE, required: true },
        amount: { type: AttributeKind.NUMBER, required: true },
      },
      pk: 'CUSTOMER#{username}',
      sk: 'ORDER#{orderId}',
      indexes: {
        GSI1: { pk: 'ORDER#{orderId}', sk: 'ORDER#{orderId}' },
        GSI2: { pk: 'ORDER#{status}', sk: '{createdAt}' },
      },
    },
  },
  globalIndexes: { GSI1: {}, GSI2: {} },
  localIndexes: { enabled: false },
  accessPatterns: {
    ordersByStatus: { entities: ['Order'], index: 'GSI2' },
  },
});
