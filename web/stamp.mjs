// Writes build-stamp.json next to the built client: a SHA-256 over the client's sources and lock file,
// so a fast Python test can tell whether the committed bundle was built from the current sources.
// The same digest is computed by tests/test_browser_bundle.py (files sorted by path, "\n" line ends).
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

const here = new URL(".", import.meta.url).pathname;
const inputs = ["index.html", "package.json", "package-lock.json", "tsconfig.json", "vite.config.ts", "stamp.mjs", "gen-types.mjs"];

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else out.push(relative(here, path).split(sep).join("/"));
  }
  return out;
}

const files = [...inputs, ...walk(join(here, "src"))].sort();
const hash = createHash("sha256");
for (const file of files) {
  const text = readFileSync(join(here, file), "utf8").replace(/\r\n/g, "\n");
  hash.update(file + "\0" + text + "\0");
}
const stamp = { sources: hash.digest("hex"), files };
writeFileSync(join(here, "../src/rummykit/server/static/build-stamp.json"), JSON.stringify(stamp, null, 1) + "\n");
console.log(`build-stamp.json: ${stamp.sources.slice(0, 12)} over ${files.length} files`);
