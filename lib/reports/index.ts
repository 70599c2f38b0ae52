// The reports' public surface. Free functions for TypeScript users, `DesignReports` for every
// jsii language; the data interfaces are jsii structs so both can describe their results.
export { DesignReports } from './design-reports';
export { designDocument, designMarkdown, DesignDocument } from './design-doc';
export { ReportTable } from './report-table';
export { costReport, CostOptions, CostReport } from './cost';
export { costMarkdown } from './cost-markdown';
export { entitySizes, EntitySizes } from './cost-sizes';
export { writeCost, WriteCost, WriteKind, IndexWriteCost, IndexEffect } from './cost-writes';
export { PatternReadCost, GetItemCost } from './cost-reads';
export { StorageCost, ENTRY_OVERHEAD_BYTES } from './cost-storage';
export { ShardSizing } from './cost-shards';
export { UniqueWriteCost } from './cost-unique';
export { valueBytes } from './item-size';
export { designAdvice, Advice, AdviceOptions, AdviceReport } from './advice/advice';
export { adviceMarkdown, AdviceMarkdownOptions } from './advice/advice-markdown';
export { AdviceRule } from './advice/rules';
export { MonthlyFigures, OnDemandPrices, ON_DEMAND_PRICES, SECONDS_PER_MONTH } from './advice/prices';
