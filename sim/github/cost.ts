// GitHub's static checks and point cost for a GraphQL call, done before execution as GitHub does:
// connections need first/last when they list items (1–100), nodes(ids) takes at most 100 ids, a call may
// ask for at most 500,000 nodes, and the cost is the requests needed (assuming every first/last limit is
// reached; nodes(ids) multiplies by its number of ids) divided by 100, rounded, at least 1.
import {
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getArgumentValues,
  getLocation,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

export const MAX_PAGE_SIZE = 100;
export const MAX_NODE_IDS = 100;
export const MAX_NODES_PER_CALL = 500_000;
const REQUESTS_PER_POINT = 100;

export interface StaticError {
  type: string;
  path?: string[];
  locations?: Array<{ line: number; column: number }>;
  message: string;
}

export interface QueryCost {
  /** Requests needed to fulfil every connection, as GitHub counts them. */
  requests: number;
  /** Most nodes the call may return (rateLimit.nodeCount). */
  nodeCount: number;
  /** Points charged: max(1, round(requests / 100)). */
  cost: number;
  errors: StaticError[];
}

export function analyzeQuery(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): QueryCost {
  let requests = 0;
  let nodeCount = 0;
  const errors: StaticError[] = [];
  const locate = (node: FieldNode) => (node.loc ? [getLocation(node.loc.source, node.loc.start)] : []);
  const fail = (type: string, path: string[], node: FieldNode, message: string) =>
    errors.push({ type, path, locations: locate(node), message });

  const walk = (
    set: SelectionSetNode,
    parent: GraphQLNamedType | undefined,
    multiplier: number,
    path: string[],
  ) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) visitField(selection, parent, multiplier, path);
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        walk(selection.selectionSet, type, multiplier, path);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment)
          walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value), multiplier, path);
      }
    }
  };

  const visitField = (
    node: FieldNode,
    parent: GraphQLNamedType | undefined,
    multiplier: number,
    path: string[],
  ) => {
    if (!parent || !(isObjectType(parent) || isInterfaceType(parent))) return;
    const def = parent.getFields()[node.name.value] as GraphQLField<unknown, unknown> | undefined;
    if (!def) return;
    const here = [...path, node.alias?.value ?? node.name.value];
    const named = getNamedType(def.type);
    const args = getArgumentValues(def, node, variables);
    if (parent === schema.getQueryType() && def.name === "nodes") {
      const ids = Array.isArray(args.ids) ? args.ids.length : 0;
      if (ids > MAX_NODE_IDS) {
        fail(
          "ARGUMENT_LIMIT",
          here,
          node,
          `You may not provide more than ${MAX_NODE_IDS} node ids; you provided ${ids}.`,
        );
      }
      requests += multiplier;
      nodeCount += multiplier * ids;
      if (node.selectionSet) walk(node.selectionSet, named, multiplier * ids, here);
      return;
    }
    if (named.name.endsWith("Connection")) {
      const first = typeof args.first === "number" ? args.first : undefined;
      const last = typeof args.last === "number" ? args.last : undefined;
      if (
        first === undefined &&
        last === undefined &&
        node.selectionSet &&
        listsItems(node.selectionSet, fragments)
      ) {
        const message = `You must provide a \`first\` or \`last\` value to properly paginate the \`${def.name}\` connection.`;
        fail("MISSING_PAGINATION_BOUNDARIES", here, node, message);
      }
      for (const [name, value] of [
        ["first", first],
        ["last", last],
      ] as const) {
        if (value !== undefined && value > MAX_PAGE_SIZE) {
          const message = `Requesting ${value} records on the \`${def.name}\` connection exceeds the \`${name}\` limit of ${MAX_PAGE_SIZE} records.`;
          fail("EXCESSIVE_PAGINATION", here, node, message);
        }
      }
      const limit = Math.max(0, first ?? last ?? 0);
      requests += multiplier;
      nodeCount += multiplier * limit;
      if (node.selectionSet) walk(node.selectionSet, named, multiplier * limit, here);
      return;
    }
    if (node.selectionSet) walk(node.selectionSet, named, multiplier, here);
  };

  walk(operation.selectionSet, schema.getRootType(operation.operation) ?? undefined, 1, []);
  if (nodeCount > MAX_NODES_PER_CALL) {
    errors.push({
      type: "MAX_NODE_LIMIT_EXCEEDED",
      message: `This query requests up to ${nodeCount.toLocaleString("en-US")} possible nodes which exceeds the maximum limit of ${MAX_NODES_PER_CALL.toLocaleString("en-US")}.`,
    });
  }
  return { requests, nodeCount, cost: Math.max(1, Math.round(requests / REQUESTS_PER_POINT)), errors };
}

/** Whether a connection's selection asks for its items (edges or nodes), through fragments too. */
function listsItems(set: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): boolean {
  return set.selections.some((selection) => {
    if (selection.kind === Kind.FIELD)
      return selection.name.value === "edges" || selection.name.value === "nodes";
    if (selection.kind === Kind.INLINE_FRAGMENT) return listsItems(selection.selectionSet, fragments);
    const fragment = fragments.get(selection.name.value);
    return fragment ? listsItems(fragment.selectionSet, fragments) : false;
  });
}
