import assert from 'node:assert/strict';
import { NOTE_MAX_LENGTH } from '../../../../src/protocol/constants';
import { noteStepLine } from '../../../../src/tracker/pickers/noteStep';

describe('tracker/noteStep', () => {
  it('leaves the prompt (log without a note) to an empty box, and to one of spaces', () => {
    assert.equal(noteStepLine(''), undefined);
    assert.equal(noteStepLine('   '), undefined);
  });

  it('says that Enter logs the note once one is typed', () => {
    assert.deepEqual(noteStepLine('standup notes'), { message: 'Press Enter to log with this note', refused: false });
  });

  it('says the limit and what was typed past it, counted as the app counts', () => {
    assert.deepEqual(noteStepLine('n'.repeat(NOTE_MAX_LENGTH + 500)), {
      message: `At most ${NOTE_MAX_LENGTH} characters: ${NOTE_MAX_LENGTH + 500} typed`,
      refused: true,
    });
    assert.equal(noteStepLine(`  ${'n'.repeat(NOTE_MAX_LENGTH)}  `)?.refused, false, 'counted once trimmed');
    assert.equal(noteStepLine('😀'.repeat(NOTE_MAX_LENGTH))?.refused, false, 'an emoji counts once');
  });
});
