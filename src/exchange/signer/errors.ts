/**
 * Errors of the signer layer. Codes are stable (STYLE.md): callers branch on `code`. None of
 * them ever carries a private key, a password or a decrypted byte in its message.
 */
import { MmError } from '../../core/index.ts';

/** Codes raised by `src/exchange/signer`. */
export type SignerErrorCode =
  /** A private key that is not a Stark-curve scalar in [1, n). */
  | 'SIGNER_INVALID_KEY'
  /** A keystore file that is not Web3 Secret Storage v3 JSON we can read. */
  | 'SIGNER_KEYSTORE_INVALID'
  /** The keystore's MAC does not match: a wrong password, or an altered file. */
  | 'SIGNER_KEYSTORE_WRONG_PASSWORD'
  /** The signing policy forbids the request (see `kind`). */
  | 'SIGNER_REFUSED'
  /** The remote signer cannot be reached or did not answer in time. */
  | 'SIGNER_UNAVAILABLE';

/** An error of the signer layer. */
export class SignerError extends MmError<SignerErrorCode> {
  constructor(code: SignerErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'SignerError';
  }
}
