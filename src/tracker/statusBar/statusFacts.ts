/**
 * The first of the two steps from a state to the status bar item: what the item says in the
 * state, as data (factTypes.ts): the parts of the item's text (codicon, the state's words, the
 * activity, its time, today's total), the tooltip's sentences and links, the tone, the sentence a
 * screen reader speaks, the layout the user chose where it applies, and the entries waiting in
 * the offline queue. One builder per state, chosen here; the words of the states that warn are in
 * warningFacts.ts, of the states that say what runs in trackingFacts.ts and privateFacts.ts. The
 * second step, present() in presentation.ts, lays out any facts alike, so the wording of a state
 * and the look of every state change apart.
 * Every word goes through `l10n.t` (the bundle is set once at activation); codicons, numbers
 * and activity names stay outside the messages, so a translation cannot break them.
 */
import * as l10n from '@vscode/l10n';
import type { TrackerState } from '../model/trackerState';
import { undoParagraph } from '../links/linkUndo';
import type { PresentationSettings, StatusFacts } from './factTypes';
import { privateFacts } from './privateFacts';
import { idleFacts, trackingFacts } from './trackingFacts';
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
 * The facts of `state`: exactly one set per state, route and moment, with the number of logged
 * entries waiting in the offline queue, which every state shows alike: it is the user's time that
 * is not yet logged. A click on the item opens the menu in every state (presentation.ts), so no
 * state's facts name a command for it.
 */
export function statusFacts(
  state: TrackerState,
  settings: PresentationSettings,
  nowMs: number,
  queued = 0,
): StatusFacts {
  const facts = stateFacts(state, settings, nowMs);
  // The user's format lays out only the states that say what runs: a warning keeps its words whatever it says.
  const shaped = (state.kind === 'idle' || state.kind === 'tracking') && settings.private !== true;
  return {
    ...facts,
    ...(shaped && settings.format !== undefined ? { format: settings.format } : {}),
    ...(queued > 0 ? { queued } : {}),
  };
}

function stateFacts(state: TrackerState, settings: PresentationSettings, nowMs: number): StatusFacts {
  switch (state.kind) {
    case 'starting':
      return startingFacts();
    case 'noToken':
      return noTokenFacts();
    case 'remoteHost':
      return remoteHostFacts();
    case 'offline':
      return offlineFacts(settings.route);
    case 'tokenRejected':
      return state.clockSkewSeconds === undefined
        ? tokenRejectedFacts(settings.route)
        : clockSkewFacts(state.clockSkewSeconds);
    case 'licenseLocked':
      return licenseLockedFacts();
    case 'lockedOut':
      return lockedOutFacts(Math.max(1, Math.ceil((state.untilMs - nowMs) / 1000)));
    case 'unavailable':
      return unavailableFacts();
    case 'failed':
      return failedFacts(state.message);
    case 'idle':
      return settings.private === true ? privateFacts(state, settings.route) : idleFacts(state, settings);
    case 'tracking':
      return withUndo(
        settings.private === true ? privateFacts(state, settings.route) : trackingFacts(state, settings, nowMs),
        settings,
      );
  }
}

/** The linked start's paragraph, first after the headline: what ran before is one click away. */
function withUndo(facts: StatusFacts, settings: PresentationSettings): StatusFacts {
  if (settings.linkedStart === undefined) return facts;
  const undo = undoParagraph(settings.linkedStart, settings.private === true);
  return { ...facts, tooltip: { ...facts.tooltip, body: [undo, ...(facts.tooltip.body ?? [])] } };
}

function startingFacts(): StatusFacts {
  // The product's name, not a sentence: the same in every language.
  return {
    text: { icon: 'sync~spin', state: 'Time Tracker' },
    spoken: l10n.t('Time Tracker: connecting'),
    tooltip: { headline: [l10n.t('Asking the time tracker what is running…')] },
    tone: 'normal',
  };
}
