// The admin routes that do an operator command's write on the running server's database, for commands run beside a
// server whose embedded database they cannot open (src/admin/running-server.ts). Each needs this run's admin token
// and answers a job stream (src/admin/job-stream.ts): progress lines, then the result or the failure's message, which
// the command prints as it would have printed its own.
//
//   POST /api-internal/v1/admin/points/import?pointsType&blockNumber&format&feedDecimals[&typeDecimals]
//        body: the points file's bytes (application/octet-stream), imported as they arrive
//   POST /api-internal/v1/admin/points/sync        {url, pointsType, feedDecimals, typeDecimals?, feedFormat, pageSize}
//   POST /api-internal/v1/admin/registry/import    {tree, overlay}: the tree the command read, the overlay file's JSON
//   POST /api-internal/v1/admin/cooldowns          {solverId, lift: true} | {solverId, until}
//   GET  /api-internal/v1/admin/points-engine/status    {text}: what `sluice points engine status` prints
//   POST /api-internal/v1/admin/points-engine/backfill  {from?}: the running engine's backfill (stops if the caller goes)
import type { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import { AdminAuthenticationError, NoPointsEngineError } from "../../admin/errors.ts";
import { JOB_STREAM_MEDIA_TYPE, jobStream } from "../../admin/job-stream.ts";
import type { AdminOperations, SyncProgress } from "../../admin/operations.ts";
import { SOLVER_ID_PATTERN } from "../../deployment/schema.ts";
import { MAX_POINTS_DECIMALS } from "../../points/amounts.ts";
import { POINTS_FILE_FORMATS } from "../../points/import-file.ts";
import { FEED_FORMATS, MAX_FEED_PAGE_SIZE } from "../../points/sync.ts";
import type { BackfillProgress } from "../../points-engine/engine.ts";
import type { MetadataTree } from "../../registry/registry.ts";
import type { TreeReport } from "../../registry/report.ts";
import { MEDIA_TYPE_KEY } from "../openapi.ts";
import type { Handler } from "../route.ts";

/** The registry tree of the mainnet metadata repository is a few megabytes; leave room for larger ones. */
export const REGISTRY_IMPORT_BODY_LIMIT = 256 * 1024 * 1024;

const JobStreamSchema = z.string().meta({
  [MEDIA_TYPE_KEY]: JOB_STREAM_MEDIA_TYPE,
  description: "One JSON line per progress report, then {event: done, result} or {event: failed, message}",
});

/** A job stream as the answer: its lines are the body, no serializer sees them. */
function sendJob(reply: FastifyReply, body: Readable) {
  return reply.header("content-type", JOB_STREAM_MEDIA_TYPE).send(body as never);
}

const Decimals = z.coerce.number().int().min(0).max(MAX_POINTS_DECIMALS);

export const importPointsSchema = {
  summary: "Import one points snapshot from the uploaded file, as `sluice import points` does",
  querystring: z
    .object({
      pointsType: z.string().min(1),
      blockNumber: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      format: z.enum(POINTS_FILE_FORMATS),
      feedDecimals: Decimals,
      typeDecimals: Decimals.optional(),
    })
    .strict(),
  response: { 200: JobStreamSchema },
  errors: [AdminAuthenticationError],
};

export function importPoints(operations: AdminOperations): Handler<typeof importPointsSchema> {
  return async (request, reply) => {
    const { typeDecimals, ...query } = request.query;
    const upload = request.body as Readable;
    const body = jobStream(() =>
      operations.importPoints(upload, { ...query, ...(typeDecimals === undefined ? {} : { typeDecimals }) }),
    );
    return sendJob(reply, body);
  };
}

export const syncPointsSchema = {
  summary: "Pull a partner's latest points snapshot, as `sluice points sync` does",
  body: z
    .object({
      url: z.url({ protocol: /^https?$/ }),
      pointsType: z.string().min(1),
      feedDecimals: Decimals,
      typeDecimals: Decimals.optional(),
      feedFormat: z.enum(["auto", ...FEED_FORMATS]),
      pageSize: z.number().int().min(1).max(MAX_FEED_PAGE_SIZE),
    })
    .strict(),
  response: { 200: JobStreamSchema },
  errors: [AdminAuthenticationError],
};

export function syncPoints(operations: AdminOperations): Handler<typeof syncPointsSchema> {
  return async (request, reply) => {
    const { typeDecimals, ...sync } = request.body;
    const body = jobStream<SyncProgress, unknown>((report) =>
      operations.syncPoints({ ...sync, ...(typeDecimals === undefined ? {} : { typeDecimals }) }, report),
    );
    return sendJob(reply, body);
  };
}

export const importRegistrySchema = {
  summary: "Replace the stored registry, as `sluice import registry` does",
  body: z
    .object({
      // Read and checked by the command from the metadata tree (src/registry/metadata-tree.ts).
      tree: z.object({ tree: z.record(z.string(), z.unknown()), report: z.record(z.string(), z.unknown()) }),
      // The overlay file's JSON, checked here as the command checks it.
      overlay: z.unknown(),
    })
    .strict(),
  response: { 200: JobStreamSchema },
  errors: [AdminAuthenticationError],
};

export function importRegistry(operations: AdminOperations): Handler<typeof importRegistrySchema> {
  return async (request, reply) => {
    const { tree, overlay } = request.body;
    const body = jobStream(() =>
      operations.importRegistry(tree as unknown as { tree: MetadataTree; report: TreeReport }, overlay),
    );
    return sendJob(reply, body);
  };
}

export const overrideCooldownSchema = {
  summary: "Lift a solver's cooldown or set one, as `sluice solvers cooldown` does",
  body: z.union([
    z.object({ solverId: z.string().regex(SOLVER_ID_PATTERN), lift: z.literal(true) }).strict(),
    z
      .object({ solverId: z.string().regex(SOLVER_ID_PATTERN), until: z.iso.datetime({ offset: true }) })
      .strict(),
  ]),
  response: { 200: JobStreamSchema },
  errors: [AdminAuthenticationError],
};

export function overrideCooldown(operations: AdminOperations): Handler<typeof overrideCooldownSchema> {
  return async (request, reply) => {
    const override = request.body;
    const body = jobStream(() =>
      operations.overrideCooldown(
        "lift" in override ? override : { solverId: override.solverId, until: new Date(override.until) },
      ),
    );
    return sendJob(reply, body);
  };
}

export const pointsEngineStatusSchema = {
  summary: "The points engine's status, as `sluice points engine status` prints it",
  response: { 200: z.object({ text: z.string() }) },
  errors: [AdminAuthenticationError, NoPointsEngineError],
};

export function pointsEngineStatus(operations: AdminOperations): Handler<typeof pointsEngineStatusSchema> {
  return async () => ({ text: await operations.pointsEngineStatus() });
}

export const pointsEngineBackfillSchema = {
  summary: "Compute the own points up to the confirmed head now, as `sluice points engine backfill` does",
  body: z
    .object({
      from: z
        .string()
        .regex(/^[1-9]\d*$/)
        .optional(),
    })
    .strict(),
  response: { 200: JobStreamSchema },
  errors: [AdminAuthenticationError],
};

export function pointsEngineBackfill(
  operations: AdminOperations,
): Handler<typeof pointsEngineBackfillSchema> {
  return async (request, reply) => {
    const { from } = request.body;
    // Ctrl-C beside: the command's connection closes, and the backfill stops after the step in flight.
    let gone = false;
    reply.raw.once("close", () => {
      if (!reply.raw.writableFinished) gone = true;
    });
    const body = jobStream<BackfillProgress, BackfillProgress>((report) =>
      operations.pointsEngineBackfill(from === undefined ? undefined : BigInt(from), report, () => gone),
    );
    return sendJob(reply, body);
  };
}
