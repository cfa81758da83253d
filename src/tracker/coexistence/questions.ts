/**
 * Two extensions, one app: when the app's own extension and this one would both report a branch
 * switch (the app opens its prompt twice) or both show the running activity in the status bar, the
 * user is asked once per topic, in one sentence with two choices, and each choice is written through
 * the extension's own documented setting. Nothing is asked where only one of them does it, nor again
 * once answered (or dismissed) for the same set of the app's extensions: a dismissal is remembered so
 * that it does not come back at every window's start, but it changes no setting, and a change in
 * which of the app's extensions are installed asks anew.
 */
import * as l10n from '@vscode/l10n';
import { parseStatusFormat } from '../statusBar/statusText';
import type { Peer } from './peers';

/** In the order they are asked. */
const TOPICS = ['branches', 'statusBar'] as const;
export type Topic = (typeof TOPICS)[number];
/** `ours`: this extension does it, the other's switch is turned off; `theirs`: the other way round. */
export type Answer = 'ours' | 'theirs' | 'dismissed';

/** What the user said on a topic, and about which of the app's extensions (their ids, see peerKey). */
export interface RememberedAnswer {
  readonly answer: Answer;
  readonly peers: string;
}
export type Remembered = Partial<Record<Topic, RememberedAnswer>>;

/** What an extension would do in this window, from its effective settings. */
export interface Doing {
  readonly reportsBranches: boolean;
  readonly showsActivity: boolean;
}

export interface PeerFacts extends Doing {
  readonly peer: Peer;
}

/** One write to the user's settings: a key of the extension's own, and its new value. */
export interface SettingWrite {
  readonly key: string;
  readonly value: boolean | string;
}

export interface Choice {
  readonly label: string;
  readonly answer: 'ours' | 'theirs';
  readonly writes: readonly SettingWrite[];
}

export interface Question {
  readonly topic: Topic;
  /** Which of the app's extensions the answer is about (peerKey). */
  readonly peers: string;
  readonly message: string;
  readonly choices: readonly [Choice, Choice];
}

/** Our branch reports' switch, and what our status bar shows when the user keeps the app's extension for it. */
export const OUR_BRANCH_SETTING = 'timeTracker.git.reportBranchChanges';
export const OUR_FORMAT_SETTING = 'timeTracker.statusBar.format';
/** Our item without the activity's name and time, which the other's items show: the state and today's total. */
export const FORMAT_WITHOUT_ACTIVITY = '{today}';

/** The installed app's extensions as one key: a change of it asks again. */
export function peerKey(peers: readonly Peer[]): string {
  return peers
    .map((peer) => peer.id.toLowerCase())
    .sort()
    .join(',');
}

/** Does our status bar item show the running activity's name or time with this format and privacy? */
export function showsActivity(format: string, privateStatusBar: boolean): boolean {
  if (privateStatusBar) return false;
  return parseStatusFormat(format).format.pieces.some(
    (piece) => 'token' in piece && (piece.token === 'activity' || piece.token === 'elapsed'),
  );
}

/** The questions to ask now, branches first; none where nothing is doubled or the answer is remembered. */
export function coexistenceQuestions(facts: {
  readonly ours: Doing;
  readonly peers: readonly PeerFacts[];
  readonly remembered: Remembered;
}): Question[] {
  const key = peerKey(facts.peers.map(({ peer }) => peer));
  const questions: Question[] = [];
  for (const topic of TOPICS) {
    if (facts.remembered[topic]?.peers === key) continue;
    const doubled = facts.peers.filter((one) => doesIt(one, topic) && doesIt(facts.ours, topic));
    if (doubled.length > 0) questions.push(question(topic, key, doubled));
  }
  return questions;
}

/** What is remembered once `answer` was given (undefined: dismissed) to `question`. */
export function remember(remembered: Remembered, question: Question, answer: Choice | undefined): Remembered {
  return { ...remembered, [question.topic]: { answer: answer?.answer ?? 'dismissed', peers: question.peers } };
}

/** What globalState holds, read as far as it has the shape written; anything else is nothing remembered. */
export function readRemembered(value: unknown): Remembered {
  if (typeof value !== 'object' || value === null) return {};
  const read: Record<string, RememberedAnswer> = {};
  for (const topic of TOPICS) {
    const entry = (value as Record<string, unknown>)[topic];
    if (typeof entry !== 'object' || entry === null) continue;
    const { answer, peers } = entry as Record<string, unknown>;
    if ((answer === 'ours' || answer === 'theirs' || answer === 'dismissed') && typeof peers === 'string')
      read[topic] = { answer, peers };
  }
  return read;
}

function doesIt(doing: Doing, topic: Topic): boolean {
  return topic === 'branches' ? doing.reportsBranches : doing.showsActivity;
}

function question(topic: Topic, peers: string, doubled: readonly PeerFacts[]): Question {
  const ids = doubled.map(({ peer }) => peer.id).join(', ');
  if (topic === 'branches') {
    return {
      topic,
      peers,
      message: l10n.t(
        "The app's own extension ({0}) reports branch switches too, so the app would ask you twice after each: which one should report them?",
        ids,
      ),
      choices: [
        {
          label: l10n.t('Let Clessira Time Tracker report branches'),
          answer: 'ours',
          writes: doubled.map(({ peer }) => ({ key: peer.branchSetting, value: false })),
        },
        {
          label: l10n.t("Keep the app's extension for branches"),
          answer: 'theirs',
          writes: [{ key: OUR_BRANCH_SETTING, value: false }],
        },
      ],
    };
  }
  return {
    topic,
    peers,
    message: l10n.t(
      "The app's own extension ({0}) shows the running activity in the status bar too: which one should show it?",
      ids,
    ),
    choices: [
      {
        label: l10n.t('Let Clessira Time Tracker show the activity'),
        answer: 'ours',
        writes: doubled.flatMap(({ peer }) => peer.activitySettings.map((key) => ({ key, value: false }))),
      },
      {
        label: l10n.t("Keep the app's extension for the activity"),
        answer: 'theirs',
        writes: [{ key: OUR_FORMAT_SETTING, value: FORMAT_WITHOUT_ACTIVITY }],
      },
    ],
  };
}
