// GET /api-internal/v1/trail?orderId=…|requestId=…: one swap's recorded steps, for support (internal listener only).
import { TrailNotFoundError } from "../../trail/errors.ts";
import { TrailQuerySchema, TrailSchema } from "../../trail/schemas.ts";
import type { TrailService } from "../../trail/trail.ts";
import type { Handler } from "../route.ts";

export const trailSchema = {
  querystring: TrailQuerySchema,
  response: { 200: TrailSchema },
  errors: [TrailNotFoundError],
  database: true,
  descriptions: { 200: "The trail, its steps in time order" },
};

export function trail(trails: TrailService): Handler<typeof trailSchema> {
  return async (request) => {
    const { orderId, requestId } = request.query;
    return trails.find(orderId !== undefined ? { orderId } : { requestId: requestId! });
  };
}
