// What the docs test reads out of Markdown: relative links, heading anchors (as GitHub makes them) and the
// `sluice …` commands shown in code.

/** Fenced code blocks' lines, and the rest of the text with inline code spans cut out. */
function split(markdown: string): { code: string[]; prose: string } {
  const code: string[] = [];
  const prose: string[] = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) code.push(line);
    else prose.push(line);
  }
  return { code, prose: prose.join("\n") };
}

/** The relative link targets (with their anchors) of the text outside code. */
export function linksIn(markdown: string): string[] {
  const prose = split(markdown).prose.replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** GitHub's anchor of each heading: lowercase, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of split(markdown).prose.split("\n")) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    slugs.add(count === 0 ? base : `${base}-${count}`);
  }
  return slugs;
}

export interface ShownCommand {
  /** As written, from `sluice` on. */
  text: string;
  /** Its arguments after `sluice`: without, then with, its optional `[…]` parts; alternatives (`a | b`) apart. */
  variants: string[][];
  /** Written out whole (a code block, or a span with options or placeholders), so it must parse; otherwise prose
   * naming a command, whose words must name one. */
  complete: boolean;
}

const COMMAND = /(?:^|[\s;&|])(?:npx |npm run |node (?:bin\/)?)?sluice(?:\.mjs)? (?:-- )?([a-z<][^#`\n]*)/g;

/** Every `sluice …` command in code blocks and inline code spans. */
export function commandsIn(markdown: string): ShownCommand[] {
  const { code, prose } = split(markdown);
  const spans = [...prose.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!);
  const shown: ShownCommand[] = [];
  for (const [texts, fromBlock] of [
    [code, true],
    [spans, false],
  ] as const) {
    for (const text of texts) {
      for (const match of text.matchAll(COMMAND)) {
        const rest = match[1]!.trim().replace(/\\$/, "").trim();
        if (rest.startsWith("<")) continue; // `sluice <command>`: a pattern, not a command
        shown.push({
          text: `sluice ${rest}`,
          variants: variantsOf(rest),
          complete: fromBlock || /--|</.test(rest),
        });
      }
    }
  }
  return shown;
}

function variantsOf(rest: string): string[][] {
  const alternatives = rest.split(/\s+[|/]\s+/);
  const words = (text: string) =>
    text
      .split(/\s+/)
      .filter((word) => word !== "" && word !== "…" && word !== "...")
      .map((word) => word.replace(/^["']|["']$/g, ""));
  const path = words(alternatives[0]!).filter((_, i, all) =>
    all.slice(0, i + 1).every((w) => !w.startsWith("-")),
  );
  return alternatives.flatMap((alternative, index) => {
    const full =
      index > 0 && alternative.trimStart().startsWith("-") ? `${path.join(" ")} ${alternative}` : alternative;
    const without = words(full.replace(/\[[^\]]*\]/g, ""));
    const withAll = words(full.replace(/[[\]]/g, ""));
    return JSON.stringify(without) === JSON.stringify(withAll) ? [without] : [without, withAll];
  });
}
