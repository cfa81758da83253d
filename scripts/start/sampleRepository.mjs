// The repository `npm start -- --restricted` opens: a small git repository, as a stranger's clone is, on a branch its
// own `.vscode/settings.json` links to a ticket, beside a link for its folder (./plan.mjs sampleRepositorySettings).
// Opened untrusted, neither link is read: the status bar's tooltip and Use This Repository's Links… say so.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sampleRepositorySettings } from './plan.mjs';

/** The sample repository's folder name, and the branch it is on (its branch link names the ticket SHOP-12). */
export const SAMPLE_FOLDER = 'shop';
export const SAMPLE_BRANCH = 'feature/SHOP-12-checkout';

/** Creates the repository under `parent`; returns its path. */
export function prepareSampleRepository(parent) {
  const folder = join(parent, SAMPLE_FOLDER);
  mkdirSync(join(folder, '.vscode'), { recursive: true });
  const git = (...args) => execFileSync('git', args, { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
  git('init', '-q', '-b', 'main');
  git('config', 'user.name', 'npm start');
  git('config', 'user.email', 'start@example.invalid');
  git('config', 'commit.gpgsign', 'false');
  writeFileSync(
    join(folder, 'README.md'),
    '# shop\n\nA sample repository whose settings link its branches and folder.\n',
  );
  writeFileSync(
    join(folder, '.vscode', 'settings.json'),
    `${JSON.stringify(sampleRepositorySettings(SAMPLE_FOLDER), null, 2)}\n`,
  );
  git('add', '.');
  git('commit', '-q', '-m', 'first');
  git('checkout', '-q', '-b', SAMPLE_BRANCH);
  return folder;
}
