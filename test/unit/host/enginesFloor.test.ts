/**
 * The lowest VS Code the extension says it runs on (`engines.vscode`) is the one the host tests run
 * it in: a floor above the host would make every host suite test a build no user of the floor has,
 * and a floor below it would promise versions nothing here ever ran. VS Code's forks take their
 * extensions by that floor and build on older releases than VS Code's newest (Cursor on 1.105), so it
 * stays at or under 1.105 too. `@types/vscode` is held to the floor's minor: newer types would let the
 * code call an API the floor does not have, and only a user on that version would find out.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const repoRoot = join(__dirname, '..', '..', '..', '..');
/** The oldest VS Code a fork users ask about builds on (Cursor). */
const FORKS_FLOOR_MINOR = 105;

interface Manifest {
  readonly engines: { readonly vscode: string };
  readonly devDependencies: Readonly<Record<string, string>>;
}

/** The minor of a `^1.N.0` or `~1.N.0` range; fails on any other shape, which would hide what it allows. */
export function minorOfRange(range: string, operator: '^' | '~'): number {
  const match = new RegExp(`^\\${operator}1\\.(\\d+)\\.0$`).exec(range);
  assert.ok(match, `expected ${operator}1.N.0, not "${range}"`);
  return Number(match[1]);
}

interface Installer {
  readonly CODE_SERVER_VERSION: string;
  readonly codeServerPaths: () => { readonly vscode: string };
}

describe('host/enginesFloor: engines.vscode is the VS Code the host tests run', () => {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;
  const floor = minorOfRange(manifest.engines.vscode, '^');
  let installer: Installer;

  before(async () => {
    const url = pathToFileURL(join(repoRoot, 'test', 'extension', 'host', 'install.mjs')).href;
    installer = (await import(url)) as Installer;
  });

  it('sets the floor at the host suites’ VS Code, and no higher than the forks build on', () => {
    // code-server 4.N.x carries VS Code 1.N.x.
    const host = /^4\.(\d+)\.\d+$/.exec(installer.CODE_SERVER_VERSION);
    assert.ok(host, `code-server ${installer.CODE_SERVER_VERSION}`);
    assert.equal(floor, Number(host[1]), `engines.vscode ${manifest.engines.vscode}, host VS Code 1.${host[1]}`);
    assert.ok(floor <= FORKS_FLOOR_MINOR, `engines.vscode ${manifest.engines.vscode} is above 1.${FORKS_FLOOR_MINOR}`);
  });

  it('types the code for the floor, not for a newer VS Code', () => {
    assert.equal(minorOfRange(manifest.devDependencies['@types/vscode'] ?? '', '~'), floor);
  });

  it('agrees with the VS Code the installed host carries, where it is installed', function () {
    const carried = join(installer.codeServerPaths().vscode, 'package.json');
    // The unit step runs before the host is installed on a fresh clone: nothing to compare then.
    if (!existsSync(carried)) this.skip();
    const { version } = JSON.parse(readFileSync(carried, 'utf8')) as { version: string };
    assert.equal(Number(version.split('.')[1]), floor, `the host's VS Code is ${version}`);
  });

  it('reads only the range shapes it can compare', () => {
    assert.equal(minorOfRange('^1.100.0', '^'), 100);
    assert.throws(() => minorOfRange('>=1.100.0', '^'));
    assert.throws(() => minorOfRange('^1.100.2', '^'));
  });
});
