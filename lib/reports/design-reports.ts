// The reports for every jsii language: static methods that take a manifest and return text, since
// Python, Java and .NET users cannot call the free functions. Each compiles the manifest first and
// throws the compiler's ManifestError, listing every error, when it is invalid.
import { AdviceOptions, designAdvice } from './advice/advice';
import { adviceMarkdown } from './advice/advice-markdown';
import { costReport, CostOptions } from './cost';
import { costMarkdown } from './cost-markdown';
import { designMarkdown } from './design-doc';
import { renderHtmlView } from './html';
import { designJson } from './json';
import { mermaidDiagram } from './mermaid';
import { compileManifest } from '../manifest/compile';
import { SingleTableManifest } from '../model/manifest';

/** Design reports of a manifest: entity charts, access patterns, cost. */
export class DesignReports {
  /** The design document (entity charts per index, access-pattern table) as markdown. */
  public static markdown(manifest: SingleTableManifest): string {
    return designMarkdown(compileManifest(manifest).model);
  }

  /** The design as JSON shaped like the compiled model (entities, indexes, access patterns), as `single-table docs --json` prints it. */
  public static designJson(manifest: SingleTableManifest): string {
    return JSON.stringify(designJson(compileManifest(manifest).model), null, 2);
  }

  /**
   * The design as one self-contained HTML page: every index as a table of sample items made up from
   * the manifest, every access pattern with an example query and its cost, the entity charts.
   */
  public static html(manifest: SingleTableManifest): string {
    return renderHtmlView(compileManifest(manifest).model, {}, designAdvice(manifest));
  }

  /** The design advice (index and projection changes priced per month) as markdown, as `single-table advise` prints it. */
  public static adviceMarkdown(manifest: SingleTableManifest, options?: AdviceOptions): string {
    return adviceMarkdown(designAdvice(manifest, options));
  }

  /** The design advice as JSON, the improved manifest included. */
  public static adviceJson(manifest: SingleTableManifest, options?: AdviceOptions): string {
    return JSON.stringify(designAdvice(manifest, options), null, 2);
  }

  /** The entities, indexes and access patterns as a Mermaid flowchart. */
  public static mermaid(manifest: SingleTableManifest): string {
    return mermaidDiagram(compileManifest(manifest).model);
  }

  /** The cost report (write amplification, reads, storage, shards) as markdown. */
  public static costMarkdown(manifest: SingleTableManifest, options?: CostOptions): string {
    const model = compileManifest(manifest).model;
    return costMarkdown(model, costReport(model, options));
  }

  /** The cost report as JSON. */
  public static costJson(manifest: SingleTableManifest, options?: CostOptions): string {
    return JSON.stringify(costReport(compileManifest(manifest).model, options), null, 2);
  }

  private constructor() {}
}
