/**
 * The second of the two steps from a state to the status bar item: a state's facts
 * (statusFacts.ts) → what the item shows: text with a codicon, a Markdown tooltip with command
 * links, what a click does, a tone and an accessibility label. One renderer for every state, so
 * every state is laid out alike, and pure, so every state is unit-tested as a user sees it. The
 * text's layout is statusText.ts's; this file adds what every state shows alike: the tooltip's
 * paragraphs in their order, the click that opens the menu, and the entries waiting in the
 * offline queue.
 */
import * as l10n from '@vscode/l10n';
import { COMMANDS } from '../ids';
import type { Presentation, StatusFacts, TooltipFacts } from './factTypes';
import { link } from '../markup';
import { statusText } from './statusText';

export function present(facts: StatusFacts): Presentation {
  const shown: Presentation = {
    text: statusText(facts.text, facts.format),
    accessibilityLabel: facts.spoken,
    tooltip: tooltipMarkdown(facts.tooltip),
    command: COMMANDS.showMenu,
    tone: facts.tone,
  };
  return facts.queued === undefined || facts.queued <= 0 ? shown : withQueued(shown, facts.queued);
}

/** The tooltip: the headline's sentences, the body's paragraphs, the links, the connection; empty ones left out. */
function tooltipMarkdown(tooltip: TooltipFacts): string {
  const links = (tooltip.links ?? []).map(({ label, command }) => link(label, command)).join(' · ');
  return [tooltip.headline.join(' '), ...(tooltip.body ?? []), links, tooltip.connection ?? '']
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

/** A waiting entry is shown in every state, because it is the user's time that is not yet logged. */
function withQueued(base: Presentation, queued: number): Presentation {
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
