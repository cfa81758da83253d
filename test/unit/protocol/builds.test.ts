import assert from 'node:assert/strict';
import { defaultHeaderPrefixFor } from '../../../src/protocol/headers';
import { ENDPOINT_PATHS, endpointPathsOf, isAppBuild } from '../../../src/protocol/types';

describe('protocol: builds of the application (PROTOCOL.md §8)', () => {
  it('gives the first release five endpoints and the current build all eight', () => {
    assert.deepEqual(endpointPathsOf('first-release'), [
      '/healthcheck',
      '/current',
      '/activities/search',
      '/activities/start',
      '/branch-changed',
    ]);
    assert.deepEqual(endpointPathsOf('current'), ENDPOINT_PATHS);
    assert.equal(ENDPOINT_PATHS.length, 8);
  });

  it('expects X-NowDoing-* from a first release and X-Clessira-* from the current build', () => {
    assert.equal(defaultHeaderPrefixFor('first-release'), 'NowDoing');
    assert.equal(defaultHeaderPrefixFor('current'), 'Clessira');
  });

  it('knows exactly the two builds', () => {
    assert.equal(isAppBuild('current'), true);
    assert.equal(isAppBuild('first-release'), true);
    assert.equal(isAppBuild('First-Release'), false);
    assert.equal(isAppBuild(''), false);
  });
});
