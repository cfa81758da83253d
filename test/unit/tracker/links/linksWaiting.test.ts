import assert from 'node:assert/strict';
import { linksCount } from '../../../../src/tracker/links/linksWaiting';

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
});
