/**
 * Login and the public-information endpoints (REFERENCE §1.2 rows 1–5 and 8–11): challenge and
 * JWT, gas price, book top and snapshot, conversion rate, steps, ticker specs, router details.
 */
import { formatUnits } from '../core/index.ts';
import { FieldReader, WireError, feltToHex, parseFelt } from '../exchange/wire/fields.ts';
import type { VenueContext } from './context.ts';
import { SimRejection } from './errors.ts';
import { HttpError, type Route } from './http.ts';
import { pairLabelOf } from './markets.ts';
import { feltParam, intParam, marketParam, required } from './query.ts';

/** `GET /sign/request_sign_data?user=<signer key>&account=<trading account>` → challenge. */
function requestSignData(venue: VenueContext): Route {
  return {
    method: 'GET',
    auth: false,
    handle: ({ query }) => {
      const user = feltParam(query, 'user');
      const account = feltParam(query, 'account');
      const known = venue.accounts.get(account);
      // The signer must be the key bound to the account (SW: 400 "Wrong account").
      if (known === undefined || known.publicKey !== user) throw new HttpError(400, 'Wrong account');
      return venue.auth.issueChallenge(user, account);
    },
  };
}

/** `POST /sign/auth {msg, signature}` → JWT, after checking the SNIP-12 login signature. */
function signAuth(venue: VenueContext): Route {
  return {
    method: 'POST',
    auth: false,
    handle: async ({ body }) => {
      let challenge: bigint;
      let signature;
      try {
        const reader = FieldReader.root(body);
        challenge = parseFelt(reader.raw('msg'), 'msg');
        signature = reader.signature('signature');
      } catch (error) {
        if (error instanceof WireError) throw new HttpError(400, `Invalid msg or signature parameter (${error.message})`);
        throw error;
      }
      const session = venue.auth.takeChallenge(challenge.toString());
      if (session === undefined) throw new HttpError(400, 'Invalid msg or signature parameter (unknown or used challenge)');
      if (session === 'expired') throw new HttpError(400, 'Message expired');
      const result = await venue.checker.check({ kind: 'login', account: session.account, challenge, sign: signature, publicKey: session.signer });
      if (!result.valid) {
        venue.auth.restoreChallenge(challenge.toString(), session);
        throw new HttpError(400, 'Invalid signature');
      }
      return venue.auth.issueJwt(session);
    },
  };
}

function get(handle: Route['handle']): Route {
  return { method: 'GET', auth: true, handle };
}

/** Routes of this file by path (both spellings where SPEC §1 says so). */
export function infoRoutes(venue: VenueContext): Array<[string, Route]> {
  const steps = get(() => ({ ...venue.settings.steps }));
  return [
    ['/sign/request_sign_data', requestSignData(venue)],
    ['/sign/auth', signAuth(venue)],
    // Raw fri per step as a string (REFERENCE §1.2 #3).
    ['/gas/price', get(() => venue.prices.gasPriceFri().toString())],
    ['/book/bbo', get(({ query }) => venue.marketData.bbo(marketParam(query, venue)))],
    ['/book/snapshot', get(({ query }) => venue.marketData.snapshot(marketParam(query, venue), intParam(query, 'levels', -1, -1, 10_000)))],
    [
      '/info/conversion_rate',
      get(({ query }) => {
        const symbol = required(query, 'token');
        const rate = venue.prices.conversionRate(symbol);
        const token = venue.chain.tokens.get(symbol);
        if (rate === undefined || token === undefined) throw new SimRejection('WRONG_FEE_TOKEN', `no conversion rate for ${symbol}`);
        return [formatUnits(rate[0], 18), formatUnits(rate[1], token.decimals)];
      }),
    ],
    ['/info/steps_specifications', steps],
    ['/info/steps_specification', steps],
    [
      '/info/ticker_specifications',
      get(() =>
        [...venue.engine.markets.values()].map((market) => ({
          ticker: { pair: { base: market.base.symbol, quote: market.quote.symbol }, isEcosystemBook: market.isEcosystemBook },
          rawPriceIncrement: market.priceTick.toString(),
          rawMinQuoteQty: market.minQty.toString(),
          rawQuoteQtyIncrement: market.qtyStep.toString(),
          pair: pairLabelOf(market),
        })),
      ),
    ],
    [
      '/info/router_details',
      get(() => ({
        routerTakerPbips: venue.settings.routerTakerPbips,
        routerMakerPbips: venue.settings.routerMakerPbips,
        routerSigner: feltToHex(venue.routerSigner),
        routerFeeRecipient: venue.chain.feeRecipient,
      })),
    ],
  ];
}
