// Invoices and credit notes of tenants on GSIs keyed on their own attributes (multi-attribute
// keys), beside a composed-key GSI: the manifest the manifest, construct and engine tests share.
import { AttributeKind, SingleTableManifest, SortKeyCondition, SortOrder } from '../../lib/manifest/structs';

/** The manifest; each call returns a fresh copy a test may change. */
export function attributeKeyedManifest(): SingleTableManifest {
  const document = {
    tenantId: { type: AttributeKind.STRING, required: true },
    status: { type: AttributeKind.STRING, required: true, distinctValues: 4 },
    amount: { type: AttributeKind.NUMBER, required: true },
    issuedAt: { type: AttributeKind.DATE, required: true },
    // Optional: an item without a region is not in ByRegion (sparse).
    region: { type: AttributeKind.STRING },
    note: { type: AttributeKind.STRING },
  };
  return {
    entities: {
      Invoice: {
        attributes: { ...document, invoiceId: { type: AttributeKind.STRING, required: true } },
        pk: 'TENANT#{tenantId}',
        sk: 'INVOICE#{invoiceId}',
        indexes: { GSI1: { pk: 'INVOICE#{invoiceId}', sk: 'INVOICE' } },
      },
      CreditNote: {
        attributes: { ...document, noteId: { type: AttributeKind.STRING, required: true } },
        pk: 'TENANT#{tenantId}',
        sk: 'CREDIT#{noteId}',
      },
      // No status, amount or issuedAt: in neither multi-attribute index.
      Customer: {
        attributes: { tenantId: document.tenantId, customerId: { type: AttributeKind.STRING, required: true }, region: document.region },
        pk: 'TENANT#{tenantId}',
        sk: 'CUSTOMER#{customerId}',
      },
    },
    globalIndexes: {
      GSI1: {},
      ByStatus: { partitionAttributes: ['tenantId', 'status'], sortAttributes: ['amount', 'issuedAt'] },
      ByRegion: { partitionAttributes: ['region'], sortAttributes: ['issuedAt'] },
    },
    accessPatterns: {
      invoiceById: { entities: ['Invoice'], index: 'GSI1' },
      invoicesByStatus: { entities: ['Invoice'], index: 'ByStatus' },
      invoicesByStatusFrom: { entities: ['Invoice'], index: 'ByStatus', sortKeyCondition: SortKeyCondition.GREATER_THAN_OR_EQUAL },
      invoicesByStatusAbove: { entities: ['Invoice'], index: 'ByStatus', sortKeyCondition: SortKeyCondition.GREATER_THAN },
      invoicesByStatusBelow: { entities: ['Invoice'], index: 'ByStatus', sortKeyCondition: SortKeyCondition.LESS_THAN, order: SortOrder.DESCENDING },
      invoicesByStatusUpTo: { entities: ['Invoice'], index: 'ByStatus', sortKeyCondition: SortKeyCondition.LESS_THAN_OR_EQUAL },
      invoicesByStatusBetween: { entities: ['Invoice'], index: 'ByStatus', sortKeyCondition: SortKeyCondition.BETWEEN },
      invoicesByStatusEqual: { entities: ['Invoice'], index: 'ByStatus', sortKeyCondition: SortKeyCondition.EQUALS },
      invoicesByStatusPrefix: { entities: ['Invoice'], index: 'ByStatus', sortKeyCondition: SortKeyCondition.BEGINS_WITH },
      documentsByStatus: { entities: ['Invoice', 'CreditNote'], index: 'ByStatus', order: SortOrder.DESCENDING },
      documentsByRegion: { entities: ['Invoice', 'CreditNote'], index: 'ByRegion', sortKeyCondition: SortKeyCondition.BETWEEN },
    },
  };
}
