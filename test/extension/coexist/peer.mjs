// Which app's-own extension the coexist test installs beside ours: the real one when TT_PEER_VSIX
// names its .vsix (built from its repository: `npm install && npx @vscode/vsce package`, see
// test/bench/extension/peer.mjs's PEER_HOW_TO), else the stand-in of ../fixtures/peerStandin/,
// bundled with esbuild and packaged with vsce here, so that the test runs where the real one
// cannot be fetched (CI reaches the npm registry and apt, not GitHub). The report names which ran.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from '../host/common.mjs';
import { runVsce } from '../host/vsix.mjs';

const STAND_IN = join(repoRoot, 'test', 'extension', 'fixtures', 'peerStandin');

/** Resolves to `{ vsix, which }`: `which` says in words which extension it is. */
export async function peerVsix(runDir) {
  const given = process.env.TT_PEER_VSIX;
  if (given !== undefined && given !== '') {
    if (!existsSync(given)) throw new Error(`TT_PEER_VSIX names ${given}, which does not exist`);
    return { vsix: given, which: `the app's own extension, ${given}` };
  }
  const workDir = join(runDir, 'peer-stand-in');
  mkdirSync(join(workDir, 'dist'), { recursive: true });
  copyFileSync(join(STAND_IN, 'package.json'), join(workDir, 'package.json'));
  await build({
    entryPoints: [join(STAND_IN, 'extension.ts')],
    outfile: join(workDir, 'dist', 'extension.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    logLevel: 'warning',
  });
  const vsix = join(runDir, 'peer-stand-in.vsix');
  runVsce(workDir, ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix]);
  return {
    vsix,
    which:
      "the stand-in of test/extension/fixtures/peerStandin (no TT_PEER_VSIX: the app's own extension was not given)",
  };
}
