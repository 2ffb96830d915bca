import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_ICON_BASE_URL,
  MetadataTreeError,
  readMetadataTree,
  readTreeTokens,
} from "../../src/registry/metadata-tree.ts";
import type { MetadataTree } from "../../src/registry/registry.ts";
import { formatImportReport, type TreeReport } from "../../src/registry/report.ts";
import { MetadataSchema } from "../../src/registry/schemas.ts";
import { FIXTURE_TREE, writeTree } from "./support.ts";

describe("the public mainnet metadata tree", () => {
  let tree: MetadataTree;
  let report: TreeReport;

  beforeAll(async () => {
    ({ tree, report } = await readMetadataTree(FIXTURE_TREE));
  });

  it("imports every entry of the four registries and skips none", () => {
    expect(tree.networks).toHaveLength(21);
    expect(tree.operators).toHaveLength(121);
    expect(tree.vaults).toHaveLength(159);
    expect(tree.curators).toHaveLength(19);
    for (const kind of Object.values(report.kinds)) {
      expect(kind.skipped).toEqual([]);
      expect(kind.warnings).toEqual([]);
    }
    expect(report.kinds.vaults.imported).toBe(159);
  });

  it("reports tokens/ and points/ as kinds that are not registries", () => {
    expect(report.skippedKinds.map((skipped) => skipped.entry)).toEqual(["points/", "tokens/"]);
  });

  it("lowercases mixed-case folder names but builds icons from the folder name as found", () => {
    const vault = tree.vaults.find((v) => v.address === "0x007e0b8e99c6134e81a1eaae754460e3202cb671");
    expect(vault).toBeDefined();
    expect(vault?.curatorId).toBe("keyrock");
    expect(vault?.meta.name).toBe("Keyrock Flagship USDC");
    expect(vault?.meta.icon).toBe(
      `${DEFAULT_ICON_BASE_URL}/vaults/0x007e0B8E99c6134E81A1eAAE754460E3202cB671/logo.png`,
    );
    expect(vault?.meta.tags).toEqual([]);
    const repaired = report.kinds.vaults.repaired.find(
      (r) => r.entry === "0x007e0B8E99c6134E81A1eAAE754460E3202cB671",
    );
    expect(repaired?.changes).toContain("lowercased address");
    for (const entity of [...tree.networks, ...tree.operators, ...tree.vaults]) {
      expect(entity.address).toMatch(/^0x[0-9a-f]{40}$/);
    }
  });

  it("sets icons only where logo.png exists", () => {
    const withoutLogo = tree.vaults.find((v) => v.address === "0x8327b8bd2561d28f914931ad57370d62c7968e40");
    expect(withoutLogo?.meta.icon).toBeUndefined();
    const operatorWithoutLogo = tree.operators.find(
      (o) => o.address === "0xfb6cfef0e4b12c8aa08f7e8cc0ed0459ed8f198d",
    );
    expect(operatorWithoutLogo?.meta.icon).toBeUndefined();
    expect(tree.vaults.filter((v) => v.meta.icon)).toHaveLength(158);
    expect(tree.operators.filter((o) => o.meta.icon)).toHaveLength(120);
    expect(tree.networks.every((n) => n.meta.icon)).toBe(true);
    expect(tree.curators.find((c) => c.id === "re7-labs")?.meta.icon).toBe(
      `${DEFAULT_ICON_BASE_URL}/curators/re7-labs/logo.png`,
    );
  });

  it("repairs the tBTC vault's link whose name and url are swapped", () => {
    const tbtc = tree.vaults.find((v) => v.address === "0x0c969cec0729487d264716e55f232b404299032c");
    expect(tbtc?.meta.links).toContainEqual({
      type: "docs",
      name: "tBTC detailed system architecture",
      url: "https://github.com/keep-network/tbtc-v2/blob/main/docs/README.adoc",
    });
    expect(tbtc?.meta.links).toHaveLength(3);
    const repaired = report.kinds.vaults.repaired.find(
      (r) => r.entry === "0x0c969cec0729487d264716e55f232b404299032c",
    );
    expect(repaired?.changes).toEqual(['swapped name and url of link "tBTC detailed system architecture"']);
  });

  it("drops keys the spec's metadata does not allow, and reports them", () => {
    const a41 = tree.operators.find((o) => o.address === "0x93fda90d946243b6a1823d24344d0b8f8ed87edb");
    expect(a41?.meta).not.toHaveProperty("website");
    expect(
      report.kinds.operators.repaired.find((r) => r.entry === "0x93fDa90D946243B6A1823d24344D0b8F8ED87Edb")
        ?.changes,
    ).toContain('dropped unknown key "website"');
    const dropped = (key: string) =>
      report.kinds.vaults.repaired.filter((r) => r.changes.includes(`dropped unknown key "${key}"`)).length;
    expect(dropped("vaultType")).toBe(109);
    expect(dropped("rewards")).toBe(28);
    expect(dropped("curatorId")).toBe(0);
    for (const entry of [...tree.networks, ...tree.operators, ...tree.vaults, ...tree.curators]) {
      expect(MetadataSchema.strict().safeParse(entry.meta).success).toBe(true);
    }
  });

  it("keeps optional metadata as found: curators without tags have none", () => {
    expect(tree.curators.filter((c) => c.meta.tags !== undefined)).toHaveLength(7);
    const p2p = tree.curators.find((c) => c.id === "p2p-org");
    expect(p2p?.meta).toEqual({
      name: "P2P.org",
      description: expect.stringContaining("P2P.org is a blockchain infrastructure service"),
      icon: `${DEFAULT_ICON_BASE_URL}/curators/p2p-org/logo.png`,
      links: [{ type: "website", name: "Website", url: "https://p2p.org/" }],
    });
  });

  it("lists the tree's tokens for demo collateral", async () => {
    const tokens = await readTreeTokens(FIXTURE_TREE);
    expect(tokens).toHaveLength(48);
    expect(tokens.find((t) => t.address === "0x8236a87084f8b84306f72007f36f2618a5634494")?.name).toBe("LBTC");
  });
});

describe("normalising a hand-made tree", () => {
  const A = "0xAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
  const tree = writeTree({
    "README.md": "# metadata",
    "docs/guide.md": "guide",
    [`networks/${A}/info.json`]: {
      name: "  Spaced  ",
      description: 42,
      cmcId: "123",
      tags: ["l1", 3, ""],
      links: [
        { name: "Website", type: "website", url: "https://example.org/" },
        { name: "Broken", type: "docs", url: "not a url" },
        "https://example.org/not-an-object",
        { name: "https://docs.example.org/", type: "docs", url: "Docs" },
        { name: "X", type: "social", url: "https://x.com/example", extra: true },
        { name: "FTP", type: "docs", url: "ftp://example.org/file" },
        { name: "No type", url: "https://example.org/" },
      ],
    },
    [`networks/${A}/logo.png`]: "png",
    [`networks/${A.toLowerCase()}/info.json`]: { name: "Duplicate" },
    "networks/not-an-address/info.json": { name: "Bad folder" },
    "networks/0x1111111111111111111111111111111111111111/info.json": { description: "no name" },
    "networks/0x2222222222222222222222222222222222222222/info.json": "{ not json",
    "networks/0x3333333333333333333333333333333333333333/logo.png": "png",
    "networks/0x4444444444444444444444444444444444444444/info.json": ["array"],
    // An editor's UTF-8 byte-order mark is no reason to drop a network; a JSON error over lines is one report line.
    "networks/0x8888888888888888888888888888888888888888/info.json": `\uFEFF${JSON.stringify({ name: "Marked" })}`,
    "networks/0x9999999999999999999999999999999999999999/info.json": '{\n  "name": nope\n}\n',
    "networks/notes.txt": "stray file",
    "curators/Some-Curator/info.json": { name: "Some Curator", icon: "https://elsewhere.example/icon.png" },
    "curators/bad slug!/info.json": { name: "Bad slug" },
    "vaults/0x5555555555555555555555555555555555555555/info.json": {
      name: "Curated",
      curatorId: "Some-Curator",
    },
    "vaults/0x6666666666666666666666666666666666666666/info.json": { name: "Orphan", curatorId: "ghost" },
    "vaults/0x7777777777777777777777777777777777777777/info.json": { name: "Bad curator", curatorId: 7 },
  });
  let result: Awaited<ReturnType<typeof readMetadataTree>>;

  beforeAll(async () => {
    result = await readMetadataTree(tree.dir, { iconBaseUrl: "https://cdn.example.org/meta/" });
  });
  afterAll(() => tree.remove());

  it("repairs what it can and reports each change", () => {
    const network = result.tree.networks.find((n) => n.address === A.toLowerCase());
    expect(network?.meta).toEqual({
      name: "Spaced",
      icon: `https://cdn.example.org/meta/networks/${A}/logo.png`,
      tags: ["l1"],
      links: [
        { name: "Website", type: "website", url: "https://example.org/" },
        { name: "Docs", type: "docs", url: "https://docs.example.org/" },
        { name: "X", type: "social", url: "https://x.com/example" },
      ],
    });
    expect(result.report.kinds.networks.repaired.filter((repaired) => repaired.entry === A)).toEqual([
      {
        entry: A,
        changes: [
          "lowercased address",
          "trimmed whitespace around name",
          "dropped description: not a string",
          "dropped tags that are not non-empty strings",
          'dropped link "Broken": no valid http(s) url',
          "dropped link #2: not an object",
          'swapped name and url of link "Docs"',
          'dropped unknown key "extra" of link "X"',
          'dropped link "FTP": no valid http(s) url',
          "dropped link #6: name, type and url must be non-empty strings",
          'dropped unknown key "cmcId"',
        ],
      },
    ]);
  });

  it("reads an info.json that starts with a byte-order mark, and says it removed it", () => {
    const marked = result.tree.networks.find(
      (n) => n.address === "0x8888888888888888888888888888888888888888",
    );
    expect(marked?.meta).toEqual({ name: "Marked" });
    expect(result.report.kinds.networks.repaired).toContainEqual({
      entry: "0x8888888888888888888888888888888888888888",
      changes: ["removed a byte-order mark from info.json"],
    });
  });

  it("prints each problem on one line, and a missing kind's folder once", () => {
    const printed = formatImportReport({
      ...result.report,
      overlay: { applied: 0, approved: 0, withoutOverlay: [], skipped: [] },
    });
    const invalid = printed
      .split("\n")
      .find((line) => line.includes("0x9999999999999999999999999999999999999999"));
    expect(invalid).toMatch(/^ {4}skipped networks\/0x9{40}: info\.json is not valid JSON \(.*\\n.*\)$/);
    expect(printed).toContain("    warning operators/: folder missing from the tree; none imported");
    expect(printed).not.toContain("operators/operators/");
  });

  it("skips unusable entries with a reason each", () => {
    expect(result.tree.networks).toHaveLength(2);
    expect(result.report.kinds.networks.imported).toBe(2);
    expect(result.report.kinds.networks.skipped).toEqual([
      { entry: "0x1111111111111111111111111111111111111111", reason: "no usable name" },
      {
        entry: "0x2222222222222222222222222222222222222222",
        reason: expect.stringMatching(/^info\.json is not valid JSON/),
      },
      { entry: "0x3333333333333333333333333333333333333333", reason: "no info.json" },
      { entry: "0x4444444444444444444444444444444444444444", reason: "info.json is not a JSON object" },
      {
        entry: "0x9999999999999999999999999999999999999999",
        reason: expect.stringMatching(/^info\.json is not valid JSON [^\n]*$/),
      },
      { entry: A.toLowerCase(), reason: `duplicate of ${A} (names compare case-insensitively)` },
      { entry: "not-an-address", reason: "folder name is not an address" },
      { entry: "notes.txt", reason: "not a folder" },
    ]);
    expect(result.report.kinds.curators.skipped).toEqual([
      { entry: "bad slug!", reason: "folder name is not a slug" },
    ]);
  });

  it("lowercases slugs and curatorIds, keeps a dangling curatorId with a warning, drops a non-string one", () => {
    expect(result.tree.curators).toEqual([{ id: "some-curator", meta: { name: "Some Curator" } }]);
    expect(result.report.kinds.curators.repaired).toEqual([
      { entry: "Some-Curator", changes: ["lowercased slug", 'dropped unknown key "icon"'] },
    ]);
    expect(result.tree.vaults).toEqual([
      {
        address: "0x5555555555555555555555555555555555555555",
        curatorId: "some-curator",
        meta: { name: "Curated" },
      },
      { address: "0x6666666666666666666666666666666666666666", curatorId: "ghost", meta: { name: "Orphan" } },
      { address: "0x7777777777777777777777777777777777777777", meta: { name: "Bad curator" } },
    ]);
    expect(result.report.kinds.vaults.repaired).toEqual([
      {
        entry: "0x5555555555555555555555555555555555555555",
        changes: ['lowercased curatorId "Some-Curator"'],
      },
      { entry: "0x7777777777777777777777777777777777777777", changes: ["dropped curatorId: not a string"] },
    ]);
    expect(result.report.kinds.vaults.warnings).toEqual([
      {
        entry: "0x6666666666666666666666666666666666666666",
        reason: 'curatorId "ghost" names no curator in the tree',
      },
    ]);
  });

  it("reports a missing registry folder and top-level entries that are not registries", () => {
    expect(result.tree.operators).toEqual([]);
    expect(result.report.kinds.operators.warnings).toEqual([
      { entry: "", reason: "folder missing from the tree; none imported" },
    ]);
    expect(result.report.skippedKinds).toEqual([
      { entry: "README.md", reason: "not a registry folder" },
      { entry: "docs/", reason: "not a registry kind" },
    ]);
  });

  it("refuses a directory that is not a metadata tree, and a bad icon base", async () => {
    const empty = writeTree({
      "tokens/0x8236a87084f8b84306f72007f36f2618a5634494/info.json": { name: "LBTC" },
    });
    try {
      await expect(readMetadataTree(empty.dir)).rejects.toThrow(MetadataTreeError);
      await expect(readMetadataTree(`${empty.dir}/missing`)).rejects.toThrow(/cannot read directory/);
      await expect(readMetadataTree(tree.dir, { iconBaseUrl: "not a url" })).rejects.toThrow(/icon base URL/);
    } finally {
      empty.remove();
    }
  });
});
