/**
 * The one base class of akira-mm errors. Every error carries a stable, layer-prefixed
 * SCREAMING_SNAKE `code` (STYLE.md): callers branch on `code`, never on message text, and codes
 * are never renamed. Each layer declares its own literal union of codes and may subclass.
 */
export class MmError<Code extends string = string> extends Error {
  readonly code: Code;

  constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MmError';
    this.code = code;
  }
}

/** Codes raised by `src/core`. */
export type CoreErrorCode =
  | 'CORE_UNKNOWN_TOKEN'
  | 'CORE_INVALID_AMOUNT'
  | 'CORE_INVALID_RULES'
  | 'CORE_INVARIANT'
  | 'CORE_INVALID_OPTION';

/** True when `error` is an `MmError` with this code. */
export function hasErrorCode<Code extends string>(error: unknown, code: Code): error is MmError<Code> {
  return error instanceof MmError && error.code === code;
}
