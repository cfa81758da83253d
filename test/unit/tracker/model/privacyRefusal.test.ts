/**
 * The memory of macOS's privacy refusal: which record is one, when it holds the file back at
 * start, and what a new reading does to it.
 */
import assert from 'node:assert/strict';
import { macPrivacyRefusal, type CapabilityReading } from '../../../../src/client/capabilityReader';
import { readPrivacyRefusal, refusalUpdate, rememberedRefusal } from '../../../../src/tracker/model/privacyRefusal';

const nowDoing = '/Users/u/Library/Containers/com.mattes.nowdoing/Data/api-endpoint.json';
const clessira = '/Users/u/Library/Containers/com.mattes.clessira/Data/api-endpoint.json';
const defaults = [nowDoing, clessira];
const group = '/Users/u/Library/Group Containers/group.com.mattes.clessira/api-endpoint.json';

describe('tracker/privacyRefusal: macOS refused the capability file, remembered for the next start', () => {
  it('reads back only a record of the shape written', () => {
    assert.deepEqual(readPrivacyRefusal({ path: clessira }), { path: clessira });
    assert.deepEqual(readPrivacyRefusal({ path: clessira, from: 'a later version' }), { path: clessira });
    for (const junk of [
      undefined,
      null,
      clessira,
      [clessira],
      42,
      {},
      { path: 7 },
      { path: '' },
      { path: ['x'] },
      { path: `/Users/u/Library/Containers/${'x'.repeat(5000)}` },
    ])
      assert.equal(readPrivacyRefusal(junk), undefined, JSON.stringify(junk));
  });

  it('starts from the refusal, unread, when its path is one read now on a Mac', () => {
    const reading = rememberedRefusal({ path: clessira }, defaults, 'darwin');
    assert.deepEqual(reading, macPrivacyRefusal(clessira));
    assert.deepEqual(rememberedRefusal({ path: group }, [group], 'darwin'), macPrivacyRefusal(group));
  });

  it('holds nothing back for a path not read now, a record that is none, or a record no Mac wrote', () => {
    assert.equal(rememberedRefusal({ path: clessira }, ['/Users/u/elsewhere/api-endpoint.json'], 'darwin'), undefined);
    assert.equal(rememberedRefusal({ path: 7 }, defaults, 'darwin'), undefined);
    assert.equal(rememberedRefusal(undefined, defaults, 'darwin'), undefined);
    assert.equal(rememberedRefusal({ path: clessira }, defaults, 'linux'), undefined, 'only macOS refuses for privacy');
    const outside = '/Users/u/capability/api-endpoint.json';
    assert.equal(rememberedRefusal({ path: outside }, [outside], 'darwin'), undefined, 'not in a container');
  });

  it('remembers a refusal by its path, keeps it when refused again, and forgets it once the file is read', () => {
    const refused = macPrivacyRefusal(clessira);
    assert.deepEqual(refusalUpdate(undefined, refused, defaults), { kind: 'remember', record: { path: clessira } });
    assert.deepEqual(refusalUpdate({ path: 9 }, refused, defaults), { kind: 'remember', record: { path: clessira } });
    assert.deepEqual(refusalUpdate({ path: nowDoing }, refused, defaults), {
      kind: 'remember',
      record: { path: clessira },
    });
    assert.deepEqual(refusalUpdate({ path: clessira }, refused, defaults), { kind: 'keep' });
    const readable: CapabilityReading[] = [
      { kind: 'absent', path: nowDoing },
      { kind: 'invalid', path: clessira, message: 'not JSON' },
      { kind: 'unreadable', path: clessira, message: 'this user may not read it.' },
    ];
    for (const reading of readable)
      assert.deepEqual(refusalUpdate({ path: clessira }, reading, defaults), { kind: 'forget' }, reading.kind);
  });

  it('keeps a record of a path not read now, and writes nothing where nothing is remembered', () => {
    const custom = '/Users/u/capability/api-endpoint.json';
    assert.deepEqual(refusalUpdate({ path: clessira }, { kind: 'absent', path: custom }, [custom]), { kind: 'keep' });
    assert.deepEqual(refusalUpdate(undefined, { kind: 'absent', path: clessira }, defaults), { kind: 'keep' });
    assert.deepEqual(refusalUpdate('junk', { kind: 'absent', path: clessira }, defaults), { kind: 'keep' });
  });
});
