/**
 * No line of src/ is over 140 characters. ESLint's max-len leaves strings out (a sentence the user
 * reads stays one string to find), so a long message would pass it: this holds every line, strings
 * and comments too, so width never hides length.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..', '..');
const MAX_LINE_LENGTH = 140;

/** Every line of the .ts files below `folder` longer than `max`, as `path:line (length)`. */
function longLines(folder: string, max = MAX_LINE_LENGTH): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    readFileSync(path, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (line.length > max) found.push(`${relative(repoRoot, path)}:${index + 1} (${line.length})`);
      });
  }
  return found;
}

describe('lint/lineLength: no line of src/ over 140 characters', () => {
  it('finds none in src/', () => {
    assert.deepEqual(longLines(join(repoRoot, 'src')), []);
  });

  it('reports each line over the limit by its path, line and length', () => {
    const lines = longLines(join(repoRoot, 'src', 'platform'), 20);
    assert.ok(lines.length > 0, 'a folder with lines longer than 20 characters');
    assert.ok(
      lines.every((line) => /^src\/platform\/.+\.ts:\d+ \((\d+)\)$/.test(line)),
      lines.join('\n'),
    );
    assert.deepEqual(longLines(join(repoRoot, 'src', 'platform'), 10_000), []);
  });
});
