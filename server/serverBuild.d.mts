/** Types of server/serverBuild.mjs (the build step of `npm start`, plain JavaScript because it runs first). */
export declare const SERVER_ENTRIES: Record<string, string>;
export declare function serverBuildDir(env?: NodeJS.ProcessEnv): string;
export declare function isServerBuildStale(outDir?: string): boolean;
export declare function buildServer(outDir?: string): Promise<string[]>;
export declare function buildServerIfStale(outDir?: string, log?: (message: string) => void): Promise<string>;
