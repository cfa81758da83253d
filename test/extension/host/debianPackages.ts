/**
 * Which Debian packages the host tests need, and what `npm test` does when some are missing: a
 * pure decision (missing packages × running as root × password-less sudo), so it is unit-tested
 * without apt; ./debian.mjs asks dpkg-query and runs the plan. Installing by itself where it can,
 * and otherwise saying the one command to run, is what Playwright's `install --with-deps` does.
 */

/**
 * code-server's native modules are compiled by node-gyp (python3, make, g++) and kerberos needs
 * libkrb5-dev; ripgrep stands in for a download from GitHub that an offline machine cannot make;
 * chromium is the browser the workbench runs in and fonts-dejavu-core lets it render text; git is
 * what the extension watches.
 */
export const HOST_TEST_PACKAGES = [
  'chromium',
  'ripgrep',
  'libkrb5-dev',
  'python3',
  'make',
  'g++',
  'git',
  'fonts-dejavu-core',
] as const;

export interface AptSituation {
  /** Packages of HOST_TEST_PACKAGES that dpkg does not list as installed, in that order. */
  readonly missing: readonly string[];
  /** The process runs as root (uid 0). */
  readonly root: boolean;
  /** `sudo -n true` succeeds: sudo works without asking for a password. */
  readonly passwordlessSudo: boolean;
}

export type AptPlan =
  | { readonly kind: 'nothing' }
  /** Run `commands` in order (argument vectors), after printing `announce`. */
  | { readonly kind: 'install'; readonly announce: string; readonly commands: readonly (readonly string[])[] }
  /** Print `sentence` and stop with a non-zero exit. */
  | { readonly kind: 'ask'; readonly sentence: string };

export function planAptInstall({ missing, root, passwordlessSudo }: AptSituation): AptPlan {
  if (missing.length === 0) return { kind: 'nothing' };
  const packages = [...missing];
  if (root || passwordlessSudo) {
    // sudo drops the environment, so DEBIAN_FRONTEND goes through env; -n never waits for a password.
    const as = root ? [] : ['sudo', '-n'];
    return {
      kind: 'install',
      announce: `Installing Debian packages the host tests need: ${packages.join(' ')} (apt-get${root ? '' : ' through sudo'}).`,
      commands: [
        [...as, 'apt-get', 'update'],
        [
          ...as,
          'env',
          'DEBIAN_FRONTEND=noninteractive',
          'apt-get',
          'install',
          '-y',
          '--no-install-recommends',
          ...packages,
        ],
      ],
    };
  }
  return {
    kind: 'ask',
    sentence:
      `The host tests need Debian packages that are not installed (${packages.join(', ')}): run ` +
      `\`sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages.join(' ')}\`, then \`npm test\` again.`,
  };
}
