// Monthly figures of a design at on-demand list prices: write request units from each entity's
// declared writes per second (each priced as a put, which enters every index slot the entity
// populates), read request units from each pattern's declared reads per second (one entry per
// query plus its fetch, as the cost report prices it), and storage from item counts the caller
// gives. Every figure comes from the cost report; this file only multiplies.
import { dict } from '../../manifest/values';
import type { TableModel } from '../../model/model';
import { costReport, CostReport } from '../cost';
import { WriteKind } from '../cost-writes';

/** On-demand list prices of one region (Standard table class), in US dollars. */
export interface OnDemandPrices {
  /** The region, e.g. `us-east-1`. */
  readonly region: string;
  /** Dollars per million write request units. */
  readonly writeRequestUnitsPerMillion: number;
  /** Dollars per million read request units. */
  readonly readRequestUnitsPerMillion: number;
  /** Dollars per GB-month of storage (the free tier is not deducted). */
  readonly storagePerGbMonth: number;
  /** When these prices were the list prices (ISO date). */
  readonly date: string;
}

/** Seconds in the month the figures are for: 730 hours, AWS's pricing month. */
export const SECONDS_PER_MONTH = 730 * 3600;

const GB = 1024 ** 3;

// The list prices since on-demand throughput was halved on 2024-11-01 (these three regions share them).
const US_PRICES = { writeRequestUnitsPerMillion: 0.625, readRequestUnitsPerMillion: 0.125, storagePerGbMonth: 0.25, date: '2024-11-01' };

/** The regions whose on-demand list prices are built in; for another region, pass its prices. */
export const ON_DEMAND_PRICES: { readonly [region: string]: OnDemandPrices } = {
  'us-east-1': { region: 'us-east-1', ...US_PRICES },
  'us-east-2': { region: 'us-east-2', ...US_PRICES },
  'us-west-2': { region: 'us-west-2', ...US_PRICES },
};

/** The built-in prices of a region; throws naming the regions it knows. */
export function pricesOf(region: string): OnDemandPrices {
  const prices = Object.hasOwn(ON_DEMAND_PRICES, region) ? ON_DEMAND_PRICES[region] : undefined;
  if (!prices) {
    throw new Error(`no built-in on-demand prices for region '${region}'; built in: ${Object.keys(ON_DEMAND_PRICES).join(', ')}; pass the region's prices instead`);
  }
  return prices;
}

/** What a design costs (or what a change saves, when negative) in a month. */
export interface MonthlyFigures {
  /** Write request units. */
  readonly writeUnits: number;
  /** Read request units. */
  readonly readUnits: number;
  /** Stored GB (table and index entries with their overhead). */
  readonly storageGb: number;
  /** Dollars for the write request units. */
  readonly writeCost: number;
  /** Dollars for the read request units. */
  readonly readCost: number;
  /** Dollars for the storage. */
  readonly storageCost: number;
  /** All three together. */
  readonly totalCost: number;
  /** Write units per second on each index slot (`table` included) at the declared rates. */
  readonly writeUnitsPerSecondByIndex: { [index: string]: number };
}

/** The monthly figures of a model at the declared rates, `itemCounts` items per entity and `prices`. */
export function monthlyFigures(
  model: TableModel, prices: OnDemandPrices, itemCounts: { [entity: string]: number } = {}, report: CostReport = costReport(model),
): MonthlyFigures {
  const byIndex = dict<number>();
  let writesPerSecond = 0;
  for (const write of report.writes) {
    const rate = model.entities[write.entity].writesPerSecond;
    if (write.kind !== WriteKind.PUT || rate === undefined) continue;
    writesPerSecond += rate * write.totalUnits;
    byIndex.table = (byIndex.table ?? 0) + rate * write.tableUnits;
    for (const i of write.indexes) byIndex[i.index] = (byIndex[i.index] ?? 0) + rate * i.units;
  }
  const readsPerSecond = report.reads.reduce((sum, r) => sum + (r.unitsPerSecond ?? 0), 0);
  const bytes = report.storage.reduce((sum, s) => sum + (Object.hasOwn(itemCounts, s.entity) ? itemCounts[s.entity] : 0) * s.totalBytes, 0);
  return figures(writesPerSecond * SECONDS_PER_MONTH, readsPerSecond * SECONDS_PER_MONTH, bytes / GB, prices, byIndex);
}

/** `after` minus `before`: negative figures are savings. */
export function monthlyDifference(before: MonthlyFigures, after: MonthlyFigures, prices: OnDemandPrices): MonthlyFigures {
  const byIndex = dict<number>();
  for (const name of new Set([...Object.keys(before.writeUnitsPerSecondByIndex), ...Object.keys(after.writeUnitsPerSecondByIndex)])) {
    const delta = (after.writeUnitsPerSecondByIndex[name] ?? 0) - (before.writeUnitsPerSecondByIndex[name] ?? 0);
    if (delta !== 0) byIndex[name] = delta;
  }
  return figures(after.writeUnits - before.writeUnits, after.readUnits - before.readUnits, after.storageGb - before.storageGb, prices, byIndex);
}

function figures(
  writeUnits: number, readUnits: number, storageGb: number, prices: OnDemandPrices, byIndex: { [index: string]: number },
): MonthlyFigures {
  const writeCost = (writeUnits / 1e6) * prices.writeRequestUnitsPerMillion;
  const readCost = (readUnits / 1e6) * prices.readRequestUnitsPerMillion;
  const storageCost = storageGb * prices.storagePerGbMonth;
  const totalCost = writeCost + readCost + storageCost;
  return { writeUnits, readUnits, storageGb, writeCost, readCost, storageCost, totalCost, writeUnitsPerSecondByIndex: byIndex };
}
