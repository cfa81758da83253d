/**
 * What the status bar item shows, from the session's state and everything else the item reads:
 * text with a codicon, a Markdown tooltip with command links, what a click runs, a tone and the
 * sentence a screen reader speaks. Pure, so every state is unit-tested as a user sees it; the
 * adapter (src/extension/statusBar.ts) only gathers the inputs and sets the item. Each state's
 * words are data (StatusFacts, factTypes.ts) in warningFacts.ts (the states that warn) and
 * trackingFacts.ts (the states in which the app answers, open and private). What the states share
 * is decided here: the private form, the linked start's Undo, which way the app is reached, the
 * user's format, the entries waiting in the queue, and a link's passing notice over it all.
 * Every word goes through `l10n.t`; codicons, numbers and activity names stay outside the
 * messages, so a translation cannot break them.
 */
import * as l10n from '@vscode/l10n';
import { COMMANDS } from '../ids';
import { undoParagraph } from '../links/linkUndo';
import { waitingWords, type LinksWaiting } from '../links/linksWaiting';
import { link } from '../markup';
import { describeRoute } from '../model/channel';
import type { TrackerState } from '../model/trackerState';
import type { Presentation, StatusBarInputs, StatusFacts } from './factTypes';
import { statusText } from './statusText';
import { idleFacts, privateFacts, trackingFacts } from './trackingFacts';
import {
  clockSkewFacts,
  failedFacts,
  licenseLockedFacts,
  lockedOutFacts,
  noTokenFacts,
  offlineFacts,
  remoteHostFacts,
  tokenRejectedFacts,
  unavailableFacts,
} from './warningFacts';

/**
 * The item for `state`: one per state and inputs. A click opens the menu in every state; a waiting
 * entry shows in every state, since it is the user's time not yet logged; a notice stands in for
 * all of it but the tone, and names no activity while the status bar is private.
 */
export function statusBarItem(state: TrackerState, inputs: StatusBarInputs): Presentation {
  const isPrivate = inputs.private === true;
  const answering = state.kind === 'idle' || state.kind === 'tracking';
  const plain = stateFacts(state, inputs);
  const facts = inputs.longSession?.(state, plain, inputs) ?? plain;
  const notice = inputs.notice?.(isPrivate);
  if (notice !== undefined) return { ...notice, tone: facts.tone };
  const { headline, body = [], links = [] } = facts.tooltip;
  // The linked start's paragraph, first after the headline: what ran before is one click away.
  const undo = state.kind === 'tracking' && inputs.linkedStart ? [undoParagraph(inputs.linkedStart, isPrivate)] : [];
  const paragraphs = [
    headline.join(' '),
    ...undo,
    ...body,
    links.map(({ label, command }) => link(label, command)).join(' · '),
    answering ? connection(inputs) : '',
  ];
  const shown: Presentation = {
    // The user's format lays out only the states that say what runs: a warning keeps its words whatever it says.
    text: statusText(facts.text, answering && !isPrivate ? inputs.format : undefined),
    tooltip: paragraphs.filter((paragraph) => paragraph !== '').join('\n\n'),
    command: COMMANDS.showMenu,
    tone: facts.tone,
    accessibilityLabel: facts.spoken,
    ...(facts.changesAtMs === undefined ? {} : { changesAtMs: facts.changesAtMs }),
  };
  const waited = inputs.linksWaiting === undefined ? shown : withLinksWaiting(shown, inputs.linksWaiting, isPrivate);
  return inputs.queued === undefined || inputs.queued <= 0 ? waited : withQueued(waited, inputs.queued);
}

/** Links that wait on the user: the tooltip says why, and the question shows in the text until it is answered. */
function withLinksWaiting(base: Presentation, waiting: LinksWaiting, isPrivate: boolean): Presentation {
  const { hint, paragraph, spoken } = waitingWords(waiting, isPrivate);
  return {
    ...base,
    text: hint === undefined ? base.text : `${base.text} · ${hint}`,
    tooltip: `${base.tooltip}\n\n---\n\n${paragraph}`,
    accessibilityLabel: `${base.accessibilityLabel} ${spoken}`,
  };
}

/** The tooltip's last paragraph while the app answers: which way it is reached, and who reports branch switches. */
function connection(inputs: StatusBarInputs): string {
  const connected = l10n.t('Connected {0}.', describeRoute(inputs.route));
  const by = inputs.branchesReportedBy;
  return by === undefined
    ? connected
    : `${connected} ${l10n.t("Branch switches are reported by the app's own extension ({0}).", `\`${by.replace(/`/g, '')}\``)}`;
}

function stateFacts(state: TrackerState, inputs: StatusBarInputs): StatusFacts {
  switch (state.kind) {
    case 'starting':
      // The product's name, not a sentence: the same in every language.
      return {
        text: { icon: 'sync~spin', state: 'Time Tracker' },
        spoken: l10n.t('Time Tracker: connecting'),
        tooltip: { headline: [l10n.t('Asking the time tracker what is running…')] },
        tone: 'normal',
      };
    case 'noToken':
      return noTokenFacts();
    case 'remoteHost':
      return remoteHostFacts();
    case 'offline':
      return offlineFacts(inputs.route);
    case 'tokenRejected':
      return state.clockSkewSeconds === undefined
        ? tokenRejectedFacts(inputs.route)
        : clockSkewFacts(state.clockSkewSeconds);
    case 'licenseLocked':
      return licenseLockedFacts();
    case 'lockedOut': {
      const seconds = Math.max(1, Math.ceil((state.untilMs - inputs.nowMs) / 1000));
      // The count goes down each second to 1 s, where it stays until the poll planned for the end.
      return {
        ...lockedOutFacts(seconds),
        changesAtMs: seconds > 1 ? state.untilMs - (seconds - 1) * 1000 : undefined,
      };
    }
    case 'unavailable':
      return unavailableFacts();
    case 'failed':
      return failedFacts(state.message);
    case 'idle':
    case 'tracking':
      if (inputs.private === true) return privateFacts(state);
      return state.kind === 'idle' ? idleFacts(state, inputs) : trackingFacts(state, inputs);
  }
}

function withQueued(base: Presentation, queued: number): Presentation {
  const one = queued === 1;
  const waits = one
    ? l10n.t('**1 logged entry waits to be sent** once the app answers.')
    : l10n.t('**{0} logged entries wait to be sent** once the app answers.', queued);
  const spoken = one
    ? l10n.t('1 logged entry waits to be sent.')
    : l10n.t('{0} logged entries wait to be sent.', queued);
  return {
    ...base,
    text: `${base.text} · $(inbox) ${l10n.t('{0} queued', queued)}`,
    tooltip: `${base.tooltip}\n\n---\n\n${waits} ${link(l10n.t('Show Queued Entries'), COMMANDS.showQueue)}`,
    accessibilityLabel: `${base.accessibilityLabel} ${spoken}`,
  };
}
