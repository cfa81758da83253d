// Prepares the workspace folder the extension-host suite opens: a real git repository on `main`
// with two more branches, so the branch reporter has something to watch. The `workspace` of the
// development suites in test/suites.mjs.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export default function prepareWorkspace(folder) {
  const git = (...args) => execFileSync('git', args, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'Extension Tests');
  git('config', 'user.email', 'tests@example.invalid');
  git('config', 'commit.gpgsign', 'false');
  writeFileSync(join(folder, 'README.md'), '# workspace of the extension tests\n');
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  git('branch', 'feature');
  git('branch', 'other');
  return { env: {} };
}
