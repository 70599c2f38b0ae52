// A small valid manifest that each validation test breaks in exactly one way, and helpers to find
// the one finding that break must produce.
import { checkManifest } from '../../lib/manifest/compile';
import { DiagnosticLevel, ManifestDiagnostic } from '../../lib/manifest/diagnostics';
import { AttributeKind, ProjectionKind, SingleTableManifest, SortKeyCondition, SortOrder } from '../../lib/manifest/structs';

type Draft<T> = T extends readonly (infer U)[] ? Draft<U>[] : T extends object ? { -readonly [K in keyof T]: Draft<T[K]> } : T;
/** A manifest whose every level can be changed in place. */
export type ManifestDraft = Draft<SingleTableManifest>;

export function validManifest(): ManifestDraft {
  return {
    entities: {
      Customer: {
        attributes: {
          username: { type: AttributeKind.STRING, required: true },
          email: { type: AttributeKind.STRING, required: true },
        },
        pk: 'CUSTOMER#{username}',
        sk: 'CUSTOMER#{username}',
        indexes: { GSI1: { pk: 'EMAIL#{email}', sk: 'CUSTOMER#{username}' } },
      },
      Order: {
        attributes: {
          username: { type: AttributeKind.STRING, required: true },
          orderId: { type: AttributeKind.STRING, required: true },
          status: { type: AttributeKind.STRING, required: true },
          createdAt: { type: AttributeKind.DATE, required: true },
          amount: { type: AttributeKind.NUMBER },
        },
        pk: 'CUSTOMER#{username}',
        sk: 'ORDER#{orderId}',
        // Order is on LSI1, which caps each customer's item collection at 10 GB.
        maxItemsPerPartition: 10_000,
        indexes: {
          GSI1: { pk: 'ORDER#{orderId}', sk: 'ORDER#{orderId}' },
          GSI2: { pk: 'ORDER#{status}', sk: '{createdAt}' },
          LSI1: { sk: 'ORDERED#{createdAt}' },
        },
      },
    },
    globalIndexes: {
      GSI1: {},
      GSI2: { projection: ProjectionKind.INCLUDE, include: ['orderId', 'status'] },
    },
    accessPatterns: {
      ordersForCustomer: { entities: ['Order'], sortKeyCondition: SortKeyCondition.BEGINS_WITH },
      orderById: { entities: ['Order'], index: 'GSI1', sortKeyCondition: SortKeyCondition.EQUALS },
      ordersByStatus: { entities: ['Order'], index: 'GSI2', order: SortOrder.DESCENDING },
      ordersByDate: { entities: ['Order'], index: 'LSI1', sortKeyCondition: SortKeyCondition.BETWEEN, consistentRead: true },
    },
  };
}

/** The valid manifest after one change. */
export function edited(change: (m: ManifestDraft) => void): SingleTableManifest {
  const manifest = validManifest();
  change(manifest);
  return manifest;
}

/** Every finding about a manifest. */
export function findings(manifest: SingleTableManifest): ManifestDiagnostic[] {
  return checkManifest(manifest).diagnostics;
}

/** The only finding with this code, asserting there is exactly one and that it is at this level. */
export function theFinding(manifest: SingleTableManifest, code: string, level = DiagnosticLevel.ERROR): ManifestDiagnostic {
  const all = findings(manifest);
  const matching = all.filter((d) => d.code === code);
  if (matching.length !== 1) throw new Error(`expected one ${code}, got: ${JSON.stringify(all, null, 2)}`);
  expect(matching[0].level).toBe(level);
  return matching[0];
}

/** The valid manifest with `count` extra STRING attributes on Order, named a0, a1, ... */
export function withOrderAttributes(m: ManifestDraft, count: number): string[] {
  const names = Array.from({ length: count }, (_, i) => `a${i}`);
  for (const name of names) m.entities.Order.attributes[name] = { type: AttributeKind.STRING };
  return names;
}
