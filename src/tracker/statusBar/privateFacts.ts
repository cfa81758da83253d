/**
 * The states that say what runs, told privately (timeTracker.statusBar.private), for screen
 * sharing and recordings: the icon and the state only. No activity name, no group and no time in
 * the item's text, its tooltip or the label a screen reader speaks; the menu, opened on purpose,
 * still shows them, and the tooltip says so and offers to show them again.
 */
import * as l10n from '@vscode/l10n';
import { COMMANDS } from '../ids';
import { describeRoute, type Route } from '../model/channel';
import type { StatusFacts } from './factTypes';
import { actions, type Answering } from './trackingFacts';

export function privateFacts(state: Answering, route: Route): StatusFacts {
  const { text, spoken, headline } = privateWords(state);
  return {
    text,
    spoken,
    tooltip: {
      headline: [headline],
      body: [l10n.t('The status bar is private: it shows no activity and no time. The menu shows them.')],
      links: [...actions(state), { label: l10n.t('Show Activity and Time'), command: COMMANDS.togglePrivateStatusBar }],
      connection: l10n.t('Connected {0}.', describeRoute(route)),
    },
    tone: 'normal',
  };
}

function privateWords(state: Answering): Pick<StatusFacts, 'text' | 'spoken'> & { readonly headline: string } {
  if (state.onBreak) {
    return {
      text: { icon: 'coffee', state: l10n.t('On break') },
      spoken: l10n.t('Time Tracker: on break.'),
      headline: l10n.t('**On break.**'),
    };
  }
  if (state.kind === 'tracking') {
    return {
      text: { icon: 'record', state: l10n.t('Tracking') },
      spoken: l10n.t('Time Tracker: tracking. Activate for the menu.'),
      headline: l10n.t('**Tracking.**'),
    };
  }
  return {
    text: { icon: 'clock', state: l10n.t('Not tracking') },
    spoken: l10n.t('Time Tracker: not tracking. Activate for the menu.'),
    headline: l10n.t('**Not tracking.**'),
  };
}
