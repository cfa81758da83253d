/**
 * The tools this extension gives the editor's agent (VS Code's Language Model Tools API; declared in package.json's
 * `contributes.languageModelTools`, registered by the activation bundle, extension.ts): each a thin door onto what a
 * command or the status bar already does, answering short plain text (src/tracker/agentTools/toolAnswers.ts).
 *
 * - The status tool says what the status bar says, in its words, the fix included; the time-by-branch tool gives Copy
 *   Summary's text of a period. Neither sends a request.
 * - Start, Stop and Log Time run the commands of the same names with the agent's input as their arguments, so the
 *   command's checks hold (offline or locked out, an entry is queued once), and answer with the sentences the command
 *   said. While nothing may be signed (a rejected token, the lockout), Start and Stop answer with the status bar's
 *   sentence and ask nothing. Before one runs, the user says yes: in chat VS Code asks
 *   with this tool's question (`prepare`) under the call; outside a chat, and where a repository's settings turn VS
 *   Code's asking off, this extension asks itself (`saidYes`). In an untrusted workspace they refuse, asking nothing:
 *   an agent can be steered by what it reads in a repository.
 * - While the status bar is private, no tool names an activity or a time: the chat may be on a shared screen.
 */
import * as vscode from 'vscode';
import { TOOLS, type ToolName } from '../../tracker/ids';
import { dayOf } from '../../tracker/branchTime/ledgerBook';
import {
  approvedByWorkspaceOnly,
  logConfirmation,
  otherDayAsked,
  plainSaid,
  activityLines,
  plainTooltip,
  readPeriodInput,
  readQueryInput,
  recordedNow,
  startConfirmation,
  stopConfirmation,
  type AutoApproveValues,
  type ToolConfirmation,
} from '../../tracker/agentTools/toolAnswers';
import { classify } from '../../tracker/model/classify';
import { pauseFromError, signingPause } from '../../tracker/model/signingPause';
import { stateFromError } from '../../tracker/model/trackerState';
import { readLogArguments, readStartArguments } from '../../tracker/pickers/commandArguments';
import { checkEntryRequest, checkStartRequest, RuleViolation, type JsonObject } from '../../protocol/rules';
import type { ActivitySelector } from '../../protocol/types';
import { plainSummary } from './branchTime';
import { logTime } from './logTime';
import type { CommandServices } from './services';
import { start, stop } from './tracking';

/** How a tool was called: from a chat request (with its token), or by another extension outside one. */
export interface ToolCall {
  readonly inChat: boolean;
}

/** A tool's work, on an input that VS Code has not checked against the schema. */
export interface AgentTool {
  /** The question a write asks before it runs; a sentence when its input is refused (nothing is asked then). */
  prepare?(input: unknown): ToolConfirmation | string;
  invoke(input: unknown, call: ToolCall): Promise<string>;
}

export function agentTools(services: CommandServices): Readonly<Record<ToolName, AgentTool>> {
  return {
    [TOOLS.status]: { invoke: () => Promise.resolve(plainTooltip(services.statusBar.presentation.tooltip)) },
    [TOOLS.timeByBranch]: { invoke: (input) => timeByBranch(services, input) },
    [TOOLS.searchActivities]: { invoke: (input) => searchActivities(services, input) },
    [TOOLS.start]: writeTool(services, TOOLS.start, {
      confirm: (input) => {
        const request = checked(readStartArguments(input), checkStartRequest);
        return typeof request === 'string' ? request : startConfirmation(request, knownName(services, request));
      },
      act: (input) => start(services, input),
      notDone: () => vscode.l10n.t('Tracking was not started.'),
    }),
    [TOOLS.stop]: writeTool(services, TOOLS.stop, {
      confirm: () => {
        const { state } = services.session;
        const running =
          state.kind === 'tracking' && !services.settings().privateStatusBar ? state.activity.activityName : undefined;
        return stopConfirmation(running);
      },
      // Stop takes no arguments: what the agent passed is not the command's business.
      act: () => stop(services),
      notDone: () => vscode.l10n.t('Tracking was not stopped.'),
    }),
    [TOOLS.log]: writeTool(services, TOOLS.log, {
      confirm: (input) => {
        const request = checked(readLogArguments(input), checkEntryRequest);
        if (typeof request === 'string') return request;
        return logConfirmation(request, knownName(services, request), otherDayAsked(input, dayOf(Date.now())));
      },
      act: (input) => logTime(services, input),
      done: (input) => {
        const otherDay = otherDayAsked(input, dayOf(Date.now()));
        return otherDay === undefined ? [] : [recordedNow(otherDay)];
      },
    }),
  };
}

async function timeByBranch(services: CommandServices, input: unknown): Promise<string> {
  if (services.settings().privateStatusBar) return privateRefusal();
  const read = readPeriodInput(input);
  if ('refused' in read) return read.refused;
  return plainSummary(services, 'days' in read ? read.days : read.period);
}

/** The results a search asks for: enough to choose from, few enough to read. */
const SEARCH_LIMIT = 20;

/**
 * The pickers' search: the app's activities whose name holds the query. While nothing may be signed (a rejected token,
 * the lockout) or the license is locked, nothing is sent; then, and when the app does not answer, the activities it
 * named before, with the status bar's sentence for why. A refusal the search meets is shown as the poll would show it,
 * so that nothing more is sent on a token the app rejected.
 */
async function searchActivities(services: CommandServices, input: unknown): Promise<string> {
  if (services.settings().privateStatusBar) return privateRefusal();
  const read = readQueryInput(input);
  if ('refused' in read) return read.refused;
  const { session, known } = services;
  const why = (): string => statusReason(services);
  const mayAsk = signingPause(session.state, Date.now()) === undefined && session.state.kind !== 'licenseLocked';
  const client = mayAsk ? await session.ready() : undefined;
  if (client === undefined) return activityLines(read.query, known.matching(read.query), { kind: 'known', why: why() });
  try {
    const found = await client.searchActivities(read.query, { limit: SEARCH_LIMIT });
    known.remember(found);
    return activityLines(read.query, found, { kind: 'app' });
  } catch (error) {
    const failure = classify(error);
    const paused = pauseFromError(error) !== undefined || failure.kind === 'licenseLocked';
    if (paused) session.showChecked(stateFromError(error, Date.now()));
    const said = paused ? why() : failure.message;
    return activityLines(read.query, known.matching(read.query), { kind: 'known', why: said });
  }
}

/** The status bar's sentence for what holds now, without its commands: why a tool does not do what it was asked. */
function statusReason(services: CommandServices): string {
  return plainTooltip(services.statusBar.presentation.tooltip).split('\n\n')[0] ?? '';
}

interface WriteSteps {
  /** The question, or why the input is refused. */
  readonly confirm: (input: unknown) => ToolConfirmation | string;
  /** The command, with the input as its arguments; its result says whether the app took it. */
  readonly act: (input: unknown) => Promise<unknown>;
  /**
   * What a tool that needs the app now says when nothing may be signed (a rejected token, the lockout): it answers
   * before asking, with the status bar's sentence. Without it (Log Time), the command runs: it queues the entry.
   */
  readonly notDone?: () => string;
  /** What the answer says after the command's own sentences. */
  readonly done?: (input: unknown) => readonly string[];
}

function writeTool(services: CommandServices, name: ToolName, steps: WriteSteps): AgentTool {
  // What is refused is refused before anything is asked: the user is not asked for what will not be done.
  const question = (input: unknown): ToolConfirmation | string => {
    if (!vscode.workspace.isTrusted) return untrustedRefusal();
    if (steps.notDone && signingPause(services.session.state, Date.now()) !== undefined) {
      return `${statusReason(services)} ${steps.notDone()}`;
    }
    return steps.confirm(input);
  };
  return {
    prepare: question,
    invoke: async (input, call) => {
      const asked = question(input);
      if (typeof asked === 'string') return asked;
      if (!(await saidYes(services, name, asked, call))) return vscode.l10n.t('Nothing was sent: you said no.');
      const { result, said } = await services.messages.heard(() => steps.act(input));
      if (services.settings().privateStatusBar) return privateOutcome(result !== undefined);
      const answer = plainSaid([...said, ...(steps.done?.(input) ?? [])]);
      if (answer !== '') return answer;
      return result === undefined ? vscode.l10n.t('Nothing was sent.') : vscode.l10n.t('Done.');
    },
  };
}

/**
 * Whether the user said yes. In chat, VS Code asked with the tool's question, under the call, unless its
 * `chat.tools.autoApprove` said yes for them: said by the user's own settings, that is their decision; said only by the
 * workspace's (a repository's), this extension asks itself. Outside a chat (another extension calls the tool), this
 * extension asks itself: VS Code's own dialog for such a call is not shown everywhere (not while extension tests run,
 * perhaps not in every editor built on VS Code), and this one is.
 */
async function saidYes(
  services: CommandServices,
  name: ToolName,
  asked: ToolConfirmation,
  call: ToolCall,
): Promise<boolean> {
  if (call.inChat) {
    const values: AutoApproveValues | undefined = vscode.workspace
      .getConfiguration('chat.tools')
      .inspect<unknown>('autoApprove');
    if (!approvedByWorkspaceOnly(values, name)) return true;
  }
  const go = vscode.l10n.t('Go On');
  return (await services.messages.ask(asked.title, { modal: true, detail: asked.detail }, go)) === go;
}

/**
 * The request as the app's rules take it (src/protocol/rules.ts: a name's length, the minutes' range), or why not:
 * refused before the user is asked, not after.
 */
function checked<T extends object>(request: T | string, check: (body: JsonObject) => unknown): T | string {
  if (typeof request === 'string') return request;
  try {
    check({ ...request } as JsonObject);
    return request;
  } catch (error) {
    if (error instanceof RuleViolation) return error.message;
    throw error;
  }
}

/** The name this window knows an activity asked for by id by (the recent list); none for a request by name. */
function knownName(services: CommandServices, request: ActivitySelector): string | undefined {
  const { activityID } = request;
  if (activityID === undefined) return undefined;
  return services.recent.list().find((activity) => activity.activityID.toLowerCase() === activityID.toLowerCase())
    ?.activityName;
}

function untrustedRefusal(): string {
  return [
    vscode.l10n.t(
      'This workspace is not trusted, so the time tracker does not start, stop or log time for the agent here.',
    ),
    vscode.l10n.t(
      'An agent can be steered by what it reads in a repository: trust the workspace, or run the commands yourself.',
    ),
  ].join(' ');
}

/** Said after a private answer: why it names nothing. */
function privateReason(): string {
  return vscode.l10n.t(
    'The status bar is private (timeTracker.statusBar.private), so this names no activity and no time.',
  );
}

function privateRefusal(): string {
  return [
    privateReason(),
    vscode.l10n.t('The chat may be on a shared screen: "Time Tracker: Toggle Private Status Bar" names them again.'),
  ].join(' ');
}

function privateOutcome(taken: boolean): string {
  const outcome = taken
    ? [vscode.l10n.t('Done: the app took it.')]
    : [
        vscode.l10n.t('The app did not take it now; the notification says why.'),
        vscode.l10n.t('An entry waiting in the queue is sent once the app takes it.'),
      ];
  return [...outcome, privateReason()].join(' ');
}
