// The types of build-plugins.mjs, for the tests that import it.
export declare function stalePlugins(): string[];
export declare function buildStalePlugins(): string[];
export declare function bundleStaleSdk(sdk?: string, bundle?: () => void): boolean;
export declare function setup(): void;
