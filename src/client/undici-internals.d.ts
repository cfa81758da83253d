// The internal modules of undici 7 that src/client/undiciPool.ts loads instead of the package's
// entry point; their shapes are those undici declares for `Pool`, `Dispatcher#request` and
// `errors.ConnectTimeoutError`.
declare module 'undici/lib/dispatcher/pool' {
  const Pool: typeof import('undici').Pool;
  export = Pool;
}

declare module 'undici/lib/api/api-request' {
  type Dispatcher = import('undici').Dispatcher;
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export = request;
}

declare module 'undici/lib/core/errors' {
  export const ConnectTimeoutError: typeof import('undici').errors.ConnectTimeoutError;
}
