/**
 * Sessions (SPEC §2): login challenges, JWTs and WS listen keys.
 * - A challenge is a decimal number (so SNIP-12 rev 0 hashes it as that integer, REFERENCE §2.1),
 *   bound to the (signer, account) that asked, single use, expiring after `challengeTtlMs`.
 * - The JWT is a real HS256 JWT (header.payload.signature) keyed by a per-venue secret, so it
 *   cannot be forged or edited; it carries the account and signer and an expiry.
 * - A listen key belongs to one account; asking again returns the same key with a fresh expiry.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock, Rng } from '../core/index.ts';
import type { SimSettings } from './settings.ts';

/** Who a JWT or listen key speaks for. */
export interface Session {
  readonly account: bigint;
  readonly signer: bigint;
}

interface Challenge extends Session {
  readonly expiresAtMs: number;
}

interface ListenKey extends Session {
  expiresAtMs: number;
}

function base64url(data: string | Buffer): string {
  return Buffer.from(data).toString('base64url');
}

/** Login challenges, JWTs and listen keys of one venue. */
export class AuthService {
  private readonly challenges = new Map<string, Challenge>();
  private readonly listenKeys = new Map<string, ListenKey>();
  private readonly keyByAccount = new Map<bigint, string>();

  constructor(
    private readonly clock: Clock,
    private readonly settings: SimSettings,
    private readonly rng: Rng,
    private readonly secret: Buffer,
  ) {}

  /** A fresh challenge for this signer and account. */
  issueChallenge(signer: bigint, account: bigint): string {
    this.pruneChallenges();
    const challenge = (this.rng.bigint(120) + 1n).toString();
    this.challenges.set(challenge, { signer, account, expiresAtMs: this.clock.nowMs() + this.settings.challengeTtlMs });
    return challenge;
  }

  /** Consumes a challenge: its session, 'expired', or undefined when unknown (or used). */
  takeChallenge(challenge: string): Session | 'expired' | undefined {
    const found = this.challenges.get(challenge);
    if (found === undefined) return undefined;
    this.challenges.delete(challenge);
    if (this.clock.nowMs() >= found.expiresAtMs) return 'expired';
    return { account: found.account, signer: found.signer };
  }

  /** Puts a challenge back (the signature check failed: the user may retry with a good one). */
  restoreChallenge(challenge: string, session: Session): void {
    this.challenges.set(challenge, { ...session, expiresAtMs: this.clock.nowMs() + this.settings.challengeTtlMs });
  }

  /** A signed JWT for this session. */
  issueJwt(session: Session): string {
    const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
    const payload = base64url(
      JSON.stringify({
        sub: `0x${session.account.toString(16)}`,
        signer: `0x${session.signer.toString(16)}`,
        exp: Math.floor((this.clock.nowMs() + this.settings.jwtTtlMs) / 1000),
      }),
    );
    return `${header}.${payload}.${this.mac(`${header}.${payload}`)}`;
  }

  /** The session of a valid, unexpired JWT; undefined otherwise. */
  verifyJwt(token: string): Session | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [header, payload, mac] = parts as [string, string, string];
    const expected = Buffer.from(this.mac(`${header}.${payload}`));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub: string; signer: string; exp: number };
      if (this.clock.nowMs() >= claims.exp * 1000) return undefined;
      return { account: BigInt(claims.sub), signer: BigInt(claims.signer) };
    } catch {
      return undefined;
    }
  }

  /** The account's listen key, created or extended by `listenKeyTtlMs` (REFERENCE §1.2 #7). */
  listenKey(session: Session): string {
    const expiresAtMs = this.clock.nowMs() + this.settings.listenKeyTtlMs;
    const existing = this.keyByAccount.get(session.account);
    const found = existing === undefined ? undefined : this.listenKeys.get(existing);
    if (existing !== undefined && found !== undefined) {
      found.expiresAtMs = expiresAtMs;
      return existing;
    }
    const key = this.rng.bigint(128).toString(16).padStart(32, '0');
    this.listenKeys.set(key, { ...session, expiresAtMs });
    this.keyByAccount.set(session.account, key);
    return key;
  }

  /** The session of a live listen key. */
  resolveListenKey(key: string): Session | undefined {
    const found = this.listenKeys.get(key);
    if (found === undefined || this.clock.nowMs() >= found.expiresAtMs) return undefined;
    return { account: found.account, signer: found.signer };
  }

  /** Drops expired listen keys and returns them (their sockets must close). */
  expireListenKeys(): string[] {
    const now = this.clock.nowMs();
    const expired: string[] = [];
    for (const [key, found] of this.listenKeys) {
      if (now >= found.expiresAtMs) {
        expired.push(key);
        this.listenKeys.delete(key);
        if (this.keyByAccount.get(found.account) === key) this.keyByAccount.delete(found.account);
      }
    }
    return expired;
  }

  private pruneChallenges(): void {
    const now = this.clock.nowMs();
    for (const [key, found] of this.challenges) if (now >= found.expiresAtMs) this.challenges.delete(key);
  }

  private mac(text: string): string {
    return createHmac('sha256', this.secret).update(text).digest('base64url');
  }
}
