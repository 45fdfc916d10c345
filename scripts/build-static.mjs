// Bundles the browser code (app/static/src/) into app/static/dist/ (gitignored) with esbuild,
// and copies KaTeX's stylesheet and fonts beside it. Run by `make install` after `npm ci`.
import { build } from "esbuild";
import { cpSync, mkdirSync } from "node:fs";

const out = "app/static/dist";
mkdirSync(out, { recursive: true });
await build({
  entryPoints: {
    editor: "app/static/src/editor.js",
    math: "app/static/src/math.js",
    submission: "app/static/src/submission.js",
    code: "app/static/src/code.js",
  },
  bundle: true,
  minify: true,
  format: "esm",
  target: "es2020",
  outdir: out,
  logLevel: "warning",
});
cpSync("node_modules/katex/dist/katex.min.css", `${out}/katex/katex.min.css`);
cpSync("node_modules/katex/dist/fonts", `${out}/katex/fonts`, { recursive: true });
console.log(`static bundle written to ${out}/`);
