// The public API's schemas in one import: enums, records, envelope, errors, parameters and bodies,
// the parsers that map failures to error codes, and the JSON Schema views for the OpenAPI document.
export * from "./activity-records.ts";
export * from "./bodies.ts";
export * from "./digest-records.ts";
export * from "./dynamic-responses.ts";
export * from "./enums.ts";
export * from "./envelope.ts";
export * from "./errors.ts";
export * from "./fields.ts";
export * from "./json-schema.ts";
export * from "./methodology.ts";
export * from "./orientation.ts";
export * from "./param-fields.ts";
export * from "./params.ts";
export * from "./parse-params.ts";
export * from "./project-detail.ts";
export * from "./records.ts";
