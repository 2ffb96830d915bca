// Bundled solver logos, addressed by content: `<name>-<sha256 of the bytes>.png`, so they can be cached forever.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { packagePath } from "../package-root.ts";

export const BUNDLED_LOGO_DIR = packagePath("assets", "solver-logos");

export interface SolverLogo {
  /** Logo name: the PNG's file name without extension. */
  name: string;
  /** The public file name, with the digest. */
  fileName: string;
  bytes: Buffer;
  etag: string;
}

export class SolverLogoStore {
  readonly #byFileName = new Map<string, SolverLogo>();
  readonly #byName = new Map<string, SolverLogo>();

  constructor(directory: string = BUNDLED_LOGO_DIR) {
    for (const entry of readdirSync(directory)) {
      const match = /^([a-z0-9][a-z0-9_-]*)\.png$/.exec(entry);
      if (!match?.[1]) continue;
      const bytes = readFileSync(`${directory}/${entry}`);
      const digest = createHash("sha256").update(bytes).digest("hex");
      const logo = { name: match[1], fileName: `${match[1]}-${digest}.png`, bytes, etag: `"${digest}"` };
      this.#byFileName.set(logo.fileName, logo);
      this.#byName.set(logo.name, logo);
    }
  }

  byFileName(fileName: string): SolverLogo | undefined {
    return this.#byFileName.get(fileName);
  }

  byName(name: string): SolverLogo | undefined {
    return this.#byName.get(name);
  }

  /** The absolute URL of a logo, under the API's public base URL. */
  urlFor(name: string, baseUrl: string): string | undefined {
    const logo = this.#byName.get(name);
    return logo ? `${baseUrl.replace(/\/$/, "")}/solver-logos/${logo.fileName}` : undefined;
  }
}
