// Bounds the answers the shim holds for clients that have not taken them. An answer built per request (MCP, POST
// /api/v1/query: up to a megabyte each, unlike the shared prepared pages) reserves its largest size against its
// connection and its client address from the moment it is admitted until its last byte is handed to the kernel, or its
// connection closes. A request that would pass either bound is refused at once with 429, before anything is built: a
// client that sends requests and never reads (its receive window full) holds a few answers, not hundreds (issue 35).
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import { anonymousQuotaKey } from "../caller.ts";
import { ApiError } from "../errors.ts";

export interface UnreadLimits {
  perConnectionBytes: number;
  perAddressBytes: number;
}

export const UNREAD_LIMITS: Readonly<UnreadLimits> = {
  /**
   * Bytes of answers one connection may have building or unread: two of the largest (a pipelined request may be
   * answered while the first answer is still being read), so a client reading as it goes is never refused.
   */
  perConnectionBytes: 2_000_000,
  /**
   * Bytes of answers one client address (an IPv6 /64, as quotas count it) may have building or unread over all its
   * connections and keys: eight of the largest, twice the queries one address may have in flight (core/query/limits.ts).
   */
  perAddressBytes: 8_000_000,
};

/** Seconds a refused client is told to wait: time to read what it was sent. */
const RETRY_AFTER_SECONDS = "1";

interface Reservation {
  bytes: number;
  address: string;
}

/** Reservations by connection and by address; a connection's are all released when it closes. */
export class UnreadAnswers {
  private readonly bySocket = new Map<Socket, Set<Reservation>>();
  private readonly byAddress = new Map<string, number>();
  readonly limits: Readonly<UnreadLimits>;

  constructor(limits: Readonly<UnreadLimits> = UNREAD_LIMITS) {
    this.limits = limits;
  }

  /** Bytes reserved for a client address's answers now. */
  addressBytes(address: string): number {
    return this.byAddress.get(address) ?? 0;
  }

  /** Bytes reserved for a connection's answers now. */
  connectionBytes(socket: Socket): number {
    let bytes = 0;
    for (const held of this.bySocket.get(socket) ?? []) bytes += held.bytes;
    return bytes;
  }

  /**
   * Reserves `bytes` for an answer on `socket` to `address` until `res` is done; or the refusal naming the bound it
   * would pass.
   */
  reserve(socket: Socket, res: ServerResponse, address: string, bytes: number): ApiError | undefined {
    if (socket.destroyed)
      return new ApiError("rate_limit_exceeded", "The connection closed before the answer.");
    const connection = this.connectionBytes(socket);
    if (connection + bytes > this.limits.perConnectionBytes) {
      return refusal(
        `This connection has ${mb(connection)} of answers building or not yet read by your client, the most one connection may hold (${mb(this.limits.perConnectionBytes)}); read them before sending the next request.`,
      );
    }
    const fromAddress = this.addressBytes(address);
    if (fromAddress + bytes > this.limits.perAddressBytes) {
      return refusal(
        `Your address has ${mb(fromAddress)} of answers building or not yet read over its connections, the most one address may hold (${mb(this.limits.perAddressBytes)}); read them before sending more requests.`,
      );
    }
    const held: Reservation = { bytes, address };
    let onSocket = this.bySocket.get(socket);
    if (onSocket === undefined) {
      onSocket = new Set();
      this.bySocket.set(socket, onSocket);
      // a response queued behind another on a connection that closes never emits its own 'close'
      socket.once("close", () => {
        for (const left of this.bySocket.get(socket) ?? []) this.unhold(left);
        this.bySocket.delete(socket);
      });
    }
    onSocket.add(held);
    this.byAddress.set(address, fromAddress + bytes);
    // 'close' follows 'finish' (the last byte taken by the kernel) or an aborted response
    res.once("close", () => {
      if (this.bySocket.get(socket)?.delete(held)) this.unhold(held);
    });
    return undefined;
  }

  private unhold(held: Reservation): void {
    const left = (this.byAddress.get(held.address) ?? 0) - held.bytes;
    if (left > 0) this.byAddress.set(held.address, left);
    else this.byAddress.delete(held.address);
  }
}

/** Reserves `answerBytes` for the request's answer, or the refusal (see UnreadAnswers.reserve). */
export function reserveAnswer(
  unread: UnreadAnswers,
  request: FastifyRequest,
  reply: FastifyReply,
  answerBytes: number,
): ApiError | undefined {
  // the client address as quotas and the query pool count it (X-Forwarded-For through trusted proxies, IPv6 by /64)
  return unread.reserve(request.raw.socket, reply.raw, anonymousQuotaKey(request.ip), answerBytes);
}

function refusal(message: string): ApiError {
  return new ApiError("rate_limit_exceeded", message, { "retry-after": RETRY_AFTER_SECONDS });
}

function mb(bytes: number): string {
  return `${(bytes / 1_000_000).toLocaleString("en-US", { maximumFractionDigits: 1 })} MB`;
}
