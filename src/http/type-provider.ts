// The zod type provider, plus prepared JSON: a route's handler may answer a value of its response type (checked and
// serialized by the route's schema) or that value's JSON already written (`JsonText`, sent as it is). Either way
// the type of what goes out is the response schema's; no answer needs a cast to be sent.
import type { FastifyTypeProvider } from "fastify";
import type { $ZodType, input, output } from "zod/v4/core";
import type { JsonText } from "../shared/json-text.ts";

export interface SluiceTypeProvider extends FastifyTypeProvider {
  validator: this["schema"] extends $ZodType ? output<this["schema"]> : unknown;
  serializer: this["schema"] extends $ZodType
    ? input<this["schema"]> | JsonText<output<this["schema"]>>
    : unknown;
}
