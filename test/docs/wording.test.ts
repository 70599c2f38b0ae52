// The README and docs/ speak of the product: reasons are stated as facts about DynamoDB or the
// design, never as the history of how the project was built. Relative links must resolve too.
import { existsSync, readdirSync, readFileSync } from 'fs';
import * as path from 'path';
import * as runtime from '../../lib/runtime';

const ROOT = path.join(__dirname, '..', '..');
const DOCS = ['README.md', ...readdirSync(path.join(ROOT, 'docs'), { recursive: true })
  .map(String).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f))];

test.each(DOCS)('%s has no words about how the project was built', (file) => {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const found = text.split('\n')
    // What a user's machine can do is a fact about the product; the machine the docs were written on is not.
    .map((line, i) => [i + 1, line.match(/\bsessions?\b|\bissue #?\d+|\bseeds? 0\d\d|\bthis task\b|\bthis machine (?:cannot|can't|has no|lacks)\b/i)?.[0]] as const)
    .filter(([, word]) => word);
  expect(found).toEqual([]);
});

/** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => m[1].trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-')));
}

test.each(DOCS)('%s links only to files and headings that exist', (file) => {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const links = [...text.matchAll(/\]\(([^)\s#]*)(?:#([^)\s]*))?\)/g)]
    .map((m) => ({ target: m[1] || path.basename(file), anchor: m[2] }))
    .filter(({ target }) => !/^[a-z]+:/.test(target));
  const missing = links.filter(({ target }) => !existsSync(path.join(ROOT, path.dirname(file), target))).map(({ target }) => target);
  expect(missing).toEqual([]);
  const badAnchors = links.filter(({ target, anchor }) => anchor && target.endsWith('.md'))
    .filter(({ target, anchor }) => !anchorsOf(path.join(ROOT, path.dirname(file), target)).has(anchor!))
    .map(({ target, anchor }) => `${target}#${anchor}`);
  expect(badAnchors).toEqual([]);
});

// Names the runtime no longer has, which a reader would copy: the one-word item functions that
// `putItem`, `getItem`, `updateItem` and `deleteItem` replaced (called bare, not as a method of a
// client), and the model's former `queryShards`.
const REMOVED = ['put', 'get', 'update', 'delete', 'queryShards'];

test('the removed names are not exports of the runtime', () => {
  const exported = Object.keys(runtime);
  expect(exported).toContain('putItem');
  expect(REMOVED.filter((name) => exported.includes(name))).toEqual([]);
});

test.each(DOCS)('%s teaches no removed name', (file) => {
  // Called (`put(...)`, `get(entity, key)`); `queryShards` anywhere.
  const pattern = new RegExp(`(?<![.\\w])(${REMOVED.join('|')})\\((?!\\))|\\bqueryShards\\b`);
  const found = readFileSync(path.join(ROOT, file), 'utf8').split('\n')
    .map((line, i) => [i + 1, line.match(pattern)?.[0]] as const)
    .filter(([, name]) => name);
  expect(found).toEqual([]);
});

test('the guides stay short enough to read: README, the runtime guide and the performance page', () => {
  const bytes = (file: string) => Buffer.byteLength(readFileSync(path.join(ROOT, file), 'utf8'));
  expect(bytes('README.md')).toBeLessThanOrEqual(14_000);
  expect(bytes('docs/runtime.md')).toBeLessThanOrEqual(30_000);
  expect(bytes('docs/performance.md')).toBeLessThanOrEqual(12_000);
});

test('the docs index links every page of docs/, so any answer is one hop away', () => {
  const index = readFileSync(path.join(ROOT, 'docs', 'README.md'), 'utf8');
  const linked = new Set([...index.matchAll(/\]\(([^)#\s]+)/g)].map((m) => path.normalize(path.join('docs', m[1]))));
  expect(DOCS.filter((f) => f.startsWith('docs') && f !== path.join('docs', 'README.md') && !linked.has(f))).toEqual([]);
});
