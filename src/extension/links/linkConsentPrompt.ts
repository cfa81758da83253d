/**
 * The question about a repository's links (src/tracker/links/linkConsent.ts words it), and where
 * the answer is kept: this workspace's state, so another repository asks for itself. "Not Now" is
 * kept in this window only; "Use This Repository's Links…" asks again whatever was said.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../platform/errors';
import { STORAGE_KEYS } from '../../tracker/ids';
import {
  consentQuestion,
  readConsent,
  withAnswer,
  type LinkConsent,
  type LinkText,
} from '../../tracker/links/linkConsent';
import type { Log } from '../oneLineLog';

/** What the user answered: use the links, not in this repository, or not now (the question closed). */
export type ConsentAnswer = 'use' | 'refuse' | 'later';

export class LinkConsentPrompt {
  /** Not Now in this window: the links wait for the next window, or for the command. */
  private laterHere = false;
  /**
   * The questions on screen (a notification may wait in the notification center while the command asks): the first
   * answer leaves the others stale.
   */
  private readonly open = new Set<object>();

  constructor(
    private readonly workspaceState: vscode.Memento,
    private readonly log: Log,
  ) {}

  get consent(): LinkConsent {
    return readConsent(this.workspaceState.get(STORAGE_KEYS.linkConsent));
  }

  get putOff(): boolean {
    return this.laterHere;
  }

  /** A question is on screen: nothing a link would start starts until it is answered. */
  get asking(): boolean {
    return this.open.size > 0;
  }

  /** The first time the links would act: one notification, answered once per workspace. */
  ask(links: readonly LinkText[]): Promise<ConsentAnswer | 'stale'> {
    const [use, later, never] = [vscode.l10n.t('Use Its Links'), vscode.l10n.t('Not Now'), vscode.l10n.t('Never Here')];
    return this.asked(links, () => vscode.window.showInformationMessage(consentQuestion(links), use, later, never), {
      use,
      never,
    });
  }

  /** The command: the question again, modal, about every link of the workspace. */
  async review(links: readonly LinkText[]): Promise<ConsentAnswer> {
    const [use, never] = [vscode.l10n.t('Use Its Links'), vscode.l10n.t("Don't Use Them")];
    // Nothing answers the modal question before it closes: never stale.
    return (await this.asked(
      links,
      () => vscode.window.showInformationMessage(consentQuestion(links), { modal: true }, use, never),
      { use, never },
    )) as ConsentAnswer;
  }

  private async asked(
    links: readonly LinkText[],
    show: () => Thenable<string | undefined>,
    labels: { readonly use: string; readonly never: string },
  ): Promise<ConsentAnswer | 'stale'> {
    const question = {};
    this.open.add(question);
    let chosen: string | undefined;
    try {
      chosen = await show();
    } catch (error) {
      this.open.delete(question);
      throw error;
    }
    // Another question was answered meanwhile (the command's, over a waiting notification): this one changes nothing.
    if (!this.open.delete(question)) return 'stale';
    this.open.clear();
    const answer: ConsentAnswer = chosen === labels.use ? 'use' : chosen === labels.never ? 'refuse' : 'later';
    if (answer === 'later') {
      this.laterHere = true;
      this.log.info(
        `This repository's ${links.length} link(s) of timeTracker.links are not used in this window: not answered. ` +
          `"Use This Repository's Links…" asks again.`,
      );
      return answer;
    }
    this.laterHere = false;
    await this.keep(links, answer);
    this.log.info(
      `This repository's ${links.length} link(s) of timeTracker.links are ` +
        `${answer === 'use' ? 'used from now on' : 'never used'}, as answered. "Use This Repository's Links…" changes it.`,
    );
    return answer;
  }

  /** The answer kept. */
  keep(links: readonly LinkText[], answer: 'use' | 'refuse'): Promise<void> {
    return this.store(withAnswer(this.consent, links, answer));
  }

  /** The answers kept as they are now. */
  async store(consent: LinkConsent): Promise<void> {
    try {
      await this.workspaceState.update(STORAGE_KEYS.linkConsent, consent);
    } catch (error) {
      this.log.warn(
        `Keeping the answer about this repository's links failed (asked again in the next window): ${errorMessage(error)}`,
      );
    }
  }
}
