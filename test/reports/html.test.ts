// The HTML view in a real browser (headless Chromium): it renders without console errors or any
// request, shows every index in use with one row per entry and every access pattern with the
// entries its example query returns. Screenshots go to test-reports/ for a person to look at.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { BrowserContext, chromium, Page } from 'playwright-core';
import { localData } from '../../examples/local-data';
import { manifest } from '../../examples/manifest';
import { compileManifest } from '../../lib/manifest/compile';
import { htmlView, renderHtmlView, ViewSamples } from '../../lib/reports/html';
import { ROOT } from '../support/bundle';
import { CHROMIUM_ARGS, chromiumPath, IN_CI } from '../support/chromium';

const model = compileManifest(manifest).model;
const OUT = path.join(ROOT, 'test-reports');
const browser = chromiumPath();
if ('skip' in browser && !IN_CI) console.warn(`HTML view browser tests skipped: ${browser.skip}`);
const suite = 'path' in browser || IN_CI ? describe : describe.skip;

suite('the HTML view in headless Chromium', () => {
  let context: BrowserContext;
  let userDataDir: string;

  beforeAll(async () => {
    if ('skip' in browser) throw new Error(`CI runs the HTML view's browser tests, and Chromium is unavailable: ${browser.skip}`);
    mkdirSync(OUT, { recursive: true });
    userDataDir = mkdtempSync(path.join(tmpdir(), 'single-table-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: (browser as { path: string }).path,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: { width: 1400, height: 1000 },
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
  });

  /** Opens the view of `samples` from a file, recording console messages, page errors and requests. */
  async function open(name: string, samples?: ViewSamples): Promise<{ page: Page; problems: string[]; requests: string[] }> {
    const file = path.join(OUT, `${name}.html`);
    writeFileSync(file, renderHtmlView(model, samples));
    const url = pathToFileURL(file).href;
    const page = await context.newPage();
    const problems: string[] = [];
    const requests: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      if (r.url() !== url) requests.push(r.url());
    });
    await page.goto(url, { waitUntil: 'load' });
    return { page, problems, requests };
  }

  test('the example with its sample data: every index and pattern, no console error, no request', async () => {
    const view = htmlView(model, localData);
    const { page, problems, requests } = await open('html-view', localData);
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
    // Nothing a page could fetch or run: no script, stylesheet link, image or frame.
    expect(await page.locator('script, link, img, iframe').count()).toBe(0);

    const inUse = view.tables.filter((t) => t.entities.length > 0);
    expect(inUse.map((t) => t.index.name)).toEqual(['table', 'GSI1', 'GSI2', 'GSI3', 'LSI1', 'LSI2']);
    for (const t of inUse) {
      const section = page.locator(`section[data-index="${t.index.name}"]`);
      expect(await section.isVisible()).toBe(true);
      const entries = t.partitions.reduce((n, p) => n + p.entries.length, 0);
      expect({ index: t.index.name, rows: await section.locator('tbody tr').count() }).toEqual({ index: t.index.name, rows: entries });
    }
    // 14 sample items, all on the table; the task that is not running is not in GSI3.
    expect(await page.locator('section[data-index="table"] tbody tr').count()).toBe(14);
    expect(await page.locator('section[data-index="GSI3"] tbody tr').count()).toBe(1);

    for (const name of Object.keys(model.patterns)) {
      const article = page.locator(`article[data-pattern="${name}"]`);
      expect(await article.isVisible()).toBe(true);
      const example = view.examples.find((e) => e.pattern.name === name)!;
      expect(example.error).toBeUndefined();
      expect({ name, results: await article.locator('table.results tbody tr').count() }).toEqual({ name, results: example.results.length });
    }
    expect(await page.locator('article[data-pattern="ordersByStatus"]').innerText()).toContain('3 queries in parallel, merged');
    await page.screenshot({ path: path.join(OUT, 'html-view.png'), fullPage: true });
  });

  test('without sample data: items and inputs made up from the manifest fill every index in use and every pattern', async () => {
    const view = htmlView(model);
    const { page, problems, requests } = await open('html-view-generated');
    expect(problems).toEqual([]);
    expect(requests).toEqual([]);
    for (const t of view.tables.filter((i) => i.entities.length > 0)) {
      const rows = await page.locator(`section[data-index="${t.index.name}"] tbody tr`).count();
      expect({ index: t.index.name, hasRows: rows > 0 }).toEqual({ index: t.index.name, hasRows: true });
    }
    for (const name of Object.keys(model.patterns)) {
      const results = await page.locator(`article[data-pattern="${name}"] table.results tbody tr`).count();
      expect({ name, returnsItems: results > 0 }).toEqual({ name, returnsItems: true });
    }
    expect(await page.locator('header').innerText()).toContain('Made up from the manifest');
    await page.screenshot({ path: path.join(OUT, 'html-view-generated.png'), fullPage: true });
  });
});
