// `sluice import points <file> --type <pointsType> --block <n>`: one snapshot from JSONL or CSV.
import { type Command, InvalidArgumentError, Option } from "commander";
import { MAX_POINTS_DECIMALS } from "../points/amounts.ts";
import {
  importPointsFile,
  POINTS_FILE_FORMATS,
  type PointsFileFormat,
  pointsFileFormat,
} from "../points/import-file.ts";
import { createProgressBar } from "../shared/progress-bar.ts";
import { withDatabaseOrServer } from "./database.ts";

export function registerImportPointsCommand(importCommand: Command): void {
  const command = importCommand
    .command("points <file>")
    .description(
      "load one points snapshot from a JSONL or CSV file of rows {receiver_address, receiver_type, vault_address, points}, " +
        "points in the file's units (--feed-decimals), converted exactly to the type's; one transaction: a bad row writes nothing",
    )
    .requiredOption("--type <pointsType>", "points type of the snapshot")
    .requiredOption("--block <n>", "block number of the snapshot", parseBlockNumber)
    .option("--format <format>", "jsonl or csv (default: from the file extension)", parseFormat);
  addDecimalsOptions(command, {
    feed: "implied decimals of the file's points values (0: whole points; the type's decimals: smallest units)",
    type: "decimals of the points type if this import creates it (required then); an existing type must match",
  }).action(
    async (
      file: string,
      options: {
        type: string;
        block: number;
        feedDecimals: number;
        typeDecimals?: number;
        format?: PointsFileFormat;
      },
    ) => {
      const format = pointsFileFormat(file, options.format);
      const progress = createProgressBar("importing points", "bytes");
      const summary = await withDatabaseOrServer({
        onDatabase: (database) =>
          importPointsFile(database, {
            path: file,
            format,
            pointsType: options.type,
            blockNumber: options.block,
            feedDecimals: options.feedDecimals,
            typeDecimals: options.typeDecimals,
            onProgress: (bytesRead, totalBytes) => progress.update(bytesRead, totalBytes),
          }),
        // The running server imports the file as it arrives: the bar follows the upload.
        throughServer: (server) =>
          server.importPoints(
            file,
            {
              pointsType: options.type,
              blockNumber: options.block,
              format,
              feedDecimals: options.feedDecimals,
              typeDecimals: options.typeDecimals,
            },
            (bytesSent, totalBytes) => progress.update(bytesSent, totalBytes),
          ),
      }).finally(() => progress.stop());
      // Printed once the snapshot is stored (the database closed, or the server answered).
      process.stdout.write(
        `imported points snapshot ${summary.pointsType}@${summary.blockNumber}: ${summary.inputRows} rows, ` +
          `${summary.receiverRows} receiver rows in ${summary.vaults} vaults, total ${summary.totalPoints} ` +
          `(${summary.decimals} decimals)\n`,
      );
    },
  );
}

/**
 * Adds the two decimals options every points import names apart: `--feed-decimals` (required: the implied
 * decimals of the values read) and `--type-decimals` (the decimals of a points type the run creates). A bare
 * `--decimals`, which once meant either, is refused.
 */
export function addDecimalsOptions(command: Command, help: { feed: string; type: string }): Command {
  return command
    .requiredOption("--feed-decimals <d>", help.feed, parseDecimals)
    .option("--type-decimals <d>", help.type, parseDecimals)
    .addOption(new Option("--decimals <d>").hideHelp().argParser(refuseBareDecimals));
}

function refuseBareDecimals(): never {
  throw new InvalidArgumentError(
    "--decimals is ambiguous and no longer accepted: use --feed-decimals <d> for the implied decimals of " +
      "the values read (0 for whole points) and --type-decimals <d> for the decimals of a points type the run creates",
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
