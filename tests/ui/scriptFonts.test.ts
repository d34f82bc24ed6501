import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Fonts for every script (docs/decisions.md): every face src/ui/fonts/scripts.ts imports must carry a unicode-range,
 * or the browser would fetch it for any page with the family, whatever its text: one unsliced Noto Sans SC face
 * (chinese-simplified-400.css) alone is megabytes. And the faces load with the passage screens, not the entry.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const entry = fs.readFileSync(path.join(ROOT, 'src/ui/fonts/scripts.ts'), 'utf8');
const imports = [...entry.matchAll(/^import '(@fontsource\/[^']+\.css)';$/gm)].map((m) => m[1]);

describe('the script fonts', () => {
  it('import the four Noto families at weight 400', () => {
    expect(imports.map((i) => i.split('/')[1]).sort()).toEqual(['noto-naskh-arabic', 'noto-nastaliq-urdu', 'noto-sans-bengali', 'noto-sans-sc']);
    for (const i of imports) expect(i).toMatch(/(^|\/|-)400\.css$/);
  });

  it.each(imports)('%s: every @font-face has a unicode-range', (file) => {
    const css = fs.readFileSync(path.join(ROOT, 'node_modules', file), 'utf8');
    const faces = css.match(/@font-face\s*{[^}]*}/g) ?? [];
    expect(faces.length).toBeGreaterThan(0);
    for (const face of faces) expect(face).toMatch(/unicode-range:/);
  });

  it('Noto Sans SC comes in slices', () => {
    const css = fs.readFileSync(path.join(ROOT, 'node_modules/@fontsource/noto-sans-sc/400.css'), 'utf8');
    expect((css.match(/@font-face/g) ?? []).length).toBeGreaterThan(90);
  });

  it('are imported by the passage screens only, never by the entry', () => {
    const importers = ['src/ui/screens/reader/ReaderColumn.tsx', 'src/ui/screens/listen/ListenScreen.tsx', 'src/ui/screens/teaser/TeaserScreen.tsx'];
    for (const file of importers) expect(fs.readFileSync(path.join(ROOT, file), 'utf8')).toContain("import '../../fonts/scripts';");
    for (const file of ['src/main.tsx', 'src/styles.css']) expect(fs.readFileSync(path.join(ROOT, file), 'utf8')).not.toMatch(/fonts\/scripts|@fontsource/);
  });
});
