/**
 * Onboarding alone (src/extension/onboarding/onboardingController.ts), built by its own
 * `startOnboarding` with a context of fakes (globalState and the extension's id), a real session
 * over a fake secret store against the reference server, and a recording message sink: when the
 * first-run notice is shown, what "Don't show again" keeps, and the walkthrough's progress the
 * app's answers lead to.
 */
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { startOnboarding, type OnboardingView } from '../../../../src/extension/onboarding/onboardingController';
import type { Session } from '../../../../src/extension/session';
import { STORAGE_KEYS } from '../../../../src/tracker/ids';
import type { OnboardingProgress } from '../../../../src/tracker/onboarding/onboardingProgress';
import { FakeGlobalState, RecordingLog, RecordingMessages, type FakeSecretStorage } from './fakes';
import { buildSession, useReferenceApp } from './sessionFakes';

const TOKEN = 'onboarding-part-token-8c3d';

describe('parts: onboarding', function () {
  this.timeout(20_000);
  const app = useReferenceApp({ token: TOKEN });
  let globalState: FakeGlobalState;
  let log: RecordingLog;
  let messages: RecordingMessages;
  let session: Session;
  let secrets: FakeSecretStorage;
  let onboarding: (OnboardingView & { dispose(): void }) | undefined;

  /** Onboarding over a started session; resolves once it decided about the first-run notice. */
  const build = async (token?: string): Promise<OnboardingView> => {
    const built = buildSession({ port: app.port, home: app.home, log, token });
    ({ session, secrets } = built);
    await session.reconnect();
    const context: Pick<vscode.ExtensionContext, 'globalState'> & { extension: { id: string } } = {
      globalState,
      extension: { id: 'parts.onboarding-part' },
    };
    const view = startOnboarding(context as unknown as vscode.ExtensionContext, {
      session,
      log,
      messages,
      settings: built.settings,
    });
    onboarding = view;
    // The notice waits for session.ready(), which answers its callers in the order they asked:
    // onboarding asked first, so it has decided once this resolves.
    await session.ready();
    return view;
  };

  /** Resolves with the first progress (now or later) that `matches`. */
  const progressWhere = (view: OnboardingView, matches: (progress: OnboardingProgress) => boolean) =>
    new Promise<OnboardingProgress>((resolve, reject) => {
      if (matches(view.progress)) return resolve(view.progress);
      const timer = setTimeout(() => reject(new Error(`progress stayed ${JSON.stringify(view.progress)}`)), 10_000);
      const subscription = view.onDidChange((progress) => {
        if (!matches(progress)) return;
        clearTimeout(timer);
        subscription.dispose();
        resolve(progress);
      });
    });

  beforeEach(() => {
    globalState = new FakeGlobalState();
    log = new RecordingLog();
    messages = new RecordingMessages(log);
  });

  afterEach(() => {
    onboarding?.dispose();
    onboarding = undefined;
    session.dispose();
    secrets.dispose();
    messages.dispose();
  });

  it("without a token, shows the first-run notice once; Don't show again is kept in synced globalState", async () => {
    const view = await build();

    assert.equal(view.notice, 'shown');
    const notices = messages.said.filter((said) => said.kind === 'info');
    assert.equal(notices.length, 1, JSON.stringify(messages.said));
    const [notice] = notices;
    assert.ok(notice?.kind === 'info');
    assert.deepEqual(notice.actions, ['Set Token', "Don't show again"]);

    await messages.click(notice, "Don't show again");

    assert.equal(globalState.get(STORAGE_KEYS.welcomeNoticeTurnedOff), true);
    assert.deepEqual(globalState.synced, [STORAGE_KEYS.welcomeNoticeTurnedOff], 'the choice follows the user');
  });

  it("after Don't show again, says nothing", async () => {
    await globalState.update(STORAGE_KEYS.welcomeNoticeTurnedOff, true);
    const view = await build();

    assert.equal(view.notice, 'turnedOff');
    assert.deepEqual(messages.said, []);
  });

  it('without a token, finds the app listening on its port before there is a token', async () => {
    const view = await build();

    const progress = await progressWhere(view, (candidate) => candidate.appReachable);

    assert.deepEqual(progress, { appReachable: true, hasToken: false, connected: false, tracking: false });
  });

  it('with a token the app accepts, shows no notice and counts the app reached, the token set and connected', async () => {
    const view = await build(TOKEN);

    assert.equal(view.notice, 'hasToken');
    assert.deepEqual(messages.said, []);
    assert.deepEqual(view.progress, { appReachable: true, hasToken: true, connected: true, tracking: false });
  });
});
