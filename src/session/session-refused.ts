/**
 * A session that cannot start for a reason the client can act on (no CDP port
 * free, a feature the server does not offer); the HTTP endpoint answers it with
 * `status` and the message instead of a bare 500.
 */
export class SessionRefused extends Error {
  override name = 'SessionRefused';
  readonly status: number;

  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}
