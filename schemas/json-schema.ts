// JSON Schema / OpenAPI views of the schemas, for the generated OpenAPI document. Parameters are shown as
// their decoded values (io "output": integers, arrays) with `required` taken from the input side, since
// zod counts a defaulted parameter as required in its output.
import { z } from "zod";

export type JsonSchema = z.core.JSONSchema.BaseSchema;

export interface OpenApiParameter {
  name: string;
  in: "query" | "path";
  required: boolean;
  description?: string;
  schema: JsonSchema;
  /** Arrays are sent comma-separated in one parameter (`slugs=a,b`): form style, not exploded. */
  style?: "form";
  explode?: false;
}

/** JSON Schema of a parameter object: decoded types, defaults shown, only truly required names required. */
export function paramsJsonSchema(schema: z.ZodObject): JsonSchema {
  const out = z.toJSONSchema(schema, { io: "output", target: "draft-2020-12" }) as JsonSchema;
  const required = requiredNames(schema);
  if (required.length > 0) out.required = required;
  else delete out.required;
  return out;
}

/** OpenAPI 3.1 Parameter Objects of a query or path parameter schema, in the schema's order. */
export function openApiParameters(schema: z.ZodObject, location: "query" | "path"): OpenApiParameter[] {
  const properties = paramsJsonSchema(schema).properties ?? {};
  const required = new Set(requiredNames(schema));
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property as JsonSchema;
    const parameter: OpenApiParameter = {
      name,
      in: location,
      required: location === "path" || required.has(name),
      schema: rest,
    };
    if (typeof description === "string") parameter.description = description;
    if (rest.type === "array") {
      parameter.style = "form";
      parameter.explode = false;
    }
    return parameter;
  });
}

/** JSON Schema of a request body as the client sends it (io "input"). */
export function bodyJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "input", target: "draft-2020-12" }) as JsonSchema;
}

/** JSON Schema of a response (envelope, record) as the service sends it (io "output"). */
export function responseJsonSchema(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: "output", target: "draft-2020-12" }) as JsonSchema;
}

function requiredNames(schema: z.ZodObject): string[] {
  return Object.entries(schema.shape)
    .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
    .map(([name]) => name);
}
