/**
 * What the core (core.ts) and the rest (rest.ts) hand each other, as types only: each bundle
 * names the other's parts without importing its code, and neither imports the other.
 */
import type { HostDecision } from '../tracker/model/remoteHost';
import type { RecentActivities } from '../tracker/pickers/recentActivities';
import type { LongSessionWords } from '../tracker/statusBar/factTypes';
import type { BranchReporter } from './branchReporter';
import type { BranchTime } from './branchTime/branchTime';
import type { BranchTimeView } from './branchTime/branchTimeView';
import type { Coexistence } from './coexistence/coexistence';
import type { CommandTable } from './commands';
import type { LinkController } from './links/linkController';
import type { Messages } from './messages';
import type { OfflineQueue } from './offlineQueue';
import type { OnboardingView } from './onboarding/onboardingController';
import type { OneLineLogChannel } from './oneLineLog';
import type { Session } from './session';
import type { Settings } from './settings';

/** What several parts read and a change replaces: the settings as last read, and the branch watch under way. */
export interface Live {
  settings: Settings;
  branchWatch: Promise<void>;
}

/** What every other part is built on. */
export interface Connection {
  readonly log: OneLineLogChannel;
  readonly host: () => HostDecision;
  readonly session: Session;
  readonly messages: Messages;
  readonly recent: RecentActivities;
}

/** What the core reads of the rest once it is built. */
export interface Rest {
  readonly queue: OfflineQueue;
  readonly branches: BranchReporter;
  readonly branchTime: BranchTime;
  readonly branchTimeView: BranchTimeView;
  readonly links: LinkController;
  readonly onboarding: OnboardingView & { dispose(): void };
  readonly coexistence: Coexistence;
  /** Every command's handler, by id. */
  readonly commands: CommandTable['handlers'];
  /** The editor agent's tools, by name. */
  readonly tools: CommandTable['tools'];
  /** What the status bar says of a session that has run for hours. */
  readonly longSession: LongSessionWords;
  /** The settings were read again (`live.settings`): each part applies what concerns it. */
  settingsChanged(affects: (key: string) => boolean): void;
}
