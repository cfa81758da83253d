/** A request the service refuses: the status and the one sentence that goes into `{"error": ...}`. */
export class ServiceFailure extends Error {
  constructor(
    readonly status: 400 | 404 | 413,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceFailure';
  }
}

export function badRequest(message: string): ServiceFailure {
  return new ServiceFailure(400, message);
}
