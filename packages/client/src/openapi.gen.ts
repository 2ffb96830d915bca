// GENERATED from Sluice's own GET /api/v1/openapi.json by openapi-typescript: do not edit by hand.
// Regenerate with `npm run client:types` (starts a devnet in a temporary directory, reads the document it serves and
// rewrites this file). test/client/client.test.ts fails when this file and the running server's document drift.
export interface paths {
    "/auctions/{requestId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A quote round's or hard round's results
         * @description Every solver's outcome (quoted amount, declined, or rejected with its reason code), latency, rank and offered legs, which entries became orders, and for a hard round (an /order call's `requestId`) the winner and its committed amount. Public from the round's quote deadline + 10 s, so quotes are never shown while they can still be taken: before that 409 `AUCTION_OPEN` with `details.availableAt`.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /**
                     * @description The `requestId` of a POST /quote answer, or of a POST /order call (its hard round)
                     * @example 6f1c2a54-3b9e-4d2f-9a61-0c8e5b7d4a10
                     */
                    requestId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The round's results */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AuctionResult"];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Not found. Error codes:
                 *     - `AUCTION_NOT_FOUND`: No /quote round or /order hard round was stored under this request id
                 */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Conflict with the current state. Error codes:
                 *     - `AUCTION_OPEN`: The round's quotes can still be taken: its results are public from `details.availableAt` (ISO-8601)
                 */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `SERVICE_UNAVAILABLE`: The database is unavailable; retry later
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * The transaction that cancels an open order on-chain
         * @description Answers the unsigned `Reactor.invalidateNonce(nonce)` transaction, in `/check_approval`'s shape, for the order's swapper to send; Sluice sends nothing. Once it is mined the indexer marks the order `cancelled` (the order stream reports it). Sent from any other account it invalidates that account's nonce and changes nothing. 409 `ORDER_NOT_OPEN` unless the order is `open` or `insufficient-funds` and its deadline has not passed by chain time.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CancelRequestInput"];
                };
            };
            responses: {
                /** @description The transaction the swapper sends to cancel the order */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CancelResponse"];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Not found. Error codes:
                 *     - `ORDER_NOT_FOUND`: Unknown order id
                 */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Conflict with the current state. Error codes:
                 *     - `ORDER_NOT_OPEN`: The order is not open (nor insufficient-funds), or its deadline has passed by chain time: nothing to cancel
                 */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Payload too large (the body limit is 1 MiB). Error codes:
                 *     - `PAYLOAD_TOO_LARGE`: The body is over 1 MiB
                 */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unsupported media type (send `Content-Type: application/json`). Error codes:
                 *     - `UNSUPPORTED_MEDIA_TYPE`: The body is not JSON
                 */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `CHAIN_UNAVAILABLE`: The chain could not be read (no RPC endpoint answered in time): nothing was judged; retry after `Retry-After` seconds (`details.chainId`, `details.chain`)
                 *     - `SERVICE_UNAVAILABLE`: The database is unavailable; retry later
                 */
                503: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `CHAIN_UNAVAILABLE`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/check_approval": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * ERC-20 approval transactions for the Reactor
         * @description Allowance sufficient: both null. Allowance zero: only `approval` (approve the Reactor for max uint256). Allowance nonzero but short: `cancel` (approve 0) then `approval`.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CheckApprovalRequestInput"];
                };
            };
            responses: {
                /** @description The transactions to send first (none when the allowance already covers `amount`) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CheckApprovalResponse"];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 *     - `UNSUPPORTED_CHAIN`: The chain id is not this deployment's
                 *     - `UNSUPPORTED_TOKEN`: The token is not one this deployment supports on that side
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Payload too large (the body limit is 1 MiB). Error codes:
                 *     - `PAYLOAD_TOO_LARGE`: The body is over 1 MiB
                 */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unsupported media type (send `Content-Type: application/json`). Error codes:
                 *     - `UNSUPPORTED_MEDIA_TYPE`: The body is not JSON
                 */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `CHAIN_UNAVAILABLE`: The chain could not be read (no RPC endpoint answered in time): nothing was judged; retry after `Retry-After` seconds (`details.chainId`, `details.chain`)
                 */
                503: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `CHAIN_UNAVAILABLE`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/deployment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The deployment this Sluice serves
         * @description Its chain, Reactor and protocol signer, the input and output tokens (with each input token's minimum amount), the adapters, the solvers configured now (id, name, Executor) and the auction's timings (`solverTimeoutMs`, `quoteLifetimeSeconds`): what a solver operator needs to quote here. A Sluice addition.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The deployment's public facts */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PublicDeployment"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dev/faucet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The faucet bundle (local devnet only)
         * @description The ERC-20s POST /dev/faucet sends (it also sends ETH for gas, not listed). 403 `DEV_ONLY` on any deployment but a local devnet.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The ERC-20s the faucet sends */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DevFaucetResponse"];
                    };
                };
                /**
                 * @description Forbidden. Error codes:
                 *     - `DEV_ONLY`: Served by a local devnet only
                 */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        put?: never;
        /**
         * Send the faucet bundle to a wallet (local devnet only)
         * @description Sends every asset of the bundle (the ERC-20s GET /dev/faucet lists, and ETH for gas) and answers once the transfers are mined; `fundedAssets` lists the ERC-20s. 403 `DEV_ONLY` on any deployment but a local devnet.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DevFundRequestInput"];
                };
            };
            responses: {
                /** @description The wallet is funded; `fundedAssets` lists the ERC-20s sent */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DevFaucetFundResponse"];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Forbidden. Error codes:
                 *     - `DEV_ONLY`: Served by a local devnet only
                 */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Payload too large (the body limit is 1 MiB). Error codes:
                 *     - `PAYLOAD_TOO_LARGE`: The body is over 1 MiB
                 */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unsupported media type (send `Content-Type: application/json`). Error codes:
                 *     - `UNSUPPORTED_MEDIA_TYPE`: The body is not JSON
                 */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/dev/fund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Top a wallet up with ETH and the input token (local devnet only)
         * @description Sends the bundle's ETH and input token and answers once the transfers are mined. 403 `DEV_ONLY` on any deployment but a local devnet.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DevFundRequestInput"];
                };
            };
            responses: {
                /** @description The wallet is funded with ETH and the input token */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DevFundResponse"];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Forbidden. Error codes:
                 *     - `DEV_ONLY`: Served by a local devnet only
                 */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Payload too large (the body limit is 1 MiB). Error codes:
                 *     - `PAYLOAD_TOO_LARGE`: The body is over 1 MiB
                 */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unsupported media type (send `Content-Type: application/json`). Error codes:
                 *     - `UNSUPPORTED_MEDIA_TYPE`: The body is not JSON
                 */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/discount": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a signed discount, or cancel one
         * @description `discount` is the EIP-712 `Discount(address tokenToRedeem,uint256 discount,address signer,address protocol,uint256 nonce,uint48 deadline)` (domain `LiquidLaneAdapter`, version `1`, the chain id, the adapter as verifying contract) plus the adapter; `signature` is the signer's. The signer must be authorized on the adapter (owner, market maker or `isFiller(marketMaker, signer)`).
         *
         *     Publish (`deadline` > 0): `protocol` must be the deployment's protocol signer, `minDiscount ≤ discount ≤ 1000000` ppm, the nonce unused on the adapter and the deadline after the latest block's timestamp; the discount then replaces whatever the pair (adapter, tokenToRedeem) had, and counts once this answers 200.
         *
         *     Cancel (`deadline` 0): any validly signed request of an authorized signer deletes the pair's discount and answers its id (with none stored, the cancel's own digest). Each cancel works once, and a cancelled discount can never be published again. Cancelling is backend-only: nothing is retracted on-chain.
         *
         *     Errors: 400 `VALIDATION_FAILED`; 400 `INVALID_SIGNATURE`; 400 `UNAUTHORIZED_SIGNER`; `DISCOUNT_REJECTED` with `details.reason` — 400 `unknown_adapter`, `unsupported_token`, `wrong_protocol`, `above_max_discount`, `below_min_discount`, `expired`; 409 `nonce_used`, `cancelled`, `replayed_cancel`. Nothing is stored on failure.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DiscountRequestInput"];
                };
            };
            responses: {
                /** @description The discount published (or the pair's discount cancelled), with its id */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DiscountResponse"];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 *     - `INVALID_SIGNATURE`: The signature does not recover to the expected signer
                 *     - `UNAUTHORIZED_SIGNER`: The signer is not authorized on the adapter
                 *     - `DISCOUNT_REJECTED`: The discount breaks a rule; `details.reason` says which
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Conflict with the current state. Error codes:
                 *     - `DISCOUNT_REJECTED`: The discount breaks a rule; `details.reason` says which
                 */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Payload too large (the body limit is 1 MiB). Error codes:
                 *     - `PAYLOAD_TOO_LARGE`: The body is over 1 MiB
                 */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unsupported media type (send `Content-Type: application/json`). Error codes:
                 *     - `UNSUPPORTED_MEDIA_TYPE`: The body is not JSON
                 */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `CHAIN_UNAVAILABLE`: The chain could not be read (no RPC endpoint answered in time): nothing was judged; retry after `Retry-After` seconds (`details.chainId`, `details.chain`)
                 *     - `SERVICE_UNAVAILABLE`: The database is unavailable; retry later
                 */
                503: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `CHAIN_UNAVAILABLE`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/entities/curators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List curators
         * @description Every curator with its metadata and the approved vaults it curates, sorted by id.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Curators */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerCurator"][];
                    };
                };
                /** @description Not modified: the list still has the ETag given in If-None-Match */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/entities/networks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List networks
         * @description Every network of the registry with its metadata, sorted by address.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Networks */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerEntity"][];
                    };
                };
                /** @description Not modified: the list still has the ETag given in If-None-Match */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/entities/operators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List operators
         * @description Every operator of the registry with its metadata, sorted by address.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Operators */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerEntity"][];
                    };
                };
                /** @description Not modified: the list still has the ETag given in If-None-Match */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/entities/vaults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List approved vaults
         * @description Approved vaults only, with their on-chain fields and metadata, sorted by address.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Approved vaults */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerVault"][];
                    };
                };
                /** @description Not modified: the list still has the ETag given in If-None-Match */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness probe
         * @description 200 `ok` while running, 503 `draining` once shutdown starts, each with the server's `timestamp`. Checks no dependency.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Running (`ok`) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Health"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /** @description Draining (`draining`): shutdown has started, send traffic elsewhere */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Health"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liquidity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Adapter inventory available to each eligible solver
         * @description A solver's `liquidity` is the sum of the capacities (`getMaxAssets`, tokenOut base units) of the distinct adapters it is offered, under the same authorization and live-discount rules as /quote: its direct legs, plus every live discount leg when it is internal. Unfiltered, `totalLiquidity` counts the internal pool (every discount-leg adapter and every enabled internal solver's direct-leg adapter) once and adds each enabled external solver's liquidity; with `solverId` (which wins) or `solverIds` both `solvers` and the total are restricted to the selected enabled solvers (unknown, reserved and disabled ids select nothing). An adapter shared by the internal pool and an external solver is counted more than once in the total (spec rule 2), so the total can be below the sum of the solver values; it is never below any one of them. No solver is called, nothing is stored and no funds are reserved: quote again before signing.
         *
         *     400 `UNSUPPORTED_TOKEN` when tokenIn is not an input token with a liquidity output token.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["LiquidityRequestInput"];
                };
            };
            responses: {
                /** @description Each eligible solver's liquidity and the total */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LiquiditySnapshot"];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 *     - `UNSUPPORTED_TOKEN`: The token is not one this deployment supports on that side
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Payload too large (the body limit is 1 MiB). Error codes:
                 *     - `PAYLOAD_TOO_LARGE`: The body is over 1 MiB
                 */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unsupported media type (send `Content-Type: application/json`). Error codes:
                 *     - `UNSUPPORTED_MEDIA_TYPE`: The body is not JSON
                 */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `CHAIN_UNAVAILABLE`: The chain could not be read (no RPC endpoint answered in time): nothing was judged; retry after `Retry-After` seconds (`details.chainId`, `details.chain`)
                 *     - `SERVICE_UNAVAILABLE`: The database is unavailable; retry later
                 */
                503: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `CHAIN_UNAVAILABLE`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/liquidity-batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Liquidity snapshots for several input tokens
         * @description One /liquidity snapshot per token, in request order, with `solverId`/`solverIds` applied to every token. A solver's `liquidity` is the sum of the capacities (`getMaxAssets`, tokenOut base units) of the distinct adapters it is offered, under the same authorization and live-discount rules as /quote: its direct legs, plus every live discount leg when it is internal. Unfiltered, `totalLiquidity` counts the internal pool (every discount-leg adapter and every enabled internal solver's direct-leg adapter) once and adds each enabled external solver's liquidity; with `solverId` (which wins) or `solverIds` both `solvers` and the total are restricted to the selected enabled solvers (unknown, reserved and disabled ids select nothing). An adapter shared by the internal pool and an external solver is counted more than once in the total (spec rule 2), so the total can be below the sum of the solver values; it is never below any one of them. No solver is called, nothing is stored and no funds are reserved: quote again before signing.
         *
         *     Every token is checked before any inventory is read: a duplicate (compared case-insensitively) answers 400 `DUPLICATE_TOKEN`, an unsupported token 400 `UNSUPPORTED_TOKEN` whose `details.token` names it (`details.tokens` and `details.issues` list every unsupported one).
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["LiquidityBatchRequestInput"];
                };
            };
            responses: {
                /** @description One liquidity snapshot per token, in request order */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LiquidityBatchResponse"];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 *     - `UNSUPPORTED_TOKEN`: The token is not one this deployment supports on that side
                 *     - `DUPLICATE_TOKEN`: A token is listed more than once
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Payload too large (the body limit is 1 MiB). Error codes:
                 *     - `PAYLOAD_TOO_LARGE`: The body is over 1 MiB
                 */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unsupported media type (send `Content-Type: application/json`). Error codes:
                 *     - `UNSUPPORTED_MEDIA_TYPE`: The body is not JSON
                 */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `CHAIN_UNAVAILABLE`: The chain could not be read (no RPC endpoint answered in time): nothing was judged; retry after `Retry-After` seconds (`details.chainId`, `details.chain`)
                 *     - `SERVICE_UNAVAILABLE`: The database is unavailable; retry later
                 */
                503: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `CHAIN_UNAVAILABLE`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/order": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit a signed quote as an order
         * @description Checks, in order: unknown quote id (404); an existing order for the quote with a valid signature is returned; expired (409); the quote differs from the one issued (400); invalid signature (400); no solver can still honor it (409), or none answered while some were left out by their concurrency cap (503 `SOLVERS_BUSY` with `Retry-After`: post the same quote again). The order is counter-signed by the protocol key and stored once per quote.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["OrderRequestInput"];
                };
            };
            responses: {
                /** @description The order, counter-signed and stored (the same order again for a re-posted quote) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OrderResponse"];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 *     - `QUOTE_MISMATCH`: The submitted quote differs from the quote issued
                 *     - `INVALID_SIGNATURE`: The signature does not recover to the expected signer
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Not found. Error codes:
                 *     - `QUOTE_NOT_FOUND`: Unknown quote id
                 */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Conflict with the current state. Error codes:
                 *     - `QUOTE_EXPIRED`: The quote has expired
                 *     - `QUOTE_UNAVAILABLE`: No solver can honor the quote any more, or its nonce is used
                 */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Payload too large (the body limit is 1 MiB). Error codes:
                 *     - `PAYLOAD_TOO_LARGE`: The body is over 1 MiB
                 */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unsupported media type (send `Content-Type: application/json`). Error codes:
                 *     - `UNSUPPORTED_MEDIA_TYPE`: The body is not JSON
                 */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `SOLVERS_BUSY`: No quote: solvers that could answer were left out by their concurrency cap; retry after `Retry-After` seconds (`details.solversAsked`, `details.solversBusy`)
                 *     - `CHAIN_UNAVAILABLE`: The chain could not be read (no RPC endpoint answered in time): nothing was judged; retry after `Retry-After` seconds (`details.chainId`, `details.chain`)
                 *     - `SERVICE_UNAVAILABLE`: The database is unavailable; retry later
                 */
                503: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `SOLVERS_BUSY`, `CHAIN_UNAVAILABLE`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stored orders, newest first
         * @description At least one of orderId, orderIds, orderHash, orderHashes, orderStatus, swapper, filler is required. `solverId` keeps that solver's orders and `filler` that Executor's; either adds `encodedOrder`, `protocolSignature`, `deadline` and `filler` to the open orders it keeps (public by design: only the order's filler can fill it). `sortKey` orders by createdAt (default) or updatedAt. The whole list is returned (streamed) unless `limit` is given; then `cursor` pages.
         */
        get: {
            parameters: {
                query?: {
                    orderId?: string;
                    /** @description Comma-separated (or repeated) order ids, at most 50 */
                    orderIds?: string | string[];
                    orderHash?: string;
                    /** @description Comma-separated (or repeated) order hashs, at most 50 */
                    orderHashes?: string | string[];
                    /** @example filled */
                    orderStatus?: "open" | "expired" | "error" | "cancelled" | "filled";
                    /**
                     * @description EVM address; any case accepted, returned lowercase
                     * @example 0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc
                     */
                    swapper?: string;
                    /** @description Keeps only the orders this Executor fills and adds the execution fields to its open orders */
                    filler?: string;
                    /** @description Keeps only this solver's orders and adds the execution fields to its own open orders */
                    solverId?: string;
                    sortKey?: "createdAt" | "updatedAt";
                    sort?: "asc" | "desc";
                    /**
                     * @description Extension: page size; without it the whole list is returned
                     * @example 10
                     */
                    limit?: number;
                    /** @description Extension: the `cursor` of the previous page */
                    cursor?: string;
                    /** @description Extension: `rfq-backend` writes each order with exactly the keys of the real RFQ backend's OrdersResponse (none of Sluice's additions: orderHash, fillBlockNumber, finalized, the round ids and amounts, createdAt, updatedAt), for decoders that refuse unknown keys. Default: `sluice`, or the polling solver's `ordersView` */
                    view?: "sluice" | "rfq-backend";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The matching orders, newest first (a page of them with `limit`) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OrdersResponse"];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 *     - `MISSING_FILTER`: At least one filter is required
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `SERVICE_UNAVAILABLE`: The database is unavailable; retry later
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/orders/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A stream of order changes (Server-Sent Events)
         * @description `text/event-stream`. Give at least one of orderId, orderIds, orderHash, orderHashes, swapper (a wallet's stream), or solverId / filler with `x-solver-id` and `x-rfq-shared-secret` (a solver's stream: its open orders with their execution fields). First one `snapshot` event per matching order (a solver's stream: its open orders), each the record GET /orders returns, then an `order` event for each change of a matching order (the record after the change); each event's `id:` increases across the deployment. Reconnect with `Last-Event-ID` (or `lastEventId`) to get every change after it exactly once while it is within the retention window; an older id gets `event: resync` and the snapshot again. A stream naming orders sends `event: end` once each of them has an end status with `finalized: true`; reconnecting after that answers 204. Comment heartbeats every 15 s. 429/503 when the client's or the server's stream limit is reached.
         */
        get: {
            parameters: {
                query?: {
                    /** @example 3d6e1c2b-7f4a-4b8e-9c1d-2e3f4a5b6c7d */
                    orderId?: string;
                    /** @description Comma-separated (or repeated) order ids, at most 50 */
                    orderIds?: string | string[];
                    orderHash?: string;
                    /** @description Comma-separated (or repeated) order hashs, at most 50 */
                    orderHashes?: string | string[];
                    /** @description EVM address; any case accepted, returned lowercase */
                    swapper?: string;
                    /** @description Keeps only this solver's orders and adds the execution fields to its own open orders */
                    solverId?: string;
                    /** @description Keeps only the orders this Executor fills and adds the execution fields to its open orders */
                    filler?: string;
                    /** @description For clients that cannot set the Last-Event-ID header: the id of the last event received */
                    lastEventId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Server-Sent Events: `event: snapshot|order|resync|end`, `id:` (the log id), `data:` (an Order record; resync: {lastEventId, oldestResumableId}) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": string;
                    };
                };
                /** @description Every named order was final before the client's last event */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 *     - `MISSING_FILTER`: At least one filter is required
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `UNAUTHORIZED`: Missing, wrong or insufficient solver credentials
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Forbidden. Error codes:
                 *     - `UNAUTHORIZED`: Missing, wrong or insufficient solver credentials
                 */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `TOO_MANY_STREAMS`: This client holds as many order streams as one client may (STREAM_MAX_PER_IP; a solver's own streams: STREAM_MAX_PER_SOLVER)
                 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `STREAMS_AT_CAPACITY`: This replica holds as many order streams as it may (STREAM_MAX_CONNECTIONS); retry later
                 *     - `SERVICE_UNAVAILABLE`: The database is unavailable; retry later
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/points/receiver/{address}/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A receiver's current points per vault
         * @description Per points type, that type's newest snapshot; each record's `last_block` is its block. A receiver with no points gets `[]`.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description EVM address; any case accepted, returned lowercase */
                    address: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The receiver's points, one record per vault and points type */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerPointsByVault"][];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Not found. Error codes:
                 *     - `noData`: No points data has been ingested yet
                 *     - `noResultsFound`: Nothing matches (e.g. an unknown vault)
                 */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/points/receiver/{address}/{blockNumber}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deprecated: a receiver's points at a block
         * @deprecated
         * @description Retired. Answers 410 with the partner error body to every request, whatever its parameters.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    address: string;
                    blockNumber: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Gone. Error codes:
                 *     - `pageNotFound`: No such page (or a retired one)
                 */
                410: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/points/total/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Current points per vault, all vaults
         * @description Per points type, that type's newest snapshot; each record's `last_block` is its block.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Every vault's current points, one record per vault and points type */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerPointsByVault"][];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Not found. Error codes:
                 *     - `noData`: No points data has been ingested yet
                 *     - `noResultsFound`: Nothing matches (e.g. an unknown vault)
                 */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/points/total/{blockNumber}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Points per vault at a block, all vaults
         * @description Per points type, the snapshot whose block is nearest to `blockNumber` is used (the earlier one on a tie); each record's `last_block` is the block chosen for its type.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description Block number, 1 to 9007199254740991 */
                    blockNumber: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Every vault's points at that block, one record per vault and points type */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerPointsByVault"][];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Not found. Error codes:
                 *     - `noData`: No points data has been ingested yet
                 *     - `noResultsFound`: Nothing matches (e.g. an unknown vault)
                 */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/points/vault/{address}/current": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A vault's current points per receiver
         * @description Per points type, that type's newest snapshot; each record's `last_block` is its block. The list is complete (not paginated) and streamed.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description EVM address; any case accepted, returned lowercase */
                    address: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The vault's points, one record per receiver and points type */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerPointsByReceiver"][];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Not found. Error codes:
                 *     - `noData`: No points data has been ingested yet
                 *     - `noResultsFound`: Nothing matches (e.g. an unknown vault)
                 */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/points/vault/{address}/{blockNumber}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A vault's points per receiver type at a block
         * @description Per points type, the snapshot whose block is nearest to `blockNumber` is used (the earlier one on a tie); each record's `last_block` is the block chosen for its type.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    /** @description EVM address; any case accepted, returned lowercase */
                    address: string;
                    /** @description Block number, 1 to 9007199254740991 */
                    blockNumber: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The vault's points at that block, one record per receiver type and points type */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerPointsByReceiverType"][];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Not found. Error codes:
                 *     - `noData`: No points data has been ingested yet
                 *     - `noResultsFound`: Nothing matches (e.g. an unknown vault)
                 */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `anErrorOccurred`: The request is invalid
                 */
                429: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `ooops`: Something went wrong on the server (or the database is unavailable)
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["PartnerError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Request quotes from solvers
         * @description Fans out to the enabled solvers with eligible inventory. Quotes are ordered best output first, ties to the faster solver. 404 `No quotes available` below the token minimum, with no eligible solver, or no non-zero quote; 503 `SOLVERS_BUSY` (with `Retry-After`) when no solver quoted and some were left out by their concurrency cap; 503 `OVERLOADED` (with `Retry-After`), at once, when this replica has as many rounds in flight as it takes.
         */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["QuoteRequestInput"];
                };
            };
            responses: {
                /** @description The quotes, best output first, each with the typed data to sign */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["QuoteResponse"];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 *     - `UNSUPPORTED_CHAIN`: The chain id is not this deployment's
                 *     - `UNSUPPORTED_TOKEN`: The token is not one this deployment supports on that side
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Not found. Error codes:
                 *     - `NO_QUOTES`: No quotes available (below the token minimum, no eligible solver, or no non-zero quote)
                 */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Payload too large (the body limit is 1 MiB). Error codes:
                 *     - `PAYLOAD_TOO_LARGE`: The body is over 1 MiB
                 */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unsupported media type (send `Content-Type: application/json`). Error codes:
                 *     - `UNSUPPORTED_MEDIA_TYPE`: The body is not JSON
                 */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `SOLVERS_BUSY`: No quote: solvers that could answer were left out by their concurrency cap; retry after `Retry-After` seconds (`details.solversAsked`, `details.solversBusy`)
                 *     - `OVERLOADED`: This replica sheds /quote rounds (too many in flight, or its event loop lags); retry after `Retry-After` seconds
                 *     - `CHAIN_UNAVAILABLE`: The chain could not be read (no RPC endpoint answered in time): nothing was judged; retry after `Retry-After` seconds (`details.chainId`, `details.chain`)
                 *     - `SERVICE_UNAVAILABLE`: The database is unavailable; retry later
                 */
                503: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `SOLVERS_BUSY`, `OVERLOADED`, `CHAIN_UNAVAILABLE`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness probe
         * @description 200 `ready` when every check passes: the database answers, the migrations are current, the RPC gave a fresh head, the indexer (on any replica) is within its lag bound, and so is every other configured chain follower. 503 `not-ready` naming the failing checks otherwise (and while draining). Each check is bounded by READY_CHECK_TIMEOUT_MS. Unlike /health, route traffic by this one.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Ready (`ready`): every check passed */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Readiness"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /** @description Not ready (`not-ready`): `failing` names the checks that failed */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Readiness"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/solver-logos/{filename}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Solver logo (PNG)
         * @description A bundled solver logo. The file name carries the SHA-256 digest of its bytes; responses are immutable for one year.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    filename: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The PNG, immutable for a year */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "image/png": string;
                    };
                };
                /** @description Not modified: the logo still has the ETag given in If-None-Match */
                304: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Not found. Error codes:
                 *     - `NOT_FOUND`: Not found
                 */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/solvers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every configured solver with its cooldown and scorecard
         * @description Every solver of the deployment, enabled or not, in the deployment file's order. Counts are kept per solver per minute and per hour as answers and orders are written (any replica), and served from a cache at most 1 s stale.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The solvers and their scorecards over the last hour, day and week */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SolversResponse"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `SERVICE_UNAVAILABLE`: The database is unavailable; retry later
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/solvers/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One solver with its cooldown and scorecard
         * @description Counts are kept per solver per minute and per hour as answers and orders are written (any replica), and served from a cache at most 1 s stale. 404 `SOLVER_NOT_FOUND` for an id that is not a configured solver.
         */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description The solver and its scorecard over the last hour, day and week */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SolverScorecard"];
                    };
                };
                /**
                 * @description Bad request. Error codes:
                 *     - `VALIDATION_FAILED`: The request does not match its schema; `details.issues[]` names each bad field
                 */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Unauthenticated. Error codes:
                 *     - `INVALID_API_KEY`: The `x-api-key` is unknown or revoked (send a live key, or none for the anonymous tier)
                 */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Not found. Error codes:
                 *     - `SOLVER_NOT_FOUND`: No configured solver has this id
                 */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Too many requests from this client. Error codes:
                 *     - `RATE_LIMITED`: Over the caller's rate limit of the route's class (per API key, or per client address without one); retry after `Retry-After` seconds. Every limited answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
                 */
                429: {
                    headers: {
                        /** @description Seconds to wait before retrying (with `RATE_LIMITED`) */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Internal error. Error codes:
                 *     - `INTERNAL`: Unexpected server error
                 */
                500: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
                /**
                 * @description Service unavailable: retry later. Error codes:
                 *     - `SERVICE_UNAVAILABLE`: The database is unavailable; retry later
                 */
                503: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SwapError"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AuctionAnswer: {
            solverId: string;
            /**
             * @description `quoted` (an amount), `declined` (HTTP 204) or `rejected` (no valid quote; see `reason`)
             * @enum {string}
             */
            outcome: "quoted" | "declined" | "rejected";
            /** @description Why a rejected answer counted as no quote; null otherwise */
            reason: ("timeout" | "http_status" | "invalid_body" | "echo_mismatch" | "wrong_filler" | "zero_amount" | "network") | null;
            /** @description The quoted total in tokenOut base units; null unless quoted */
            amountOut: string | null;
            /** @description From the request sent to the answer judged, in ms */
            latencyMs: number;
            /** @description 1 = best: higher amountOut first, equal amounts to the lower latency (the auction's rule); null unless quoted */
            rank: number | null;
            /** @description The adapter legs the solver was offered; null for rounds stored before legs were kept */
            legs: components["schemas"]["AuctionLeg"][] | null;
            /** @description /quote round: the order this solver's entry became. Hard round: the order this round created, on the winner */
            orderId: string | null;
        };
        AuctionAnswerInput: {
            solverId: string;
            /**
             * @description `quoted` (an amount), `declined` (HTTP 204) or `rejected` (no valid quote; see `reason`)
             * @enum {string}
             */
            outcome: "quoted" | "declined" | "rejected";
            /** @description Why a rejected answer counted as no quote; null otherwise */
            reason: ("timeout" | "http_status" | "invalid_body" | "echo_mismatch" | "wrong_filler" | "zero_amount" | "network") | null;
            /** @description The quoted total in tokenOut base units; null unless quoted */
            amountOut: string | null;
            /** @description From the request sent to the answer judged, in ms */
            latencyMs: number;
            /** @description 1 = best: higher amountOut first, equal amounts to the lower latency (the auction's rule); null unless quoted */
            rank: number | null;
            /** @description The adapter legs the solver was offered; null for rounds stored before legs were kept */
            legs: components["schemas"]["AuctionLegInput"][] | null;
            /** @description /quote round: the order this solver's entry became. Hard round: the order this round created, on the winner */
            orderId: string | null;
        };
        AuctionLeg: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            adapter: string;
            /**
             * @description The leg's capacity in tokenOut base units
             * @example 1000000000000000000
             */
            maxAssets: string;
            /**
             * @description The leg's rate, 1e18-scaled
             * @example 1000000000000000000
             */
            maxRate: string;
        };
        AuctionLegInput: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            adapter: string;
            /**
             * @description The leg's capacity in tokenOut base units
             * @example 1000000000000000000
             */
            maxAssets: string;
            /**
             * @description The leg's rate, 1e18-scaled
             * @example 1000000000000000000
             */
            maxRate: string;
        };
        AuctionResult: {
            /** Format: uuid */
            requestId: string;
            /**
             * @description `quote`: a POST /quote round; `order`: a hard round
             * @enum {string}
             */
            round: "quote" | "order";
            /**
             * Format: uuid
             * @description The /quote round's request id (a hard round re-runs that round's chosen entry)
             */
            quoteRequestId: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenIn: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenOut: string;
            /**
             * @description uint256 as a decimal string
             * @example 1000000000000000000
             */
            amountIn: string;
            /**
             * Format: date-time
             * @description When the round's answers were recorded
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description From when the result is public: the quotes' deadline + 10 s (now for a round with no entry)
             */
            availableAt: string;
            /** @description Hard round: the entry's quoted total that an answer had to meet; null for a /quote round */
            quotedAmountOut: string | null;
            /** @description Hard round: the best answer that met the quote; null when none did, and for a /quote round */
            winner: {
                solverId: string;
                /**
                 * @description The hard round's total the Order commits (fee outputs keep their signed amounts)
                 * @example 1000000000000000000
                 */
                committedAmountOut: string;
            } | null;
            /** @description Hard round: the order it created; null otherwise */
            orderId: string | null;
            /** @description Every solver asked: quoted answers by rank, then the others in the order they were asked */
            solvers: components["schemas"]["AuctionAnswer"][];
        };
        AuctionResultInput: {
            /** Format: uuid */
            requestId: string;
            /**
             * @description `quote`: a POST /quote round; `order`: a hard round
             * @enum {string}
             */
            round: "quote" | "order";
            /**
             * Format: uuid
             * @description The /quote round's request id (a hard round re-runs that round's chosen entry)
             */
            quoteRequestId: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenIn: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenOut: string;
            /**
             * @description uint256 as a decimal string
             * @example 1000000000000000000
             */
            amountIn: string;
            /**
             * Format: date-time
             * @description When the round's answers were recorded
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description From when the result is public: the quotes' deadline + 10 s (now for a round with no entry)
             */
            availableAt: string;
            /** @description Hard round: the entry's quoted total that an answer had to meet; null for a /quote round */
            quotedAmountOut: string | null;
            /** @description Hard round: the best answer that met the quote; null when none did, and for a /quote round */
            winner: {
                solverId: string;
                /**
                 * @description The hard round's total the Order commits (fee outputs keep their signed amounts)
                 * @example 1000000000000000000
                 */
                committedAmountOut: string;
            } | null;
            /** @description Hard round: the order it created; null otherwise */
            orderId: string | null;
            /** @description Every solver asked: quoted answers by rank, then the others in the order they were asked */
            solvers: components["schemas"]["AuctionAnswerInput"][];
        };
        CancelRequest: {
            /** Format: uuid */
            orderId: string;
        };
        CancelRequestInput: {
            /** Format: uuid */
            orderId: string;
        };
        CancelResponse: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /** Format: uuid */
            orderId: string;
            /**
             * @description The account that must send `transaction` (the order's swapper)
             * @example 0x0000000000000000000000000000000000000001
             */
            swapper: string;
            /** @description Reactor.invalidateNonce(nonce) with the order's nonce: once mined (sent by `swapper`), no fill of the order can pass and the order becomes `cancelled` */
            transaction: components["schemas"]["TransactionRequest"];
        };
        CancelResponseInput: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /** Format: uuid */
            orderId: string;
            /**
             * @description The account that must send `transaction` (the order's swapper)
             * @example 0x0000000000000000000000000000000000000001
             */
            swapper: string;
            /** @description Reactor.invalidateNonce(nonce) with the order's nonce: once mined (sent by `swapper`), no fill of the order can pass and the order becomes `cancelled` */
            transaction: components["schemas"]["TransactionRequestInput"];
        };
        CheckApprovalRequest: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            walletAddress: string;
            chainId: number;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            token: string;
            /**
             * @description uint256 as a decimal string
             * @example 1000000000000000000
             */
            amount: string;
        };
        CheckApprovalRequestInput: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            walletAddress: string;
            chainId: number;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            token: string;
            /**
             * @description uint256 as a decimal string
             * @example 1000000000000000000
             */
            amount: string;
        };
        CheckApprovalResponse: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /** @description approve(Reactor, 0): resets a nonzero but insufficient allowance; send it before `approval` */
            cancel: components["schemas"]["TransactionRequest"] | null;
            /** @description approve(Reactor, max uint256) */
            approval: components["schemas"]["TransactionRequest"] | null;
        };
        CheckApprovalResponseInput: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /** @description approve(Reactor, 0): resets a nonzero but insufficient allowance; send it before `approval` */
            cancel: components["schemas"]["TransactionRequestInput"] | null;
            /** @description approve(Reactor, max uint256) */
            approval: components["schemas"]["TransactionRequestInput"] | null;
        };
        DevFaucetAsset: {
            /**
             * @description ERC-20 token address
             * @example 0x0000000000000000000000000000000000000001
             */
            token: string;
            symbol: string;
            name: string;
            decimals: number;
            /** @description Amount sent per request, in base units */
            amount: string;
            /** @constant */
            kind: "erc20";
        };
        DevFaucetAssetInput: {
            /**
             * @description ERC-20 token address
             * @example 0x0000000000000000000000000000000000000001
             */
            token: string;
            symbol: string;
            name: string;
            decimals: number;
            /** @description Amount sent per request, in base units */
            amount: string;
            /** @constant */
            kind: "erc20";
        };
        DevFaucetFundResponse: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            walletAddress: string;
            fundedAssets: components["schemas"]["DevFaucetAsset"][];
        };
        DevFaucetFundResponseInput: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            walletAddress: string;
            fundedAssets: components["schemas"]["DevFaucetAssetInput"][];
        };
        DevFaucetResponse: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            assets: components["schemas"]["DevFaucetAsset"][];
        };
        DevFaucetResponseInput: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            assets: components["schemas"]["DevFaucetAssetInput"][];
        };
        DevFundRequest: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            walletAddress: string;
        };
        DevFundRequestInput: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            walletAddress: string;
        };
        DevFundResponse: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            walletAddress: string;
            /** @description Wei sent */
            fundedEth: string;
            /** @description Base units of `token` sent */
            fundedToken: string;
            /**
             * @description The deployment's input token
             * @example 0x0000000000000000000000000000000000000001
             */
            token: string;
        };
        DevFundResponseInput: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            walletAddress: string;
            /** @description Wei sent */
            fundedEth: string;
            /** @description Base units of `token` sent */
            fundedToken: string;
            /**
             * @description The deployment's input token
             * @example 0x0000000000000000000000000000000000000001
             */
            token: string;
        };
        DiscountRequest: {
            discount: components["schemas"]["DiscountTerms"];
            /** @description The signer's EIP-712 signature of `Discount` (domain LiquidLaneAdapter / 1 / chainId / the adapter) */
            signature: string;
        };
        DiscountRequestInput: {
            discount: components["schemas"]["DiscountTermsInput"];
            /** @description The signer's EIP-712 signature of `Discount` (domain LiquidLaneAdapter / 1 / chainId / the adapter) */
            signature: string;
        };
        DiscountResponse: {
            /** @description EIP-712 digest of the published Discount; for a cancel, the id of the discount it deleted (or, with none stored, the cancel's own digest) */
            discountId: string;
        };
        DiscountResponseInput: {
            /** @description EIP-712 digest of the published Discount; for a cancel, the id of the discount it deleted (or, with none stored, the cancel's own digest) */
            discountId: string;
        };
        DiscountTerms: {
            /**
             * @description The adapter: the EIP-712 domain's verifying contract
             * @example 0x0000000000000000000000000000000000000001
             */
            adapter: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenToRedeem: string;
            /**
             * @description ppm of the gross oracle output (0–1000000)
             * @example 1000000000000000000
             */
            discount: string;
            /**
             * @description Signs the Discount; must be authorized on the adapter
             * @example 0x0000000000000000000000000000000000000001
             */
            signer: string;
            /**
             * @description The deployment's protocol signer
             * @example 0x0000000000000000000000000000000000000001
             */
            protocol: string;
            /**
             * @description Adapter nonce of tokenToRedeem; unused on-chain
             * @example 1000000000000000000
             */
            nonce: string;
            /** @description Unix seconds (chain time); 0 cancels the pair's discount */
            deadline: number;
        };
        DiscountTermsInput: {
            /**
             * @description The adapter: the EIP-712 domain's verifying contract
             * @example 0x0000000000000000000000000000000000000001
             */
            adapter: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenToRedeem: string;
            /**
             * @description ppm of the gross oracle output (0–1000000)
             * @example 1000000000000000000
             */
            discount: string;
            /**
             * @description Signs the Discount; must be authorized on the adapter
             * @example 0x0000000000000000000000000000000000000001
             */
            signer: string;
            /**
             * @description The deployment's protocol signer
             * @example 0x0000000000000000000000000000000000000001
             */
            protocol: string;
            /**
             * @description Adapter nonce of tokenToRedeem; unused on-chain
             * @example 1000000000000000000
             */
            nonce: string;
            /** @description Unix seconds (chain time); 0 cancels the pair's discount */
            deadline: number;
        };
        Health: {
            /** @enum {string} */
            status: "ok" | "draining";
            /**
             * Format: date-time
             * @description The server's time of the answer (ISO 8601, UTC)
             */
            timestamp: string;
        };
        HealthInput: {
            /** @enum {string} */
            status: "ok" | "draining";
            /**
             * Format: date-time
             * @description The server's time of the answer (ISO 8601, UTC)
             */
            timestamp: string;
        };
        LiquidityBatchRequest: {
            /** @description 1 to 20 distinct input tokens (compared case-insensitively) */
            tokensIn: string[];
            /** @description Restricts `solvers` and `totalLiquidity` to this solver; takes precedence over solverIds */
            solverId?: string;
            /** @description Restricts `solvers` and `totalLiquidity` to these solvers (`[]` selects none) */
            solverIds?: string[];
        };
        LiquidityBatchRequestInput: {
            /** @description 1 to 20 distinct input tokens (compared case-insensitively) */
            tokensIn: string[];
            /** @description Restricts `solvers` and `totalLiquidity` to this solver; takes precedence over solverIds */
            solverId?: string;
            /** @description Restricts `solvers` and `totalLiquidity` to these solvers (`[]` selects none) */
            solverIds?: string[];
        };
        LiquidityBatchResponse: {
            /** @description One snapshot per token, in request order */
            tokensIn: components["schemas"]["LiquiditySnapshot"][];
        };
        LiquidityBatchResponseInput: {
            /** @description One snapshot per token, in request order */
            tokensIn: components["schemas"]["LiquiditySnapshotInput"][];
        };
        LiquidityRequest: {
            /**
             * @description A deployment input token with a configured liquidity output token
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenIn: string;
            /** @description Restricts `solvers` and `totalLiquidity` to this solver; takes precedence over solverIds */
            solverId?: string;
            /** @description Restricts `solvers` and `totalLiquidity` to these solvers (`[]` selects none) */
            solverIds?: string[];
        };
        LiquidityRequestInput: {
            /**
             * @description A deployment input token with a configured liquidity output token
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenIn: string;
            /** @description Restricts `solvers` and `totalLiquidity` to this solver; takes precedence over solverIds */
            solverId?: string;
            /** @description Restricts `solvers` and `totalLiquidity` to these solvers (`[]` selects none) */
            solverIds?: string[];
        };
        LiquiditySnapshot: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenIn: string;
            /**
             * @description The output token all liquidity is denominated in, fixed per tokenIn by the deployment
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenOut: string;
            tokenInInfo: components["schemas"]["TokenInfo"];
            tokenOutInfo: components["schemas"]["TokenInfo"];
            /**
             * @description tokenOut base units
             * @example 1000000000000000000
             */
            totalLiquidity: string;
            /** @description Liquidity descending, ties by solverId; solvers without inventory are omitted */
            solvers: {
                solverId: string;
                /**
                 * @description tokenOut base units
                 * @example 1000000000000000000
                 */
                liquidity: string;
            }[];
        };
        LiquiditySnapshotInput: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenIn: string;
            /**
             * @description The output token all liquidity is denominated in, fixed per tokenIn by the deployment
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenOut: string;
            tokenInInfo: components["schemas"]["TokenInfoInput"];
            tokenOutInfo: components["schemas"]["TokenInfoInput"];
            /**
             * @description tokenOut base units
             * @example 1000000000000000000
             */
            totalLiquidity: string;
            /** @description Liquidity descending, ties by solverId; solvers without inventory are omitted */
            solvers: {
                solverId: string;
                /**
                 * @description tokenOut base units
                 * @example 1000000000000000000
                 */
                liquidity: string;
            }[];
        };
        LiveDiscount: {
            discountId: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            adapter: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenToRedeem: string;
            /**
             * @description The adapter's vault asset: what the discount pays out
             * @example 0x0000000000000000000000000000000000000001
             */
            collateral: string;
            collateralDecimals: number;
            /**
             * @description ppm of the gross oracle output
             * @example 1000000000000000000
             */
            discount: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            signer: string;
            /** @description The discount's own deadline (unix seconds, chain time) */
            deadline: number;
            /**
             * @description `getMaxRate(tokenToRedeem)` at the latest block (1e18)
             * @example 1000000000000000000
             */
            maxRate: string;
            /**
             * @description `getMaxAssets(tokenToRedeem)` at the latest block
             * @example 1000000000000000000
             */
            maxAssets: string;
        };
        LiveDiscountInput: {
            discountId: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            adapter: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenToRedeem: string;
            /**
             * @description The adapter's vault asset: what the discount pays out
             * @example 0x0000000000000000000000000000000000000001
             */
            collateral: string;
            collateralDecimals: number;
            /**
             * @description ppm of the gross oracle output
             * @example 1000000000000000000
             */
            discount: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            signer: string;
            /** @description The discount's own deadline (unix seconds, chain time) */
            deadline: number;
            /**
             * @description `getMaxRate(tokenToRedeem)` at the latest block (1e18)
             * @example 1000000000000000000
             */
            maxRate: string;
            /**
             * @description `getMaxAssets(tokenToRedeem)` at the latest block
             * @example 1000000000000000000
             */
            maxAssets: string;
        };
        LiveDiscountList: {
            /**
             * @description The deployment's protocol signer
             * @example 0x0000000000000000000000000000000000000001
             */
            protocol: string;
            discounts: components["schemas"]["LiveDiscount"][];
        };
        LiveDiscountListInput: {
            /**
             * @description The deployment's protocol signer
             * @example 0x0000000000000000000000000000000000000001
             */
            protocol: string;
            discounts: components["schemas"]["LiveDiscountInput"][];
        };
        /** @description Entry metadata; no other fields are allowed. */
        Metadata: {
            name: string;
            description?: string;
            /** Format: uri */
            icon?: string;
            tags?: string[];
            links?: components["schemas"]["MetadataLink"][];
        };
        /** @description Entry metadata; no other fields are allowed. */
        MetadataInput: {
            name: string;
            description?: string;
            /** Format: uri */
            icon?: string;
            tags?: string[];
            links?: components["schemas"]["MetadataLinkInput"][];
        };
        MetadataLink: {
            name: string;
            type: string;
            url: string;
        };
        MetadataLinkInput: {
            name: string;
            type: string;
            url: string;
        };
        Order: {
            /** @constant */
            type: "Priority";
            /** Format: uuid */
            orderId: string;
            orderHash: string;
            /** @enum {string} */
            orderStatus: "open" | "filled" | "expired" | "error" | "cancelled" | "insufficient-funds";
            /** Format: uuid */
            quoteId: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            swapper: string;
            txHash: string | null;
            /**
             * @description uint256 as a decimal string
             * @example 1000000000000000000
             */
            nonce: string;
            input: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
            };
            /** @description The committed outputs */
            outputs: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                recipient: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
            }[];
            settledAmounts: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                recipient: string;
                txHash: string;
            }[];
            /** @description Extension: the block of the Fill that filled the order; null unless filled */
            fillBlockNumber: number | null;
            /** @description Extension: the order has an end status (filled, expired, cancelled, error) decided at a block the deployment's finality depth deep (or below the chain's `finalized` block): it will not change again */
            finalized: boolean;
            /**
             * Format: uuid
             * @description Extension: the request id of the POST /quote round that issued the order's quote
             */
            quoteRequestId: string;
            /**
             * Format: uuid
             * @description Extension: the request id of the POST /order call whose hard round committed the order
             */
            orderRequestId: string;
            /**
             * @description Extension: the quote entry's total (its `aggregatedOutputs` amount), in tokenOut base units
             * @example 1000000000000000000
             */
            quotedAmountOut: string;
            /**
             * @description Extension: the hard round's total, the sum of the committed `outputs` in tokenOut (never below `quotedAmountOut`; any improvement goes to the output without `portionBps`)
             * @example 1000000000000000000
             */
            committedAmountOut: string;
            /** @description Extension: what the Fill delivered to the outputs, the sum of `settledAmounts` in tokenOut; null unless filled */
            settledAmountOut: string | null;
            /** @description Extension: how much better than quoted the hard round committed */
            priceImprovement: {
                /**
                 * @description committedAmountOut − quotedAmountOut, in tokenOut base units
                 * @example 1000000000000000000
                 */
                amount: string;
                /** @description ⌊amount × 10000 / quotedAmountOut⌋ */
                bps: number;
            };
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description Only on open orders asked for by `solverId` or `filler` */
            encodedOrder?: string;
            /** @description Only on open orders asked for by `solverId` or `filler` */
            protocolSignature?: string;
            /** @description Only on open orders asked for by `solverId` or `filler` */
            deadline?: number;
            /**
             * @description Only on open orders asked for by `solverId` or `filler`
             * @example 0x0000000000000000000000000000000000000001
             */
            filler?: string;
        };
        OrderInput: {
            /** @constant */
            type: "Priority";
            /** Format: uuid */
            orderId: string;
            orderHash: string;
            /** @enum {string} */
            orderStatus: "open" | "filled" | "expired" | "error" | "cancelled" | "insufficient-funds";
            /** Format: uuid */
            quoteId: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            swapper: string;
            txHash: string | null;
            /**
             * @description uint256 as a decimal string
             * @example 1000000000000000000
             */
            nonce: string;
            input: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
            };
            /** @description The committed outputs */
            outputs: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                recipient: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
            }[];
            settledAmounts: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                recipient: string;
                txHash: string;
            }[];
            /** @description Extension: the block of the Fill that filled the order; null unless filled */
            fillBlockNumber: number | null;
            /** @description Extension: the order has an end status (filled, expired, cancelled, error) decided at a block the deployment's finality depth deep (or below the chain's `finalized` block): it will not change again */
            finalized: boolean;
            /**
             * Format: uuid
             * @description Extension: the request id of the POST /quote round that issued the order's quote
             */
            quoteRequestId: string;
            /**
             * Format: uuid
             * @description Extension: the request id of the POST /order call whose hard round committed the order
             */
            orderRequestId: string;
            /**
             * @description Extension: the quote entry's total (its `aggregatedOutputs` amount), in tokenOut base units
             * @example 1000000000000000000
             */
            quotedAmountOut: string;
            /**
             * @description Extension: the hard round's total, the sum of the committed `outputs` in tokenOut (never below `quotedAmountOut`; any improvement goes to the output without `portionBps`)
             * @example 1000000000000000000
             */
            committedAmountOut: string;
            /** @description Extension: what the Fill delivered to the outputs, the sum of `settledAmounts` in tokenOut; null unless filled */
            settledAmountOut: string | null;
            /** @description Extension: how much better than quoted the hard round committed */
            priceImprovement: {
                /**
                 * @description committedAmountOut − quotedAmountOut, in tokenOut base units
                 * @example 1000000000000000000
                 */
                amount: string;
                /** @description ⌊amount × 10000 / quotedAmountOut⌋ */
                bps: number;
            };
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            updatedAt: string;
            /** @description Only on open orders asked for by `solverId` or `filler` */
            encodedOrder?: string;
            /** @description Only on open orders asked for by `solverId` or `filler` */
            protocolSignature?: string;
            /** @description Only on open orders asked for by `solverId` or `filler` */
            deadline?: number;
            /**
             * @description Only on open orders asked for by `solverId` or `filler`
             * @example 0x0000000000000000000000000000000000000001
             */
            filler?: string;
        };
        OrderRequest: {
            quote: {
                /** Format: uuid */
                quoteId: string;
                aggregatedOutputs: {
                    token: string;
                    amount: string;
                }[];
                orderInfo: {
                    tokenIn: string;
                    amountIn: string;
                    outputs: {
                        token: string;
                        recipient?: string;
                        amount: string;
                        /** @description Compared only when present (the real order request has no such field) */
                        portionBps?: number;
                    }[];
                    deadline: number;
                    nonce: string;
                };
            };
            signature: string;
        };
        OrderRequestInput: {
            quote: {
                /** Format: uuid */
                quoteId: string;
                aggregatedOutputs: {
                    token: string;
                    amount: string;
                }[];
                orderInfo: {
                    tokenIn: string;
                    amountIn: string;
                    outputs: {
                        token: string;
                        recipient?: string;
                        amount: string;
                        /** @description Compared only when present (the real order request has no such field) */
                        portionBps?: number;
                    }[];
                    deadline: number;
                    nonce: string;
                };
            };
            signature: string;
        };
        OrderResponse: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /** Format: uuid */
            orderId: string;
            /** @enum {string} */
            orderStatus: "open" | "filled" | "expired" | "error" | "cancelled" | "insufficient-funds";
        };
        OrderResponseInput: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /** Format: uuid */
            orderId: string;
            /** @enum {string} */
            orderStatus: "open" | "filled" | "expired" | "error" | "cancelled" | "insufficient-funds";
        };
        OrdersResponse: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /** @description Order records (`Order`), or with `view=rfq-backend` the real document's (`RfqBackendOrder`) */
            orders: (components["schemas"]["Order"] | components["schemas"]["RfqBackendOrder"])[];
            /** @description Opaque; pass it back to get the next page; null when nothing follows */
            cursor: string | null;
        };
        OrdersResponseInput: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /** @description Order records (`Order`), or with `view=rfq-backend` the real document's (`RfqBackendOrder`) */
            orders: (components["schemas"]["OrderInput"] | components["schemas"]["RfqBackendOrderInput"])[];
            /** @description Opaque; pass it back to get the next page; null when nothing follows */
            cursor: string | null;
        };
        PartnerCurator: {
            /** @example re7-labs */
            id: string;
            meta: components["schemas"]["Metadata"];
            /** @description Approved vaults the curator curates, sorted */
            vaults: string[];
        };
        PartnerCuratorInput: {
            /** @example re7-labs */
            id: string;
            meta: components["schemas"]["MetadataInput"];
            /** @description Approved vaults the curator curates, sorted */
            vaults: string[];
        };
        /** @description A network or an operator. */
        PartnerEntity: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            address: string;
            meta: components["schemas"]["Metadata"];
        };
        /** @description A network or an operator. */
        PartnerEntityInput: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            address: string;
            meta: components["schemas"]["MetadataInput"];
        };
        PartnerError: {
            /** @enum {string} */
            errorCode: "noData" | "noResultsFound" | "anErrorOccurred" | "pageNotFound" | "ooops";
            errorMessage: string;
        };
        PartnerErrorInput: {
            /** @enum {string} */
            errorCode: "noData" | "noResultsFound" | "anErrorOccurred" | "pageNotFound" | "ooops";
            errorMessage: string;
        };
        /** @description Points of one points type per receiver. */
        PartnerPointsByReceiver: {
            points_type: string;
            last_block: number;
            total_points: string;
            items: components["schemas"]["PartnerPointsByReceiverItem"][];
        };
        /** @description Points of one points type per receiver. */
        PartnerPointsByReceiverInput: {
            points_type: string;
            last_block: number;
            total_points: string;
            items: components["schemas"]["PartnerPointsByReceiverItemInput"][];
        };
        PartnerPointsByReceiverItem: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            receiver_address: string;
            points: string;
        };
        PartnerPointsByReceiverItemInput: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            receiver_address: string;
            points: string;
        };
        /** @description Points of one points type per receiver type. */
        PartnerPointsByReceiverType: {
            points_type: string;
            last_block: number;
            total_points: string;
            items: components["schemas"]["PartnerPointsByReceiverTypeItem"][];
        };
        /** @description Points of one points type per receiver type. */
        PartnerPointsByReceiverTypeInput: {
            points_type: string;
            last_block: number;
            total_points: string;
            items: components["schemas"]["PartnerPointsByReceiverTypeItemInput"][];
        };
        PartnerPointsByReceiverTypeItem: {
            receiver_type: string;
            points: string;
        };
        PartnerPointsByReceiverTypeItemInput: {
            receiver_type: string;
            points: string;
        };
        /** @description Points of one points type per vault. */
        PartnerPointsByVault: {
            points_type: string;
            last_block: number;
            total_points: string;
            items: components["schemas"]["PartnerPointsByVaultItem"][];
        };
        /** @description Points of one points type per vault. */
        PartnerPointsByVaultInput: {
            points_type: string;
            last_block: number;
            total_points: string;
            items: components["schemas"]["PartnerPointsByVaultItemInput"][];
        };
        PartnerPointsByVaultItem: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            vault_address: string;
            points: string;
        };
        PartnerPointsByVaultItemInput: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            vault_address: string;
            points: string;
        };
        PartnerVault: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            address: string;
            /**
             * @description `pre-deposit`: legacy default-collateral wrapper; `v1`: vault factory versions 1–2; `v2`: version 3 (ERC-4626)
             * @enum {string}
             */
            vaultType: "pre-deposit" | "v1" | "v2";
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            collateral: string;
            /** @example re7-labs */
            curatorId?: string;
            totalSupply: string;
            tvl: number;
            meta: components["schemas"]["Metadata"];
        };
        PartnerVaultInput: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            address: string;
            /**
             * @description `pre-deposit`: legacy default-collateral wrapper; `v1`: vault factory versions 1–2; `v2`: version 3 (ERC-4626)
             * @enum {string}
             */
            vaultType: "pre-deposit" | "v1" | "v2";
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            collateral: string;
            /** @example re7-labs */
            curatorId?: string;
            totalSupply: string;
            tvl: number;
            meta: components["schemas"]["MetadataInput"];
        };
        PublicDeployment: {
            /** @description The deployment's name (`mainnet`, `devnet`, …) */
            name: string;
            chainId: number;
            chainName: string;
            /** @description A local chain (the devnet): the dev helpers and `/dev/rpc` answer */
            local: boolean;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            reactor: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            protocolSigner: string;
            /** @description How long a quote can be ordered */
            quoteLifetimeSeconds: number;
            /** @description How long an auction waits for a solver's answer; a later one counts as a timeout */
            solverTimeoutMs: number;
            inputTokens: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                address: string;
                symbol: string;
                name: string;
                decimals: number;
                /**
                 * @description Below it, /quote answers 404 without asking the solvers
                 * @example 1000000000000000000
                 */
                minQuoteAmount: string;
            }[];
            outputTokens: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                address: string;
                symbol: string;
                name: string;
                decimals: number;
            }[];
            adapters: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                address: string;
                label?: string;
            }[];
            /** @description The solvers configured now (a devnet's can change while it runs) */
            solvers: {
                id: string;
                name: string;
                /**
                 * @description Its Executor: the filler its quotes name
                 * @example 0x0000000000000000000000000000000000000001
                 */
                filler: string;
                internal: boolean;
                enabled: boolean;
            }[];
        };
        PublicDeploymentInput: {
            /** @description The deployment's name (`mainnet`, `devnet`, …) */
            name: string;
            chainId: number;
            chainName: string;
            /** @description A local chain (the devnet): the dev helpers and `/dev/rpc` answer */
            local: boolean;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            reactor: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            protocolSigner: string;
            /** @description How long a quote can be ordered */
            quoteLifetimeSeconds: number;
            /** @description How long an auction waits for a solver's answer; a later one counts as a timeout */
            solverTimeoutMs: number;
            inputTokens: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                address: string;
                symbol: string;
                name: string;
                decimals: number;
                /**
                 * @description Below it, /quote answers 404 without asking the solvers
                 * @example 1000000000000000000
                 */
                minQuoteAmount: string;
            }[];
            outputTokens: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                address: string;
                symbol: string;
                name: string;
                decimals: number;
            }[];
            adapters: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                address: string;
                label?: string;
            }[];
            /** @description The solvers configured now (a devnet's can change while it runs) */
            solvers: {
                id: string;
                name: string;
                /**
                 * @description Its Executor: the filler its quotes name
                 * @example 0x0000000000000000000000000000000000000001
                 */
                filler: string;
                internal: boolean;
                enabled: boolean;
            }[];
        };
        Quote: {
            /** Format: uuid */
            quoteId: string;
            aggregatedOutputs: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
            }[];
            orderInfo: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                tokenIn: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amountIn: string;
                outputs: {
                    /**
                     * @description EVM address; any case accepted, returned lowercase
                     * @example 0x0000000000000000000000000000000000000001
                     */
                    token: string;
                    /**
                     * @description EVM address; any case accepted, returned lowercase
                     * @example 0x0000000000000000000000000000000000000001
                     */
                    recipient: string;
                    /**
                     * @description uint256 as a decimal string
                     * @example 1000000000000000000
                     */
                    amount: string;
                    portionBps?: number;
                }[];
                /** @description Unix seconds: the quote's expiry and the Request's deadline */
                deadline: number;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                nonce: string;
            };
        };
        QuoteEntry: {
            solver: {
                id: string;
                name: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                filler: string;
                metadata: {
                    /** Format: uri */
                    logoUrl?: string;
                };
            };
            quote: components["schemas"]["Quote"];
            signatureData: components["schemas"]["SignatureData"];
        };
        QuoteEntryInput: {
            solver: {
                id: string;
                name: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                filler: string;
                metadata: {
                    /** Format: uri */
                    logoUrl?: string;
                };
            };
            quote: components["schemas"]["QuoteInput"];
            signatureData: components["schemas"]["SignatureDataInput"];
        };
        QuoteInput: {
            /** Format: uuid */
            quoteId: string;
            aggregatedOutputs: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
            }[];
            orderInfo: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                tokenIn: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amountIn: string;
                outputs: {
                    /**
                     * @description EVM address; any case accepted, returned lowercase
                     * @example 0x0000000000000000000000000000000000000001
                     */
                    token: string;
                    /**
                     * @description EVM address; any case accepted, returned lowercase
                     * @example 0x0000000000000000000000000000000000000001
                     */
                    recipient: string;
                    /**
                     * @description uint256 as a decimal string
                     * @example 1000000000000000000
                     */
                    amount: string;
                    portionBps?: number;
                }[];
                /** @description Unix seconds: the quote's expiry and the Request's deadline */
                deadline: number;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                nonce: string;
            };
        };
        QuoteRequest: {
            tokenInChainId: number;
            tokenOutChainId: number;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenIn: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenOut: string;
            /** @constant */
            type: "EXACT_INPUT";
            /**
             * @description Input amount in tokenIn base units
             * @example 1000000000000000000
             */
            amount: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            swapper: string;
            outputs: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                recipient?: string;
                portionBps?: number;
            }[];
            solverIds?: string[];
            /**
             * @default BEST_PRICE
             * @constant
             */
            routingPreference: "BEST_PRICE";
            /** @constant */
            permitAmount?: "EXACT";
        };
        QuoteRequestInput: {
            tokenInChainId: number;
            tokenOutChainId: number;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenIn: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenOut: string;
            /** @constant */
            type: "EXACT_INPUT";
            /**
             * @description Input amount in tokenIn base units
             * @example 1000000000000000000
             */
            amount: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            swapper: string;
            outputs: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                recipient?: string;
                portionBps?: number;
            }[];
            solverIds?: string[];
            /**
             * @default BEST_PRICE
             * @constant
             */
            routingPreference?: "BEST_PRICE";
            /** @constant */
            permitAmount?: "EXACT";
        };
        QuoteResponse: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /** @constant */
            routing: "Priority";
            quotes: components["schemas"]["QuoteEntry"][];
        };
        QuoteResponseInput: {
            /**
             * Format: uuid
             * @description UUID of this HTTP attempt; equals the X-Request-Id header
             */
            requestId: string;
            /** @constant */
            routing: "Priority";
            quotes: components["schemas"]["QuoteEntryInput"][];
        };
        Readiness: {
            /** @enum {string} */
            status: "ready" | "not-ready";
            /**
             * Format: date-time
             * @description The server's time of the answer (ISO 8601, UTC)
             */
            timestamp: string;
            /** @description The names of the failing checks (empty when ready) */
            failing: string[];
            checks: components["schemas"]["ReadinessCheck"][];
        };
        ReadinessCheck: {
            /** @description The check: `serving`, `database`, `migrations`, `chain-head`, `indexer`… */
            name: string;
            /** @enum {string} */
            status: "pass" | "fail";
            /** @description What it found, for a person */
            message: string;
            durationMs: number;
            /** @description The facts behind it (blocks as decimal strings, lags, ages) */
            details?: {
                [key: string]: string | number | boolean | null;
            };
        };
        ReadinessCheckInput: {
            /** @description The check: `serving`, `database`, `migrations`, `chain-head`, `indexer`… */
            name: string;
            /** @enum {string} */
            status: "pass" | "fail";
            /** @description What it found, for a person */
            message: string;
            durationMs: number;
            /** @description The facts behind it (blocks as decimal strings, lags, ages) */
            details?: {
                [key: string]: string | number | boolean | null;
            };
        };
        ReadinessInput: {
            /** @enum {string} */
            status: "ready" | "not-ready";
            /**
             * Format: date-time
             * @description The server's time of the answer (ISO 8601, UTC)
             */
            timestamp: string;
            /** @description The names of the failing checks (empty when ready) */
            failing: string[];
            checks: components["schemas"]["ReadinessCheckInput"][];
        };
        ResolveDiscountRequest: {
            /** @description A leg's `discountId` from a quote request */
            discountId: string;
        } | {
            discountIds: string[];
        } | {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            adapter: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenToRedeem: string;
        } | {
            adapters: string[];
            tokensToRedeem: string[];
        };
        ResolveDiscountRequestInput: {
            /** @description A leg's `discountId` from a quote request */
            discountId: string;
        } | {
            discountIds: string[];
        } | {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            adapter: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            tokenToRedeem: string;
        } | {
            adapters: string[];
            tokensToRedeem: string[];
        };
        /** @description Everything of an Executor `DiscountSwapInput` but `recipient` and `amountIn`, which the filler chooses: `{adapter, discountSwap: {discount, signerSignature, protocolDeadline}, protocolSignature, recipient, amountIn}`. */
        ResolvedDiscount: {
            discountId: string;
            /** @description The Discount the signer signed, with its adapter */
            discount: components["schemas"]["DiscountTerms"];
            /** @description The signer's signature of the Discount */
            signerSignature: string;
            /** @description Unix seconds (chain time): the co-signature's expiry, 90 s after the latest block */
            protocolDeadline: number;
            /** @description The protocol signer's EIP-712 signature of `DiscountSwap` (adapter domain) */
            protocolSignature: string;
        };
        ResolvedDiscountBatch: {
            discounts: components["schemas"]["ResolvedDiscount"][];
        };
        ResolvedDiscountBatchInput: {
            discounts: components["schemas"]["ResolvedDiscountInput"][];
        };
        /** @description Everything of an Executor `DiscountSwapInput` but `recipient` and `amountIn`, which the filler chooses: `{adapter, discountSwap: {discount, signerSignature, protocolDeadline}, protocolSignature, recipient, amountIn}`. */
        ResolvedDiscountInput: {
            discountId: string;
            /** @description The Discount the signer signed, with its adapter */
            discount: components["schemas"]["DiscountTermsInput"];
            /** @description The signer's signature of the Discount */
            signerSignature: string;
            /** @description Unix seconds (chain time): the co-signature's expiry, 90 s after the latest block */
            protocolDeadline: number;
            /** @description The protocol signer's EIP-712 signature of `DiscountSwap` (adapter domain) */
            protocolSignature: string;
        };
        RfqBackendOrder: {
            /** @constant */
            type: "Priority";
            /** Format: uuid */
            orderId: string;
            /** @enum {string} */
            orderStatus: "open" | "filled" | "expired" | "error" | "cancelled" | "insufficient-funds";
            /** Format: uuid */
            quoteId: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            swapper: string;
            txHash: string | null;
            /**
             * @description uint256 as a decimal string
             * @example 1000000000000000000
             */
            nonce: string;
            input: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
            };
            /** @description The committed outputs */
            outputs: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                recipient: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
            }[];
            settledAmounts: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                recipient: string;
                txHash: string;
            }[];
            /** @description Only on open orders asked for by `solverId` or `filler` */
            encodedOrder?: string;
            /** @description Only on open orders asked for by `solverId` or `filler` */
            protocolSignature?: string;
            /** @description Only on open orders asked for by `solverId` or `filler` */
            deadline?: number;
            /**
             * @description Only on open orders asked for by `solverId` or `filler`
             * @example 0x0000000000000000000000000000000000000001
             */
            filler?: string;
        };
        RfqBackendOrderInput: {
            /** @constant */
            type: "Priority";
            /** Format: uuid */
            orderId: string;
            /** @enum {string} */
            orderStatus: "open" | "filled" | "expired" | "error" | "cancelled" | "insufficient-funds";
            /** Format: uuid */
            quoteId: string;
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            swapper: string;
            txHash: string | null;
            /**
             * @description uint256 as a decimal string
             * @example 1000000000000000000
             */
            nonce: string;
            input: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
            };
            /** @description The committed outputs */
            outputs: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                recipient: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
            }[];
            settledAmounts: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                token: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amount: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                recipient: string;
                txHash: string;
            }[];
            /** @description Only on open orders asked for by `solverId` or `filler` */
            encodedOrder?: string;
            /** @description Only on open orders asked for by `solverId` or `filler` */
            protocolSignature?: string;
            /** @description Only on open orders asked for by `solverId` or `filler` */
            deadline?: number;
            /**
             * @description Only on open orders asked for by `solverId` or `filler`
             * @example 0x0000000000000000000000000000000000000001
             */
            filler?: string;
        };
        ScorecardWindow: {
            /**
             * Format: date-time
             * @description The start of the window's oldest minute or hour bucket
             */
            from: string;
            auctions: {
                /** @description Rounds the solver was asked in (/quote rounds and /order hard rounds) */
                offered: number;
                quoted: number;
                /** @description Answered 204: no quote */
                declined: number;
                /** @description Answers Sluice rejected, by reason */
                rejected: {
                    timeout: number;
                    http_status: number;
                    invalid_body: number;
                    echo_mismatch: number;
                    wrong_filler: number;
                    zero_amount: number;
                    network: number;
                };
            };
            /** @description Answer latency (every answer but timeouts and network failures) percentiles in ms, from log-scale buckets: each is its bucket's geometric midpoint, within 9.1 % of the true value (0.5 ms below 1 ms); null without any sample */
            answerLatencyMs: {
                p50: number | null;
                p99: number | null;
            };
            wins: {
                /** @description Best entry (rank 0) of a /quote round */
                soft: number;
                /** @description Best answer meeting the quoted total in an /order hard round */
                hard: number;
            };
            /** @description Orders accepted in the window, by their status now */
            orders: {
                assigned: number;
                filled: number;
                /** @description Assigned and expired unfilled (faded) */
                expired: number;
            };
            /** @description Order accepted → the indexer saw its fill (the server's clock) percentiles in ms, from log-scale buckets: each is its bucket's geometric midpoint, within 9.1 % of the true value (0.5 ms below 1 ms); null without any sample */
            fillLatencyMs: {
                p50: number | null;
                p99: number | null;
            };
            priceImprovement: {
                /** @description Mean over filled orders of floor((committed − quoted) × 10000 / quoted), to 0.01 bps; null without any */
                averageBps: number | null;
                filledOrders: number;
            };
        };
        ScorecardWindowInput: {
            /**
             * Format: date-time
             * @description The start of the window's oldest minute or hour bucket
             */
            from: string;
            auctions: {
                /** @description Rounds the solver was asked in (/quote rounds and /order hard rounds) */
                offered: number;
                quoted: number;
                /** @description Answered 204: no quote */
                declined: number;
                /** @description Answers Sluice rejected, by reason */
                rejected: {
                    timeout: number;
                    http_status: number;
                    invalid_body: number;
                    echo_mismatch: number;
                    wrong_filler: number;
                    zero_amount: number;
                    network: number;
                };
            };
            /** @description Answer latency (every answer but timeouts and network failures) percentiles in ms, from log-scale buckets: each is its bucket's geometric midpoint, within 9.1 % of the true value (0.5 ms below 1 ms); null without any sample */
            answerLatencyMs: {
                p50: number | null;
                p99: number | null;
            };
            wins: {
                /** @description Best entry (rank 0) of a /quote round */
                soft: number;
                /** @description Best answer meeting the quoted total in an /order hard round */
                hard: number;
            };
            /** @description Orders accepted in the window, by their status now */
            orders: {
                assigned: number;
                filled: number;
                /** @description Assigned and expired unfilled (faded) */
                expired: number;
            };
            /** @description Order accepted → the indexer saw its fill (the server's clock) percentiles in ms, from log-scale buckets: each is its bucket's geometric midpoint, within 9.1 % of the true value (0.5 ms below 1 ms); null without any sample */
            fillLatencyMs: {
                p50: number | null;
                p99: number | null;
            };
            priceImprovement: {
                /** @description Mean over filled orders of floor((committed − quoted) × 10000 / quoted), to 0.01 bps; null without any */
                averageBps: number | null;
                filledOrders: number;
            };
        };
        /** @description EIP-712 typed data to sign (eth_signTypedData_v4) */
        SignatureData: {
            domain: {
                name: string;
                version: string;
                chainId: number;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                verifyingContract: string;
            };
            /** @description The Request and Output struct types only, as the real backend returns them (no EIP712Domain: ethers v6 signs them as-is). A raw eth_signTypedData_v4 call must add EIP712Domain from the domain's fields. */
            types: {
                Request: {
                    name: string;
                    type: string;
                }[];
                Output: {
                    name: string;
                    type: string;
                }[];
            };
            /** @constant */
            primaryType: "Request";
            value: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                tokenIn: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amountIn: string;
                outputs: {
                    /**
                     * @description EVM address; any case accepted, returned lowercase
                     * @example 0x0000000000000000000000000000000000000001
                     */
                    token: string;
                    /**
                     * @description uint256 as a decimal string
                     * @example 1000000000000000000
                     */
                    amount: string;
                    /**
                     * @description EVM address; any case accepted, returned lowercase
                     * @example 0x0000000000000000000000000000000000000001
                     */
                    recipient: string;
                }[];
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                deadline: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                nonce: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                protocol: string;
            };
        };
        /** @description EIP-712 typed data to sign (eth_signTypedData_v4) */
        SignatureDataInput: {
            domain: {
                name: string;
                version: string;
                chainId: number;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                verifyingContract: string;
            };
            /** @description The Request and Output struct types only, as the real backend returns them (no EIP712Domain: ethers v6 signs them as-is). A raw eth_signTypedData_v4 call must add EIP712Domain from the domain's fields. */
            types: {
                Request: {
                    name: string;
                    type: string;
                }[];
                Output: {
                    name: string;
                    type: string;
                }[];
            };
            /** @constant */
            primaryType: "Request";
            value: {
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                tokenIn: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                amountIn: string;
                outputs: {
                    /**
                     * @description EVM address; any case accepted, returned lowercase
                     * @example 0x0000000000000000000000000000000000000001
                     */
                    token: string;
                    /**
                     * @description uint256 as a decimal string
                     * @example 1000000000000000000
                     */
                    amount: string;
                    /**
                     * @description EVM address; any case accepted, returned lowercase
                     * @example 0x0000000000000000000000000000000000000001
                     */
                    recipient: string;
                }[];
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                deadline: string;
                /**
                 * @description uint256 as a decimal string
                 * @example 1000000000000000000
                 */
                nonce: string;
                /**
                 * @description EVM address; any case accepted, returned lowercase
                 * @example 0x0000000000000000000000000000000000000001
                 */
                protocol: string;
            };
        };
        SolverScorecard: {
            id: string;
            name: string;
            metadata: {
                /** Format: uri */
                logoUrl?: string;
            };
            enabled: boolean;
            /** @description The end of the solver's cooldown; null: none */
            cooldownUntil: string | null;
            cooldownReason: string | null;
            /** @description The last hour (60 minute buckets), day (24 hour buckets) and week (168 hour buckets), each ending with the current bucket; at most 1 s stale */
            scorecard: {
                hour: components["schemas"]["ScorecardWindow"];
                day: components["schemas"]["ScorecardWindow"];
                week: components["schemas"]["ScorecardWindow"];
            };
        };
        SolverScorecardInput: {
            id: string;
            name: string;
            metadata: {
                /** Format: uri */
                logoUrl?: string;
            };
            enabled: boolean;
            /** @description The end of the solver's cooldown; null: none */
            cooldownUntil: string | null;
            cooldownReason: string | null;
            /** @description The last hour (60 minute buckets), day (24 hour buckets) and week (168 hour buckets), each ending with the current bucket; at most 1 s stale */
            scorecard: {
                hour: components["schemas"]["ScorecardWindowInput"];
                day: components["schemas"]["ScorecardWindowInput"];
                week: components["schemas"]["ScorecardWindowInput"];
            };
        };
        SolversResponse: {
            solvers: components["schemas"]["SolverScorecard"][];
        };
        SolversResponseInput: {
            solvers: components["schemas"]["SolverScorecardInput"][];
        };
        SwapError: {
            error: {
                /** @enum {string} */
                code: "INVALID_API_KEY" | "RATE_LIMITED" | "OVERLOADED" | "VALIDATION_FAILED" | "UNSUPPORTED_CHAIN" | "UNSUPPORTED_TOKEN" | "NO_QUOTES" | "SOLVERS_BUSY" | "CHAIN_UNAVAILABLE" | "AUCTION_NOT_FOUND" | "AUCTION_OPEN" | "DUPLICATE_TOKEN" | "MISSING_FILTER" | "UNAUTHORIZED" | "TOO_MANY_STREAMS" | "STREAMS_AT_CAPACITY" | "QUOTE_NOT_FOUND" | "QUOTE_EXPIRED" | "QUOTE_UNAVAILABLE" | "QUOTE_MISMATCH" | "INVALID_SIGNATURE" | "ORDER_NOT_FOUND" | "ORDER_NOT_OPEN" | "UNAUTHORIZED_SIGNER" | "DISCOUNT_REJECTED" | "NOT_FOUND" | "SOLVER_NOT_FOUND" | "TRAIL_NOT_FOUND" | "DEV_ONLY" | "INTERNAL" | "UNSUPPORTED_MEDIA_TYPE" | "PAYLOAD_TOO_LARGE" | "MALFORMED_REQUEST" | "HEADERS_TOO_LARGE" | "REQUEST_TIMEOUT" | "MISDIRECTED_REQUEST" | "SERVICE_UNAVAILABLE";
                message: string;
                status: number;
                /** Format: date-time */
                timestamp: string;
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        SwapErrorInput: {
            error: {
                /** @enum {string} */
                code: "INVALID_API_KEY" | "RATE_LIMITED" | "OVERLOADED" | "VALIDATION_FAILED" | "UNSUPPORTED_CHAIN" | "UNSUPPORTED_TOKEN" | "NO_QUOTES" | "SOLVERS_BUSY" | "CHAIN_UNAVAILABLE" | "AUCTION_NOT_FOUND" | "AUCTION_OPEN" | "DUPLICATE_TOKEN" | "MISSING_FILTER" | "UNAUTHORIZED" | "TOO_MANY_STREAMS" | "STREAMS_AT_CAPACITY" | "QUOTE_NOT_FOUND" | "QUOTE_EXPIRED" | "QUOTE_UNAVAILABLE" | "QUOTE_MISMATCH" | "INVALID_SIGNATURE" | "ORDER_NOT_FOUND" | "ORDER_NOT_OPEN" | "UNAUTHORIZED_SIGNER" | "DISCOUNT_REJECTED" | "NOT_FOUND" | "SOLVER_NOT_FOUND" | "TRAIL_NOT_FOUND" | "DEV_ONLY" | "INTERNAL" | "UNSUPPORTED_MEDIA_TYPE" | "PAYLOAD_TOO_LARGE" | "MALFORMED_REQUEST" | "HEADERS_TOO_LARGE" | "REQUEST_TIMEOUT" | "MISDIRECTED_REQUEST" | "SERVICE_UNAVAILABLE";
                message: string;
                status: number;
                /** Format: date-time */
                timestamp: string;
                details?: {
                    [key: string]: unknown;
                };
            };
        };
        TokenInfo: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            address: string;
            symbol: string;
            name: string;
            decimals: number;
        };
        TokenInfoInput: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            address: string;
            symbol: string;
            name: string;
            decimals: number;
        };
        TransactionRequest: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            to: string;
            data: string;
            /**
             * @description Native value to send, a decimal string (always "0")
             * @constant
             */
            value: "0";
        };
        TransactionRequestInput: {
            /**
             * @description EVM address; any case accepted, returned lowercase
             * @example 0x0000000000000000000000000000000000000001
             */
            to: string;
            data: string;
            /**
             * @description Native value to send, a decimal string (always "0")
             * @constant
             */
            value: "0";
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
