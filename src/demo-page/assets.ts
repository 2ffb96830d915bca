// The demo page's two files: index.html as written, and page.ts bundled for the browser with viem and @sluice/client
// by esbuild the first time it is asked for (then kept), so the page always runs the sources it ships with and
// nothing is built unless a devnet serves it.
import { readFileSync } from "node:fs";
import { build } from "esbuild";
import { packagePath } from "../package-root.ts";

const DIR = packagePath("src", "demo-page");

export class DemoPage {
  #html: string | undefined;
  #script: Promise<string> | undefined;

  html(): string {
    this.#html ??= readFileSync(`${DIR}/index.html`, "utf8");
    return this.#html;
  }

  script(): Promise<string> {
    this.#script ??= bundle().catch((error: unknown) => {
      this.#script = undefined;
      throw error;
    });
    return this.#script;
  }
}

async function bundle(): Promise<string> {
  const result = await build({
    entryPoints: [`${DIR}/page.ts`],
    bundle: true,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    write: false,
    logLevel: "error",
  });
  return result.outputFiles[0]!.text;
}
