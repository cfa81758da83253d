import assert from 'node:assert/strict';
import { linksCount, usedHereSentence, type UsedHere } from '../../../../src/tracker/links/linksWaiting';
import { createdStays } from '../../../../src/tracker/links/linkUndo';

describe('tracker/links/linksWaiting', () => {
  it("counts a settings file's links, with comments and trailing commas as VS Code writes them", () => {
    const text = `{
      // the team's links
      "timeTracker.links": [
        { "branch": "feature/**", "activity": "{ticket}" }, /* a // in a comment */
        { "folder": "api", "activity": "Backend // \\"quoted\\"" },
      ],
      "editor.tabSize": 2,
    }`;
    assert.equal(linksCount(text), 2);
  });

  it("counts a workspace file's links under settings, and 0 for no links or no JSON", () => {
    assert.equal(linksCount('{ "folders": [], "settings": { "timeTracker.links": [{}] } }'), 1);
    assert.equal(linksCount('{ "timeTracker.links": {} }'), 0);
    assert.equal(linksCount('{ "editor.tabSize": 2 }'), 0);
    assert.equal(linksCount('not json'), 0);
    assert.equal(linksCount(''), 0);
  });

  it('says first what Use Its Links and Undo did, since a toast without buttons shows one line', () => {
    // A collapsed toast holds about 60 characters: the outcome is said within the first 45.
    const outcomes: [UsedHere, RegExp, RegExp][] = [
      [{ kind: 'started', activity: 'PROJ-9' }, /^PROJ-9 started/, /^The activity linked here started/],
      [
        { kind: 'alreadyRunning', activity: 'PROJ-9' },
        /^PROJ-9, linked here, runs already/,
        /^The activity linked here runs already/,
      ],
      [
        { kind: 'notStarted', activity: 'PROJ-9' },
        /^PROJ-9, linked here, was not started/,
        /^The activity linked here was not started/,
      ],
      [{ kind: 'left' }, /^What runs keeps running/, /^What runs keeps running/],
      [
        { kind: 'none' },
        /^None of this repository's links applies here/,
        /^None of this repository's links applies here/,
      ],
    ];
    for (const [used, named, unnamed] of outcomes) {
      assert.match(usedHereSentence(used, false), named);
      assert.match(usedHereSentence(used, true), unnamed);
      assert.doesNotMatch(usedHereSentence(used, true), /PROJ-9/, 'private: no name');
      assert.match(usedHereSentence(used, false), /this workspace now uses/);
    }
    assert.match(
      createdStays({ activityID: 'a1', activityName: 'PROJ-9', created: true }, false) ?? '',
      /^PROJ-9 stays in the app/,
    );
    assert.match(
      createdStays({ activityID: 'a1', activityName: 'PROJ-9', created: true }, true) ?? '',
      /^The activity the link created stays/,
    );
    assert.equal(
      createdStays({ activityID: 'a1', activityName: 'PROJ-9' }, false),
      undefined,
      'nothing created, nothing to say',
    );
  });
});
