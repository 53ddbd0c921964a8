// Where the console's built assets are: `npm run build` (vite build) writes them to dist/, and
// `oz0 serve` serves them from there with no build step at run time.
import { fileURLToPath } from "node:url";

export const CONSOLE_DIR = fileURLToPath(new URL("./dist/", import.meta.url));
