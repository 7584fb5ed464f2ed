/** Declarations of generate-client.mjs, for the test that checks the generated files are current. */
export declare const GENERATED_PATH: string;
export declare const TYPE_CHECKS_PATH: string;
export declare const SCHEMA_MODULES: readonly string[];
export declare const GROUPS: Readonly<Record<string, { name: string; prefix: string }>>;
export declare function methodName(operationId: string, tag: string): string;
export declare function generateClientSource(routes: readonly unknown[]): string;
export declare function generateTypeChecks(routes: readonly unknown[], modules: Readonly<Record<string, object>>): string;
