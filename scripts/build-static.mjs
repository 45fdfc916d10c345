// Bundles the browser code (app/static/src/) into app/static/dist/ (gitignored) with esbuild,
// and copies KaTeX's stylesheet and fonts and Swagger UI's prebuilt bundle (the API docs page,
// served from here rather than a CDN) beside it. Run by `make install` after `npm ci`.
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
    apidocs: "app/static/src/apidocs.js",
    playground: "app/static/src/playground.js",
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
for (const f of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
  cpSync(`node_modules/swagger-ui-dist/${f}`, `${out}/swagger/${f}`);
}
console.log(`static bundle written to ${out}/`);
