/// <reference types="vite/client" />
declare const __BUILD_INFO__: { version: string; commit: string; builtAt: string };
