/**
 * The folder watch's name filter on a Mac: FSEvents reports a name as it is on disk, and the file
 * system ignores case and the Unicode form, so a configured path typed otherwise must still match.
 */
import assert from 'node:assert/strict';
import { folderWatchOn, type WatchFunction } from '../../../src/platform/fileSystemPort';
import { pathKey } from '../../../src/platform/pathKey';

/** A watch whose events the test sends, as `fs.watch` would report them. */
function fakeWatch(): { readonly watchFunction: WatchFunction; emit(filename: string): void } {
  let listener: ((event: string, filename: string | null) => void) | undefined;
  return {
    watchFunction: (_directory, _options, onEvent) => {
      listener = onEvent;
      return { close: () => undefined, on: () => undefined };
    },
    emit: (filename) => listener?.('rename', filename),
  };
}

describe('platform/fileSystemPort: the folder watch compares names as the file system does', () => {
  it('passes an event for the on-disk name of a path configured in another case on darwin', () => {
    const fake = fakeWatch();
    let changes = 0;
    folderWatchOn('darwin', fake.watchFunction)(
      '/Users/u/Data',
      new Set(['API-Endpoint.json']),
      () => changes++,
      () => undefined,
    );
    fake.emit('api-endpoint.json');
    fake.emit('other.json');
    assert.equal(changes, 1);
  });

  it('matches a name typed composed (NFC) to one stored decomposed (NFD) on darwin', () => {
    const fake = fakeWatch();
    let changes = 0;
    folderWatchOn('darwin', fake.watchFunction)(
      '/Users/u',
      new Set(['Zürich'.normalize('NFC')]),
      () => changes++,
      () => undefined,
    );
    fake.emit('Zürich'.normalize('NFD'));
    assert.equal(changes, 1);
  });

  it('keeps the exact case on Linux, whose file systems tell cases apart', () => {
    const fake = fakeWatch();
    let changes = 0;
    folderWatchOn('linux', fake.watchFunction)(
      '/home/u',
      new Set(['API-Endpoint.json']),
      () => changes++,
      () => undefined,
    );
    fake.emit('api-endpoint.json');
    assert.equal(changes, 0);
    assert.equal(pathKey('A.json', 'linux'), 'A.json');
  });
});
