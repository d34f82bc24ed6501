/** `npm run qa:paths`: writes docs/machines/*.md and docs/qa/*.md from the machines. */
import fs from 'node:fs';
import path from 'node:path';
import { generateAll } from './qa/generate';

const root = path.resolve(import.meta.dirname, '..');
for (const [file, text] of generateAll()) {
  const full = path.join(root, file);
  fs.mkdirSync(path.dirname(full), { recursive: true });
  fs.writeFileSync(full, text);
  console.log(`wrote ${file}`);
}
