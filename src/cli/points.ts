// `sluice points sync <url>`: pull a partner's latest snapshot from its External Points API.
import type { Command } from "commander";
import { syncPartnerPoints } from "../points/sync.ts";
import { withMigratedDatabase } from "./database.ts";
import { parseDecimals } from "./import-points.ts";

export function registerPointsCommands(program: Command): void {
  const points = program.command("points").description("partner points data");
  points
    .command("sync <url>")
    .description(
      "pull the partner's latest snapshot (GET <url>/last_block, then <url>/api/all pages) into a points type; " +
        "a re-run after a failure resumes at the page that failed",
    )
    .requiredOption("--type <pointsType>", "points type to store the snapshot under")
    .option(
      "--decimals <d>",
      "implied decimals of the partner's points values (default 0: whole points)",
      parseDecimals,
    )
    .option("--type-decimals <d>", "decimals of the points type if it is new (default 18)", parseDecimals)
    .action(async (url: string, options: { type: string; decimals?: number; typeDecimals?: number }) => {
      const result = await withMigratedDatabase((database) =>
        syncPartnerPoints(database, {
          url,
          pointsType: options.type,
          sourceDecimals: options.decimals,
          typeDecimals: options.typeDecimals,
          onPage: ({ page, rows, stagedRows }) =>
            process.stderr.write(`page ${page}: ${rows} rows (${stagedRows} staged)\n`),
        }),
      );
      // Printed once the database is closed: the snapshot is stored.
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
    });
}
