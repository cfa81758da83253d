// `npm run package`: the .vsix of this checkout, built with the flags every package is built with
// (scripts/release/rules.mjs, vscePackageArgs), into clessira-time-tracker.vsix.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { vscePackageArgs } from './release/rules.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const result = spawnSync(
  join(root, 'node_modules', '.bin', 'vsce'),
  vscePackageArgs({ out: 'clessira-time-tracker.vsix', version }),
  { cwd: root, stdio: 'inherit' },
);
process.exitCode = result.status ?? 1;
