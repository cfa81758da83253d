import assert from 'node:assert/strict';
import type { Profiler } from 'node:inspector';
import { extensionBundleOf, profileShare } from '../../bench/extension/profileShare';

const ID = 'clessira.time-tracker';
const FOLDER = '/tmp/run/extensions/clessira.time-tracker-1.4.0';

function frame(id: number, functionName: string, url: string, children: number[] = []): Profiler.ProfileNode {
  return { id, callFrame: { functionName, url, scriptId: String(id), lineNumber: 0, columnNumber: 0 }, children };
}

describe("bench/extension/profileShare: the extension's share of a CPU profile", () => {
  it("counts every dist bundle in the extension's install folder, not only dist/extension.js", () => {
    assert.equal(extensionBundleOf(`file://${FOLDER}/dist/extension.js`, ID), 'extension.js');
    assert.equal(extensionBundleOf(`${FOLDER}/dist/transport.js`, ID), 'transport.js');
    assert.equal(extensionBundleOf(`file://${FOLDER}/dist/chunks/view-3FA2.mjs`, ID), 'chunks/view-3FA2.mjs');
  });

  it('leaves out other extensions, even one whose name starts with ours, and what is not a bundle', () => {
    assert.equal(
      extensionBundleOf('file:///tmp/run/extensions/clessira.time-tracker-extras-0.1.0/dist/extension.js', ID),
      undefined,
    );
    assert.equal(extensionBundleOf('file:///tmp/run/extensions/other.thing-1.0.0/dist/extension.js', ID), undefined);
    assert.equal(extensionBundleOf(`file://${FOLDER}/package.json`, ID), undefined);
    assert.equal(extensionBundleOf('node:internal/timers', ID), undefined);
  });

  it('gives a sample to the extension when a frame of any of its bundles is on the stack', () => {
    const profile: Profiler.Profile = {
      nodes: [
        frame(1, '(root)', '', [2, 3, 6, 7]),
        frame(2, 'poll', `file://${FOLDER}/dist/extension.js`, [4]),
        frame(3, 'send', `file://${FOLDER}/dist/transport.js`, [5]),
        frame(4, 'readFile', 'node:fs'),
        frame(5, 'write', 'node:net'),
        frame(6, '(idle)', ''),
        frame(7, 'render', 'file:///opt/code-server/out/vs/workbench/api/node/extensionHostProcess.js', [8]),
        frame(8, '(garbage collector)', ''),
      ],
      startTime: 0,
      endTime: 10_000,
      samples: [4, 5, 6, 7, 8, 2],
      timeDeltas: [1000, 2000, 4000, 1000, 500, 1500],
    };
    const share = profileShare(profile, ID);
    assert.equal(share.busyMs, 6);
    assert.equal(share.extensionMs, 4.5);
    assert.equal(share.gcMs, 0.5);
    assert.deepEqual(share.bundles, ['extension.js', 'transport.js']);
  });
});
