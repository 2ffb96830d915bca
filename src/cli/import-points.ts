// `sluice import points <file> --type <pointsType> --block <n>`: one snapshot from JSONL or CSV.
import { type Command, InvalidArgumentError } from "commander";
import { MAX_POINTS_DECIMALS } from "../points/amounts.ts";
import { importPointsFile, POINTS_FILE_FORMATS, type PointsFileFormat } from "../points/import-file.ts";
import { createProgressBar } from "../shared/progress-bar.ts";
import { withMigratedDatabase } from "./database.ts";

export function registerImportPointsCommand(importCommand: Command): void {
  importCommand
    .command("points <file>")
    .description(
      "load one points snapshot from a JSONL or CSV file of rows {receiver_address, receiver_type, vault_address, points}, " +
        "points being integers in the type's smallest unit; one transaction: a bad row writes nothing",
    )
    .requiredOption("--type <pointsType>", "points type of the snapshot")
    .requiredOption("--block <n>", "block number of the snapshot", parseBlockNumber)
    .option("--decimals <d>", "decimals of the points type (required when the type is new)", parseDecimals)
    .option("--format <format>", "jsonl or csv (default: from the file extension)", parseFormat)
    .action(
      async (
        file: string,
        options: { type: string; block: number; decimals?: number; format?: PointsFileFormat },
      ) => {
        const summary = await withMigratedDatabase(async (database) => {
          const progress = createProgressBar("importing points", "bytes");
          try {
            return await importPointsFile(database, {
              path: file,
              format: options.format,
              pointsType: options.type,
              blockNumber: options.block,
              decimals: options.decimals,
              onProgress: (bytesRead, totalBytes) => progress.update(bytesRead, totalBytes),
            });
          } finally {
            progress.stop();
          }
        });
        // Printed once the database is closed: the snapshot is stored.
        process.stdout.write(
          `imported points snapshot ${summary.pointsType}@${summary.blockNumber}: ${summary.inputRows} rows, ` +
            `${summary.receiverRows} receiver rows in ${summary.vaults} vaults, total ${summary.totalPoints} ` +
            `(${summary.decimals} decimals)\n`,
        );
      },
    );
}

export function parseBlockNumber(value: string): number {
  const block = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(block)) {
    throw new InvalidArgumentError("must be an integer from 0 to 9007199254740991");
  }
  return block;
}

export function parseDecimals(value: string): number {
  const decimals = Number(value);
  if (!/^\d+$/.test(value) || decimals > MAX_POINTS_DECIMALS) {
    throw new InvalidArgumentError(`must be an integer from 0 to ${MAX_POINTS_DECIMALS}`);
  }
  return decimals;
}

function parseFormat(value: string): PointsFileFormat {
  if (!(POINTS_FILE_FORMATS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`must be one of ${POINTS_FILE_FORMATS.join(", ")}`);
  }
  return value as PointsFileFormat;
}
