/**
 * The signed client of the application's local HTTP API, for the extension and for scripts:
 * `const client = new ServiceClient(); await client.getStatus();` with CLESSIRA_TOKEN (or
 * NOWDOING_TOKEN, or SERVICE_TOKEN) set.
 */
export { ServiceClient, type CallOptions, type SearchOptions } from './client';
export type { HeaderPrefixOption, ServiceClientOptions, RequestRecord } from './options';
/** What each operation returns: what the app said; `undefined` where it said nothing. */
export type {
  ActivityMatch,
  BranchChangeAnswer,
  CurrentAnswer,
  EntryAnswer,
  HealthAnswer,
  StartAnswer,
  StatusAnswer,
  StopAnswer,
} from './answerTypes';
export {
  AnswerLostError,
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  HttpError,
  NotFoundError,
  ReplayError,
  ServiceError,
  UnavailableError,
  ValidationError,
  type ServiceErrorCode,
} from './errors';
/** The very function the client and the reference server sign with, for scripts that sign on their own. */
export { signRequest, type SignRequestInput } from '../protocol/signing';
export type { HeaderPrefix } from '../protocol/headers';
export type * from '../protocol/types';
