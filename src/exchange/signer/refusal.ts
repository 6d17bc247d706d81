/**
 * What a refusal to sign is: its kind (a metric label) and its reason. The policy decides
 * refusals and the audit counts them; both read these names, so they sit below both.
 */

/** Why a request was refused; the label of `akira_mm_signing_refused_total{kind}`. */
export type RefusalKind = 'account' | 'chain' | 'pair' | 'notional' | 'fee' | 'withdraw' | 'request';
export const REFUSAL_KINDS: readonly RefusalKind[] = ['account', 'chain', 'pair', 'notional', 'fee', 'withdraw', 'request'];

/** The request kinds a signer signs (`akira-mm hash` names, plus the login message). */
export type SignedKind = 'order' | 'cancel' | 'cancel-all' | 'withdraw' | 'increase-nonce' | 'login' | 'fast-sign';

/** A refusal: its kind and a sentence saying what was asked and what is allowed (no secrets). */
export interface Refusal {
  readonly kind: RefusalKind;
  readonly reason: string;
}
