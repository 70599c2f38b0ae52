// The visual view of a design: every index as a table of sample items with their physical keys and
// projected attributes, every access pattern run on them with its key condition and cost, and the
// entity charts; one self-contained HTML page.
import { indexTables, IndexTable } from './index-tables';
import { renderPage } from './page';
import { patternExamples, PatternExample } from './pattern-examples';
import { completeSamples, storedItems, ViewSamples } from './samples';
import { TableModel } from '../../model/model';
import type { AdviceReport } from '../advice/advice';
import { costReport } from '../cost';
import { designDocument } from '../design-doc';

export { ViewSamples } from './samples';

/** What the view shows, as data: the indexes with their entries and the patterns with their examples. */
export interface HtmlView {
  readonly tables: IndexTable[];
  readonly examples: PatternExample[];
  /** Entities and patterns whose samples were made up from the manifest. */
  readonly generated: string[];
}

/**
 * The view's content for a model and its sample data (the `single-table local` format); entities
 * without sample items and patterns without an input get made-up ones. Throws, naming the item,
 * when a sample item is one the runtime would refuse.
 */
export function htmlView(model: TableModel, samples: ViewSamples = {}): HtmlView {
  const complete = completeSamples(model, samples);
  const tables = indexTables(model, storedItems(model, complete.items));
  // The cost figures are priced from each entity's first sample item, as `cost --samples` would.
  const firstItems = Object.fromEntries(Object.entries(complete.items).map(([e, items]) => [e, items[0] as Record<string, any>]));
  const costs = costReport(model, { sampleItems: firstItems }).reads;
  const examples = patternExamples(model, tables, complete.queries, new Set(complete.generated), costs);
  return { tables, examples, generated: complete.generated };
}

/** The view as one self-contained HTML page (inline CSS, no script, no network), with the design advice when given. */
export function renderHtmlView(model: TableModel, samples: ViewSamples = {}, advice?: AdviceReport): string {
  const view = htmlView(model, samples);
  return renderPage({ model, ...view, design: designDocument(model), advice });
}
