/**
 * The signed client of the application's local HTTP API, for the extension and for scripts:
 * `const client = new ServiceClient(); await client.getStatus();` with CLESSIRA_TOKEN (or
 * NOWDOING_TOKEN, or SERVICE_TOKEN) set.
 */
export { ServiceClient } from './client';
export type { ServiceClientOptions, RequestRecord } from './options';
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
} from './errors';
/** The very function the client and the reference server sign with, for scripts that sign on their own. */
export { signRequest } from '../protocol/signing';
export type { HeaderPrefix } from '../protocol/headers';
