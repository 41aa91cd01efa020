/**
 * A known reason a process cannot start (the port is taken, a store does not answer, the data
 * directory cannot be written): printed as its one-line message, without a stack trace.
 */
export class StartupRefusal extends Error {
  override readonly name = 'StartupRefusal';
}
