// A real browser for tests that drive a page: Debian's Chromium (npm cannot download browsers here) through
// playwright-core. No browser found is a failure with what to do, never a skip.
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** The browser executable: `CHROMIUM_PATH` if set, else the first of Debian's usual paths that exists. */
export function chromiumPath(): string {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) {
    if (!existsSync(chosen)) throw new Error(`CHROMIUM_PATH=${chosen} does not exist`);
    return chosen;
  }
  const found = CANDIDATES.find((path) => existsSync(path));
  if (!found) {
    throw new Error(
      `no Chromium found (looked at ${CANDIDATES.join(", ")}); install it with "apt-get install -y chromium" (.ci/run does) or set CHROMIUM_PATH`,
    );
  }
  return found;
}

export interface TestBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/**
 * Headless Chromium (playwright gives it a fresh temporary profile). The flags let it run as root in a container and keep it off the network
 * it cannot reach (background networking would fill the log with refused connections).
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-dev-shm-usage",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}
