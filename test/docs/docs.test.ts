// The README and the guides stay true to the repository: every relative link reaches a file, every anchor a
// heading of it, and every `sluice …` command they show is one the command line parses (commander's own parse of
// the real command tree, with option values taken as written).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Command, CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/program.ts";
import { commandsIn, headingSlugs, linksIn } from "./markdown.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** Code spans that name something else than a command: PostgreSQL session names (`pg_stat_activity`). */
const NOT_COMMANDS = new Set(["sluice listen", "sluice <name> lock"]);

function markdownFiles(): string[] {
  return execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "*.md"], {
    cwd: ROOT,
    encoding: "utf8",
  })
    .split("\n")
    .filter((file) => file.endsWith(".md"));
}

function read(file: string): string {
  return readFileSync(join(ROOT, file), "utf8");
}

/** Every command of the tree answers nothing and exits nowhere; option values are not judged (placeholders). */
function parseOnlyProgram(): Command {
  const program = buildProgram();
  const visit = (command: Command): void => {
    command.exitOverride();
    command.configureOutput({ writeOut: () => {}, writeErr: () => {} });
    // Every command but the root, those with subcommands too (`sluice devnet`, `sluice solver` run something).
    if (command.parent) command.action(() => {});
    for (const option of command.options) option.parseArg = undefined;
    for (const sub of command.commands) visit(sub);
  };
  visit(program);
  return program;
}

/** Why `args` does not parse, or undefined when it does. */
async function parseProblem(args: string[]): Promise<string | undefined> {
  try {
    await parseOnlyProgram().parseAsync(args, { from: "user" });
    return undefined;
  } catch (error) {
    if (error instanceof CommanderError) return error.message;
    throw error;
  }
}

/** Whether the words before the first option name a command of the tree (prose names commands without options). */
function namesCommand(args: string[]): string | undefined {
  let command: Command = buildProgram();
  for (const word of args) {
    if (word.startsWith("-")) break;
    const sub = command.commands.find((candidate) => candidate.name() === word);
    if (!sub)
      return command.commands.length > 0 ? `no command "${word}" under "${command.name()}"` : undefined;
    command = sub;
  }
  return undefined;
}

describe("the README and the guides", () => {
  const files = markdownFiles();

  it("are found", () => {
    expect(files).toContain("README.md");
    expect(files.filter((file) => file.startsWith("docs/")).length).toBeGreaterThanOrEqual(7);
  });

  it("link only to files and headings that exist", () => {
    const broken: string[] = [];
    for (const file of files) {
      for (const link of linksIn(read(file))) {
        const [path, anchor] = link.split("#", 2) as [string, string | undefined];
        const target = path === "" ? join(ROOT, file) : resolve(ROOT, dirname(file), path);
        if (relative(ROOT, target).startsWith("..")) broken.push(`${file}: ${link} leaves the repository`);
        else if (!existsSync(target)) broken.push(`${file}: ${link} (no such file)`);
        else if (anchor !== undefined && target.endsWith(".md")) {
          if (!headingSlugs(readFileSync(target, "utf8")).has(anchor))
            broken.push(`${file}: ${link} (no such heading in ${relative(ROOT, target)})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("show only commands that parse", async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const shown of commandsIn(read(file))) {
        if (NOT_COMMANDS.has(shown.text)) continue;
        for (const args of shown.variants) {
          checked++;
          const problem = shown.complete ? await parseProblem(args) : namesCommand(args);
          if (problem) problems.push(`${file}: \`${shown.text}\` → sluice ${args.join(" ")}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it("finds a broken link, anchor or command when there is one (the checks themselves work)", async () => {
    expect(linksIn("see [a](docs/x.md#y) and `[not](a link)` and [web](https://example.com)")).toEqual([
      "docs/x.md#y",
    ]);
    expect(headingSlugs("# Database outages (PostgreSQL)\n## `sluice` CLI\n## Same\n## Same")).toEqual(
      new Set(["database-outages-postgresql", "sluice-cli", "same", "same-1"]),
    );
    expect(await parseProblem(["solvers", "cooldown", "--lift", "x"])).toBeUndefined();
    expect(await parseProblem(["solvers", "cooldown", "--lfit", "x"])).toMatch(/unknown option/);
    expect(await parseProblem(["import", "points", "a.jsonl", "--type", "t"])).toMatch(/required option/);
    expect(namesCommand(["import", "pionts"])).toMatch(/no command "pionts"/);
    const [shown] = commandsIn(
      "```sh\nnpx sluice import points <file> --type <t> [--block <n>]  # a comment\n```",
    );
    expect(shown!.variants).toEqual([
      ["import", "points", "<file>", "--type", "<t>"],
      ["import", "points", "<file>", "--type", "<t>", "--block", "<n>"],
    ]);
  });
});
