import assert from 'node:assert/strict';
import { displayText, firstCharacters, logLineText } from '../../../src/platform/outsideText';

// Text from outside (the app, the capability file, a branch) on its way to a screen or a log line.

const RLO = '\u202e';
const PDF = '\u202c';
const LRI = '\u2066';
const PDI = '\u2069';

describe('platform/outsideText', () => {
  it('shows a name without its controls and bidi overrides, a line break read as a space', () => {
    assert.equal(displayText(`Review ${RLO}gpj.exe${PDF}`, 1000), 'Review gpj.exe');
    assert.equal(displayText('Deploy\r\nfake line\u0000\u0007\u001b[31m', 1000), 'Deploy fake line[31m');
    assert.equal(displayText(`a\tb\u2028c\u2029d\u0085e${LRI}f${PDI}\u009bg\u007f`, 1000), 'a b c d efg');
    assert.equal(displayText('\r\n', 1000), ' ');
  });

  it('leaves ordinary text alone: accents, right-to-left names with their marks, emoji sequences', () => {
    for (const text of ['Größe prüfen', 'שלום\u200f 2', 'مرحبا\u061c', '👩‍💻 Pairing', 'C:\\Users\\me', '']) {
      assert.equal(displayText(text, 1000), text);
      assert.equal(logLineText(text), text);
    }
  });

  it('cuts at the bound, marks the cut, and never splits a character in two', () => {
    const long = 'x'.repeat(900 * 1024);
    const shown = displayText(long, 1000);
    assert.equal(shown.length, 1000);
    assert.ok(shown.endsWith('x…'));
    assert.equal(displayText('x'.repeat(1000), 1000), 'x'.repeat(1000), 'exactly at the bound: not cut');
    // The bound counts characters, as the app's limits do: an emoji is one, never cut in two.
    const emoji = `${'x'.repeat(998)}😀😀`;
    assert.equal(displayText(emoji, 1000), emoji, 'a thousand characters, 1,002 UTF-16 units: not cut');
    assert.equal(displayText(`${emoji}😀`, 1000), `${'x'.repeat(998)}😀…`);
    assert.equal(displayText('😀'.repeat(300_000), 200), `${'😀'.repeat(199)}…`);
    assert.equal(firstCharacters('a😀b', 2), 'a😀');
    // The bound counts what is shown: controls removed first do not use it up.
    assert.equal(displayText(`${'\u0000'.repeat(5000)}Name`, 1000), 'Name');
  });

  it('writes a log line as one line: breaks, other controls and bidi overrides escaped visibly', () => {
    const forged = '1\n2026-01-01 10:00:00.000 [error] Token sent to evil.example';
    const line = logLineText(forged);
    assert.equal(line, '1\\n2026-01-01 10:00:00.000 [error] Token sent to evil.example');
    assert.equal(
      logLineText('a\r\nb\tc\u0000d\u001be\u007ff\u0085g\u009bh'),
      'a\\r\\nb\\tc\\u0000d\\u001be\\u007ff\\u0085g\\u009bh',
    );
    assert.equal(
      logLineText(`x${RLO}y${PDF}${LRI}z${PDI}\u2028\u2029`),
      'x\\u202ey\\u202c\\u2066z\\u2069\\u2028\\u2029',
    );
    for (const text of [forged, `${RLO}\u2028\v\f`])
      assert.doesNotMatch(logLineText(text), /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u);
  });
});
