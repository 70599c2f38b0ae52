// The jsii-facing class returns what the free functions compute, and fails like the compiler.
import { manifest } from '../../examples/manifest';
import { DesignReports } from '../../lib';
import { compileManifest } from '../../lib/manifest/compile';
import { designAdvice } from '../../lib/reports/advice/advice';
import { costReport } from '../../lib/reports/cost';
import { costMarkdown } from '../../lib/reports/cost-markdown';
import { designMarkdown } from '../../lib/reports/design-doc';
import { renderHtmlView } from '../../lib/reports/html';
import { designJson } from '../../lib/reports/json';
import { mermaidDiagram } from '../../lib/reports/mermaid';

const model = compileManifest(manifest).model;

test('markdown and cost reports, exported from the package entry', () => {
  expect(DesignReports.markdown(manifest)).toBe(designMarkdown(model));
  expect(DesignReports.costMarkdown(manifest)).toBe(costMarkdown(model, costReport(model)));
  const expected = JSON.parse(JSON.stringify(costReport(model, { itemsPerQuery: 5 })));
  expect(JSON.parse(DesignReports.costJson(manifest, { itemsPerQuery: 5 }))).toEqual(expected);
  expect(JSON.parse(DesignReports.designJson(manifest))).toEqual(JSON.parse(JSON.stringify(designJson(model))));
  expect(DesignReports.html(manifest)).toBe(renderHtmlView(model, {}, designAdvice(manifest)));
  expect(DesignReports.mermaid(manifest)).toBe(mermaidDiagram(model));
});

test('an invalid manifest throws the compiler error listing every problem', () => {
  expect(() => DesignReports.markdown({ entities: {} })).toThrow(/NO_ENTITIES/);
});
