import assert from 'node:assert/strict';
import {
  DEFAULT_FORMAT_SOURCE,
  parseStatusFormat,
  shortenName,
  statusText,
} from '../../../../src/tracker/statusBar/statusText';

const running = { icon: 'record', activity: 'Write docs', elapsed: '12:05', today: '3h 20m' } as const;

describe('tracker/statusBar/statusText', () => {
  it('lays the text out from its parts in order, today set apart', () => {
    assert.deepEqual(parseStatusFormat(DEFAULT_FORMAT_SOURCE).unknown, [], 'the default names only known tokens');
    assert.equal(statusText(running), '$(record) Write docs 12:05 · today 3h 20m');
    assert.equal(statusText({ icon: 'clock', state: 'Not tracking', today: '0m' }), '$(clock) Not tracking · today 0m');
  });

  it('leaves a part the state lacks out, with its separator', () => {
    assert.equal(
      statusText({ icon: 'record', activity: 'Write docs', today: '1h' }),
      '$(record) Write docs · today 1h',
    );
    assert.equal(statusText({ icon: 'record', activity: 'Write docs', elapsed: '0:05' }), '$(record) Write docs 0:05');
    assert.equal(
      statusText({ icon: 'key', state: 'Time Tracker: set token', activity: undefined, today: undefined }),
      '$(key) Time Tracker: set token',
    );
  });

  it('shows only the tokens a format names, in its order, after the icon', () => {
    const format = (source: string) => parseStatusFormat(source).format;
    assert.equal(statusText(running, format('{elapsed}')), '$(record) 12:05');
    assert.equal(statusText(running, format('{elapsed} {activity}')), '$(record) 12:05 Write docs');
    assert.equal(statusText(running, format('{today}')), '$(record) today 3h 20m');
  });

  it('shows the default for an empty format, never a bare icon', () => {
    const format = (source: string) => parseStatusFormat(source).format;
    assert.equal(statusText(running, format('')), '$(record) Write docs 12:05 · today 3h 20m');
    assert.equal(statusText(running, format('   ')), '$(record) Write docs 12:05 · today 3h 20m', 'spaces alone');
    assert.deepEqual(parseStatusFormat('').unknown, [], 'nothing to report');
  });

  it('shows words and names as typed, never as an icon, and the icon as an icon', () => {
    assert.equal(statusText({ icon: 'coffee', state: 'On break ($(bug) fix)' }), '$(coffee) On break (\\$(bug) fix)');
    assert.equal(
      statusText({ icon: 'record', activity: '$(bug) $(x)', elapsed: '0:00' }),
      '$(record) \\$(bug) \\$(x) 0:00',
    );
  });
});

/** Half of a surrogate pair without its other half: what a cut by UTF-16 units leaves. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('tracker/statusBar/statusText: shortenName', () => {
  it('leaves a name of at most the length alone', () => {
    assert.equal(shortenName('Write docs', 10), 'Write docs');
    assert.equal(shortenName('', 10), '');
  });

  it('cuts a longer name to the length, the ellipsis included, without the space before it', () => {
    assert.equal(shortenName('abcdefghijkl', 10), 'abcdefghi…');
    assert.equal(shortenName('abcdefgh jkl', 10), 'abcdefgh…');
    assert.equal(shortenName('abcdefg   jkl', 10), 'abcdefg…');
    assert.equal(Array.from(shortenName('x'.repeat(105), 40)).length, 40);
  });

  it('never splits a character: not a surrogate pair, not an emoji sequence, not a letter from its accent', () => {
    // Each of these is one character on screen and two or more UTF-16 units.
    const astral = '𝒜'.repeat(12);
    assert.equal(shortenName(astral, 10), `${'𝒜'.repeat(9)}…`);
    const family = '👩‍👩‍👧';
    assert.equal(shortenName(`abcdefgh${family}xyz`, 10), `abcdefgh${family}…`);
    assert.equal(shortenName(`abcdefghe\u0301xyz`, 10), 'abcdefghe\u0301…');
    for (const name of [astral, family.repeat(20), 'é'.repeat(30)]) {
      const cut = shortenName(name, 10);
      assert.doesNotMatch(cut, LONE_SURROGATE, cut);
    }
  });
});
