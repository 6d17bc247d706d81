/**
 * A value that must never be printed: a private key, a JWT. `String()`, template literals,
 * `JSON.stringify`, `util.inspect` and `console.log` all show `<redacted>`; only `reveal()` gives
 * the value, so every place that uses the secret is easy to find.
 */
import { inspect } from 'node:util';

const REDACTED = '<redacted>';

/** Wraps a secret string. */
export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The secret itself. Call it only where the secret is used (signing, an auth header). */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}
