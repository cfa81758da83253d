/**
 * What a window says while the extension runs on the remote machine of a remote window: the status
 * bar's state, the message every command gives instead of acting, Set Token's answer, the menu,
 * and a link's hold. Each names the way to run it on the user's side, with the extension's real id.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ticketKeys } from '../../../src/tracker/branchTime/ticketKeys';
import { heldNotice } from '../../../src/tracker/links/linkNotice';
import { decideLink, parseLinks } from '../../../src/tracker/links/links';
import { EXTENSION_ID } from '../../../src/tracker/ids';
import { adviceWithoutChannel, diagnose } from '../../../src/tracker/advice/advice';
import { menuFor, menuPlaceholder } from '../../../src/tracker/pickers/menu';
import { statusBarItem } from '../../../src/tracker/statusBar/statusBarItem';
import { remoteHostFacts } from '../../../src/tracker/statusBar/warningFacts';
import { tokenCheckAdvice } from '../../../src/tracker/advice/tokenCheck';
import { reachabilityOf } from '../../../src/tracker/onboarding/onboardingProgress';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
  publisher: string;
  name: string;
};
const setting = `"remote.extensionKind": { "${manifest.publisher}.${manifest.name}": ["ui"] }`;
const absent = { kind: 'absent', path: '' } as const;

describe('tracker: the remote machine state', () => {
  it("names the extension by package.json's publisher.name", () => {
    assert.equal(EXTENSION_ID, `${manifest.publisher}.${manifest.name}`);
  });

  it('shows in the status bar that it runs remotely, sends nothing, and how to run it locally', () => {
    const shown = statusBarItem(
      { kind: 'remoteHost' },
      { nowMs: 0, showTodayTotal: true, maxNameLength: 40, route: { kind: 'http', port: 39847 } },
    );
    assert.equal(shown.text, '$(remote) Time Tracker: runs remotely');
    assert.equal(shown.tone, 'warning');
    assert.match(shown.tooltip, /\*\*Time Tracker runs on the remote machine of this window\.\*\*/);
    assert.match(shown.tooltip, /so it sends nothing: your token would go to whatever listens there/);
    assert.match(shown.tooltip, /\*\*Install Locally\*\* in the Extensions view/);
    assert.ok(shown.tooltip.includes(`\`${setting}\``), shown.tooltip);
    assert.ok(
      shown.tooltip.includes('(command:workbench.action.openSettings?%5B%22remote.extensionKind%22%5D)'),
      'the user settings are a link to the setting',
    );
    assert.match(shown.accessibilityLabel, /must run on your computer/);
    assert.equal(remoteHostFacts().text.state, 'Time Tracker: runs remotely');
  });

  it('says the same in every command that would talk to the app, with the button to the setting, whatever file was read', () => {
    for (const capability of [absent, { kind: 'invalid', path: '/x', message: 'bad' } as const]) {
      const advice = diagnose({
        channel: { kind: 'none', route: { kind: 'http', port: 39847 }, reason: 'remoteHost' },
        capability,
        defaultPort: 39847,
      });
      assert.deepEqual(advice, adviceWithoutChannel('remoteHost', capability));
      assert.equal(advice.action, 'runLocally');
      assert.equal(advice.severity, 'warning');
      assert.match(
        advice.message,
        /^Time Tracker runs on the remote machine of this window, .* it sends nothing from there, so that your token cannot go to whatever listens on it\./,
      );
      assert.ok(
        advice.message.includes(
          `choose Install Locally in the Extensions view, or add ${setting} to your user settings, then reload the window.`,
        ),
        advice.message,
      );
    }
  });

  it('stores a token without checking it, and says when it will be', () => {
    const advice = tokenCheckAdvice({ kind: 'remoteHost' }, 0);
    assert.equal(advice.action, 'runLocally');
    assert.match(
      advice.message,
      /^The token is stored, but not checked: .* It is checked once the extension runs on your computer\.$/,
    );
  });

  it('offers in its menu what works, Check Connection (which says how) first, and no Log Time', () => {
    assert.deepEqual(
      menuFor({ kind: 'remoteHost' }, false, 0).map((entry) => entry.command),
      ['timeTracker.checkConnection', 'timeTracker.showLog', 'timeTracker.setToken'],
    );
    assert.deepEqual(
      menuFor({ kind: 'remoteHost' }, true, 2).map((entry) => entry.command),
      [
        'timeTracker.checkConnection',
        'timeTracker.showLog',
        'timeTracker.showQueue',
        'timeTracker.setToken',
        'timeTracker.clearToken',
      ],
    );
    assert.match(menuPlaceholder({ kind: 'remoteHost' }), /runs on the remote machine and sends nothing/);
  });

  it("holds a link with its own reason, and does not count as the app's answer", () => {
    const decision = decideLink(
      parseLinks([{ branch: '**', activity: 'Docs' }]).links,
      { folders: ['/w/x'], branch: 'main' },
      ticketKeys([]),
    );
    assert.ok(decision);
    assert.match(
      heldNotice(decision, 'remoteHost', false).accessibilityLabel,
      /not started: this extension runs on the remote machine of this window, where it sends nothing\./,
    );
    assert.equal(reachabilityOf({ kind: 'remoteHost' }), undefined);
  });
});
