// Before any host suite, `npm test` makes sure the Debian packages those suites need are there:
// asks dpkg-query which of them are missing, lets planAptInstall (debianPackages.ts, unit-tested)
// decide, and runs its plan: apt-get as root or through password-less sudo, printing what it
// installs, or one sentence with the command to run. The decision is compiled by tsc, which
// test/run.mjs has run before any host suite.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repoRoot } from './common.mjs';

/**
 * Resolves to true when every package is installed (now or before), false when the user must
 * act (the sentence is printed). Where dpkg-query does not exist (not Debian) nothing is checked:
 * install.mjs's missingPrerequisites still names what is missing by command.
 */
export function ensureDebianPackages({ log = (line) => console.log(line) } = {}) {
  const { HOST_TEST_PACKAGES, planAptInstall } = createRequire(import.meta.url)(
    join(repoRoot, 'out', 'test', 'extension', 'host', 'debianPackages.js'),
  );
  const missing = HOST_TEST_PACKAGES.filter((name) => !installed(name));
  const plan = planAptInstall({
    missing,
    root: process.getuid?.() === 0,
    passwordlessSudo: missing.length > 0 && passwordlessSudo(),
  });
  if (plan.kind === 'nothing') return true;
  if (plan.kind === 'ask') {
    console.error(plan.sentence);
    return false;
  }
  log(plan.announce);
  for (const command of plan.commands) {
    log(`  $ ${command.join(' ')}`);
    const result = spawnSync(command[0], command.slice(1), { stdio: ['ignore', 'inherit', 'inherit'] });
    if (result.status !== 0)
      throw new Error(`\`${command.join(' ')}\` failed (${result.status ?? result.signal ?? result.error?.message})`);
  }
  const still = missing.filter((name) => !installed(name));
  if (still.length > 0) throw new Error(`apt-get finished, but dpkg does not list ${still.join(', ')} as installed`);
  return true;
}

let dpkgQueryMissing = false;

/** dpkg's own word; a package removed but with its configuration left is not installed. */
function installed(name) {
  if (dpkgQueryMissing) return true;
  const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  if (result.error?.code === 'ENOENT') {
    dpkgQueryMissing = true;
    return true;
  }
  return result.status === 0 && result.stdout.trim() === 'install ok installed';
}

function passwordlessSudo() {
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}
