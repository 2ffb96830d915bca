// Sluice's own dev helpers around the swap demo page: the page (GET /demo, GET /demo/page.js) and POST /dev/rpc, the
// devnet's chain relayed for it (reads and signed transactions only). Behind the dev helpers' guard (routes.ts
// `devOnly`: 403 DEV_ONLY anywhere but the devnet); kept out of the OpenAPI document, as they are not the API.
import { DevOnlyError, DevRpcUnavailableError } from "../../devnet/errors.ts";
import { JsonRpcRequestSchema, JsonRpcResponseSchema } from "../../devnet/rpc-relay.ts";
import type { Handler } from "../route.ts";
import type { DevHelpers } from "./dev.ts";

export const rpcSchema = {
  // Kept out of the document, and so out of the client's types.
  hide: true,
  body: JsonRpcRequestSchema,
  response: { 200: JsonRpcResponseSchema },
  errors: [DevOnlyError, DevRpcUnavailableError],
};

/** One JSON-RPC call relayed to the devnet's node; a method it does not pass gets JSON-RPC's "method not found". */
export function rpc(helpers: DevHelpers): Handler<typeof rpcSchema> {
  return async (request) => {
    if (!helpers.rpc) throw new DevOnlyError("no_faucet");
    return helpers.rpc.relay(request.body);
  };
}

export const pageSchema = { hide: true };

/** The demo page (HTML); its script is /demo/page.js. */
export function page(helpers: DevHelpers): Handler<typeof pageSchema> {
  return async (_request, reply) => {
    if (!helpers.demoPage) throw new DevOnlyError("no_faucet");
    return reply
      .type("text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .send(helpers.demoPage.html());
  };
}

/** The demo page's script: page.ts bundled with viem and @sluice/client (built at the first request). */
export function script(helpers: DevHelpers): Handler<typeof pageSchema> {
  return async (_request, reply) => {
    if (!helpers.demoPage) throw new DevOnlyError("no_faucet");
    const bundled = await helpers.demoPage.script();
    return reply.type("text/javascript; charset=utf-8").header("cache-control", "no-store").send(bundled);
  };
}
