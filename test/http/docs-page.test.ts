// The docs page in a real browser (Debian's Chromium) on a fresh devnet, as a newcomer meets it: `/` redirects to it,
// POST /quote's request-body model shows the /quote request schema's fields (in the model view, not the example JSON,
// which would hold the field names even if the schema rendered as "string"), and "Try it out" → "Execute" with the
// page's own example body answers 200, read from the rendered response.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DevnetSluice } from "../../src/app/devnet.ts";
import { startTestDevnet, temporaryDataDir } from "../devnet/support.ts";
import { launchBrowser, type TestBrowser } from "../support/browser.ts";

const QUOTE_FIELDS = [
  "tokenInChainId",
  "tokenOutChainId",
  "tokenIn",
  "tokenOut",
  "type",
  "amount",
  "swapper",
  "outputs",
];

describe("the docs page in a browser, on a fresh devnet", () => {
  const dataDir = temporaryDataDir();
  let devnet: DevnetSluice;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    devnet = await startTestDevnet(dataDir.path);
    browser = await launchBrowser();
    page = await browser.browser.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await devnet?.sluice.stop();
    dataDir.remove();
  });

  it("opens from / and shows the /quote request schema's fields in its request-body model", async () => {
    const origin = new URL(devnet.apiUrl).origin;
    await page.goto(`${origin}/`);
    expect(new URL(page.url()).pathname).toMatch(/^\/api\/v1\/docs\/?/);

    const quote = page.locator("#operations-swap-post_quote");
    await quote.locator(".opblock-summary").first().click();
    const requestBody = quote.locator(".opblock-section-request-body");
    await requestBody.locator('button[data-name="model"]').click();
    const model = requestBody.locator(".model-box");
    await model.waitFor();
    // OpenAPI 3.1 renders as a JSON Schema 2020-12 model: the object's title and type, then one property per field
    // (a schema rendered as "string" would have neither).
    const head = model.locator('article[data-json-schema-level="0"] > .json-schema-2020-12-head');
    expect(await head.locator(".json-schema-2020-12__title").first().textContent()).toBe("QuoteRequestInput");
    expect(await head.locator(".json-schema-2020-12__attribute--primary").first().textContent()).toBe(
      "object",
    );
    const properties = model.locator(
      '.json-schema-2020-12-keyword--properties article[data-json-schema-level="1"] > .json-schema-2020-12-head',
    );
    await properties.first().waitFor();
    const names = await properties.locator(".json-schema-2020-12__title").allTextContents();
    expect(names).toEqual(expect.arrayContaining(QUOTE_FIELDS));
  });

  it('answers 200 to "Try it out" → "Execute" on POST /quote with the page\'s example body', async () => {
    const quote = page.locator("#operations-swap-post_quote");
    await quote.locator("button.try-out__btn").click();
    const body = quote.locator("textarea.body-param__text");
    // The page's example: the devnet's tokens, its chain id and its funded demo swapper.
    const example = JSON.parse(await body.inputValue());
    const { deployment } = devnet.bundled;
    expect(example).toMatchObject({
      tokenInChainId: deployment.chainId,
      tokenIn: deployment.inputTokens[0]!.address,
      swapper: devnet.chain.accounts.demo[0]!.account.address,
    });

    await quote.locator("button.execute").click();
    const status = quote.locator(".live-responses-table .response .response-col_status").first();
    await status.waitFor({ timeout: 30_000 });
    const answer = quote.locator(".live-responses-table .response-col_description .microlight").first();
    expect((await status.textContent())?.trim(), (await answer.textContent()) ?? "").toBe("200");
    const answered = JSON.parse((await answer.textContent()) ?? "");
    expect(answered.quotes.length).toBeGreaterThan(0);
  });
});
