// Request bodies accepted by hand before their route's schema parse: a route's acceptor gives the value the schema
// would for a body it recognises as valid, undefined for any other, which the schema then parses (and refuses with
// its own issues). Only routes every client calls at volume have one.
import { acceptQuoteRequest } from "../swap/quote-request-accept.ts";
import { QuoteRequestSchema } from "../swap/schemas.ts";

export type BodyAcceptor = (body: unknown) => unknown;

const ACCEPTORS = new Map<unknown, BodyAcceptor>([[QuoteRequestSchema, acceptQuoteRequest]]);

/** The acceptor of a route's body schema, if it has one. */
export function bodyAcceptorOf(schema: unknown): BodyAcceptor | undefined {
  return ACCEPTORS.get(schema);
}
