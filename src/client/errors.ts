/** Typed errors of the client layer. Each has a literal `code` so callers can branch safely. */

/** The engine is gone: its worker crashed, failed the handshake or was terminated. */
export class EngineDeadError extends Error {
  readonly code = 'engine-dead';
  override readonly name = 'EngineDeadError';
}

/** The engine answered the handshake with another protocol version. */
export class ProtocolMismatchError extends Error {
  readonly code = 'protocol-mismatch';
  override readonly name = 'ProtocolMismatchError';
  constructor(
    readonly expected: number,
    readonly actual: unknown,
  ) {
    super(
      `The engine speaks protocol version ${String(actual)} but this page expects version ${expected}. ` +
        'Reload the page to get matching files.',
    );
  }
}

/**
 * A request that a newer one replaced before it ran (or whose answer is stale). Named
 * `AbortError` like the platform's cancellation errors, so one check covers both.
 */
export class SupersededError extends Error {
  readonly code = 'superseded';
  override readonly name = 'AbortError';
  constructor(message = 'superseded by a newer request') {
    super(message);
  }
}

/**
 * True for cancellations: our {@link SupersededError}, the engine's cancelled `open`
 * (an Error named `AbortError`, rebuilt by comlink from the worker) and `DOMException` aborts.
 * Callers ignore these: they are not failures the user needs to see.
 */
export function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError';
}

/** Best-effort text of anything thrown, fit to show to a user. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const message = error.message;
    if (typeof message === 'string') return message;
  }
  return String(error);
}
