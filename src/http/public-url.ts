// The public base URL of the API (…/api/v1): PUBLIC_URL when configured, else the request's own origin.
import type { FastifyRequest } from "fastify";

export function publicBaseUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  const origin = publicUrl ? publicUrl.replace(/\/+$/, "") : `${request.protocol}://${request.host}`;
  return `${origin}/api/v1`;
}
