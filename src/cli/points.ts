// `sluice points sync <url>`: pull a partner's latest snapshot from its External Points API.
import { type Command, InvalidArgumentError } from "commander";
import {
  DEFAULT_FEED_PAGE_SIZE,
  FEED_FORMATS,
  type FeedFormatChoice,
  MAX_FEED_PAGE_SIZE,
  syncPartnerPoints,
} from "../points/sync.ts";
import { withDatabaseOrServer } from "./database.ts";
import { addDecimalsOptions } from "./import-points.ts";
import { registerPointsEngineCommands } from "./points-engine.ts";

export function registerPointsCommands(program: Command): void {
  const points = program
    .command("points")
    .description("points data: partner feeds and the own type's engine");
  registerPointsEngineCommands(points);
  const sync = points
    .command("sync <url>")
    .description(
      "pull the partner's latest snapshot into a points type: points-template feeds (GET <url>/api/last_block, " +
        "<url>/api/all?block_number&offset&limit), root feeds (the same at <url>/last_block and <url>/all) or " +
        "legacy ones (<url>/last_block, <url>/api/all?block_number&page); a re-run after a failure resumes at " +
        "the page that failed",
    )
    .requiredOption("--type <pointsType>", "points type to store the snapshot under")
    .option(
      "--feed-format <format>",
      "auto, points-template, root or legacy (auto tries <url>/api/last_block, then <url>/last_block)",
      parseFeedFormat,
      "auto",
    )
    .option(
      "--page-size <n>",
      `rows per request from an offset-paged feed (1 to ${MAX_FEED_PAGE_SIZE})`,
      parsePageSize,
      DEFAULT_FEED_PAGE_SIZE,
    );
  addDecimalsOptions(sync, {
    feed: "implied decimals of the feed's points values (0: whole points, 18: wei-like units)",
    type: "decimals of the points type if this run creates it (default 18); an existing type must match",
  }).action(
    async (
      url: string,
      options: {
        type: string;
        feedFormat: FeedFormatChoice;
        pageSize: number;
        feedDecimals: number;
        typeDecimals?: number;
      },
    ) => {
      const request = {
        url,
        pointsType: options.type,
        feedFormat: options.feedFormat,
        pageSize: options.pageSize,
        feedDecimals: options.feedDecimals,
        typeDecimals: options.typeDecimals,
      };
      const onFormat = (format: string, detectedAt?: string) =>
        process.stderr.write(
          detectedAt ? `feed format: ${format} (detected at ${detectedAt})\n` : `feed format: ${format}\n`,
        );
      const onPage = ({ at, rows, stagedRows }: { at: string; rows: number; stagedRows: number }) =>
        process.stderr.write(`${at}: ${rows} rows (${stagedRows} staged)\n`);
      const result = await withDatabaseOrServer({
        onDatabase: (database) => syncPartnerPoints(database, { ...request, onFormat, onPage }),
        // The running server pulls the feed; its progress comes back as it goes.
        throughServer: (server) =>
          server.syncPoints(request, (progress) =>
            progress.kind === "format" ? onFormat(progress.format, progress.detectedAt) : onPage(progress),
          ),
      });
      // Printed once the snapshot is stored (the database closed, or the server answered).
      if (result.status === "up-to-date") {
        process.stdout.write(`${options.type} is up to date at block ${result.blockNumber}\n`);
        return;
      }
      const { snapshot } = result;
      process.stdout.write(
        `synced ${snapshot.pointsType}@${snapshot.blockNumber}${result.resumed ? " (resumed)" : ""}: ` +
          `${snapshot.inputRows} rows, ${snapshot.receiverRows} receiver rows in ${snapshot.vaults} vaults, ` +
          `total ${snapshot.totalPoints} (${snapshot.decimals} decimals)\n`,
      );
    },
  );
}

function parseFeedFormat(value: string): FeedFormatChoice {
  const choices: readonly string[] = ["auto", ...FEED_FORMATS];
  if (!choices.includes(value)) throw new InvalidArgumentError(`must be one of ${choices.join(", ")}`);
  return value as FeedFormatChoice;
}

function parsePageSize(value: string): number {
  const size = Number(value);
  if (!/^\d+$/.test(value) || size < 1 || size > MAX_FEED_PAGE_SIZE) {
    throw new InvalidArgumentError(`must be an integer from 1 to ${MAX_FEED_PAGE_SIZE}`);
  }
  return size;
}
