// A progress bar for the points commands, on stderr and only when stderr is a terminal: piped or
// captured output (CI, tests) stays clean.
import cliProgress from "cli-progress";

export interface ProgressBar {
  update(value: number, total?: number): void;
  stop(): void;
}

export function createProgressBar(label: string, unit: string, options: { eta?: boolean } = {}): ProgressBar {
  if (!process.stderr.isTTY) return { update() {}, stop() {} };
  const bar = new cliProgress.SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {duration_formatted}${options.eta ? " | ETA {eta_formatted}" : ""}`,
      etaBuffer: 50,
      stream: process.stderr,
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(value, total) {
      if (!started) {
        bar.start(total ?? value, value);
        started = true;
        return;
      }
      if (total !== undefined) bar.setTotal(total);
      bar.update(value);
    },
    stop() {
      if (started) bar.stop();
      started = false;
    },
  };
}
