/** The folder of the console's built assets (index.html and assets/), once `npm run build` made them. */
export declare const CONSOLE_DIR: string;
