// The baselines every benchmark figure is divided by, in a process of their own: `/bare`, one Fastify route
// with no database and a small JSON body; and, when BARE_BODY_FILE names a file, `/body`, a Fastify route
// answering that file's bytes (e.g. a copy of a large response of the server under test), so a route bounded
// by the size of its body can be compared with plain Fastify sending the same bytes.
import { readFileSync } from "node:fs";
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/bare", async () => ({ status: "ok", items: [1, 2, 3] }));

const bodyFile = process.env.BARE_BODY_FILE;
if (bodyFile) {
  const body = readFileSync(bodyFile);
  app.get("/body", async (_request, reply) => reply.type("application/json; charset=utf-8").send(body));
}

await app.listen({ port: 0, host: "127.0.0.1" });
const address = app.server.address();
const port = typeof address === "object" && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ msg: "bare listening", url: `http://127.0.0.1:${port}` })}\n`);
process.once("SIGTERM", () => app.close().then(() => process.exit(0)));
