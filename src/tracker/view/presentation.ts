/**
 * State → what the status bar item shows: text with a codicon, a Markdown tooltip with command
 * links, what a click does, a tone and an accessibility label. Pure, so every state is
 * unit-tested as a user sees it. The entry point: the facts of each state come from
 * statusFacts.ts, their layout from statusText.ts; this file adds what every state shows alike,
 * the entries waiting in the offline queue.
 */
import * as l10n from '@vscode/l10n';
import { COMMANDS } from '../ids';
import type { TrackerState } from '../model/trackerState';
import { link } from './markup';
import { statusFacts, type PresentationSettings } from './statusFacts';
import { formatStatus, type Presentation } from './statusText';

export type { PresentationSettings } from './statusFacts';
export type { Presentation } from './statusText';
export { formatElapsed } from './trackingFacts';

/**
 * The state's presentation, plus the number of logged entries waiting in the offline queue:
 * a waiting entry is shown in every state, because it is the user's time that is not yet logged.
 */
export function present(state: TrackerState, settings: PresentationSettings, nowMs: number, queued = 0): Presentation {
  // The user's format lays out only the states that say what runs: a warning keeps its words whatever it says.
  const shaped = (state.kind === 'idle' || state.kind === 'tracking') && settings.private !== true;
  const base = formatStatus(statusFacts(state, settings, nowMs), shaped ? settings.format : undefined);
  if (queued <= 0) return base;
  const one = queued === 1;
  return {
    ...base,
    text: `${base.text} · $(inbox) ${l10n.t('{0} queued', queued)}`,
    tooltip: `${base.tooltip}

---

${one ? l10n.t('**1 logged entry waits to be sent** once the app answers.') : l10n.t('**{0} logged entries wait to be sent** once the app answers.', queued)} ${link(l10n.t('Show Queued Entries'), COMMANDS.showQueue)}`,
    accessibilityLabel: `${base.accessibilityLabel} ${one ? l10n.t('1 logged entry waits to be sent.') : l10n.t('{0} logged entries wait to be sent.', queued)}`,
  };
}
