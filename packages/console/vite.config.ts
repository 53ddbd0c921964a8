// The console's build: Preact's JSX through Vite's own transform, every asset bundled into
// dist/ with hashed names (nothing loaded from elsewhere at run time).
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: { outDir: "dist", emptyOutDir: true, target: "es2022", assetsInlineLimit: 0 },
});
