// Who a request comes from, as the services share solver capacity between callers: the client's address as Fastify
// sees it (`request.ip`). The one place that says so: an API key's id can replace the address here.
import type { FastifyRequest } from "fastify";
import type { ClientId } from "../solvers/concurrency.ts";

export function clientIdOf(request: Pick<FastifyRequest, "ip">): ClientId {
  return request.ip;
}
