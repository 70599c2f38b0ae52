// The README and docs/ speak of the product: reasons are stated as facts about DynamoDB or the
// design, never as the history of how the project was built. Relative links must resolve too.
import { existsSync, readdirSync, readFileSync } from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');
const DOCS = ['README.md', ...readdirSync(path.join(ROOT, 'docs'), { recursive: true })
  .map(String).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f))];

test.each(DOCS)('%s has no words about how the project was built', (file) => {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  const found = text.split('\n')
    .map((line, i) => [i + 1, line.match(/\bsessions?\b|\bissue #?\d+|\bseeds? 0\d\d|\bthis task\b/i)?.[0]] as const)
    .filter(([, word]) => word);
  expect(found).toEqual([]);
});

test.each(DOCS)('%s links only to files that exist', (file) => {
  const text = readFileSync(path.join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const missing = [...text.matchAll(/\]\(([^)\s#]+)(#[^)\s]*)?\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z]+:/.test(target))
    .filter((target) => !existsSync(path.join(ROOT, path.dirname(file), target)));
  expect(missing).toEqual([]);
});
