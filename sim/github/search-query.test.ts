// GitHub search syntax: qualifiers, ranges in all their forms, and free words.
import { describe, expect, it } from "vitest";
import { parseDay } from "../dates.ts";
import { parseCountRange, parseSearchQuery, parseTimeRange } from "./search-query.ts";

const day = (text: string) => parseDay(text) as number;

describe("parseTimeRange", () => {
  it("reads the range forms GitHub accepts, a bare date covering its whole day", () => {
    expect(parseTimeRange("2024-01-01..2024-01-31")).toEqual({
      min: day("2024-01-01"),
      max: day("2024-02-01"),
    });
    expect(parseTimeRange(">=2024-01-01")).toEqual({ min: day("2024-01-01"), max: Number.POSITIVE_INFINITY });
    expect(parseTimeRange(">2024-01-01")).toEqual({ min: day("2024-01-02"), max: Number.POSITIVE_INFINITY });
    expect(parseTimeRange("<=2024-01-01")).toEqual({ min: Number.NEGATIVE_INFINITY, max: day("2024-01-02") });
    expect(parseTimeRange("<2024-01-01")).toEqual({ min: Number.NEGATIVE_INFINITY, max: day("2024-01-01") });
    expect(parseTimeRange("2024-01-01")).toEqual({ min: day("2024-01-01"), max: day("2024-01-02") });
    expect(parseTimeRange("*..2024-01-01")).toEqual({
      min: Number.NEGATIVE_INFINITY,
      max: day("2024-01-02"),
    });
    expect(parseTimeRange("yesterday")).toBeUndefined();
  });
});

describe("parseCountRange", () => {
  it("reads N, >N, >=N, <N, <=N and N..M", () => {
    expect(parseCountRange("10")).toEqual({ min: 10, max: 10 });
    expect(parseCountRange(">10")).toEqual({ min: 11, max: Number.POSITIVE_INFINITY });
    expect(parseCountRange(">=10")).toEqual({ min: 10, max: Number.POSITIVE_INFINITY });
    expect(parseCountRange("<10")).toEqual({ min: 0, max: 9 });
    expect(parseCountRange("10..*")).toEqual({ min: 10, max: Number.POSITIVE_INFINITY });
    expect(parseCountRange("many")).toBeUndefined();
  });
});

describe("parseSearchQuery", () => {
  it("separates qualifiers from free words and leaves forks out by default", () => {
    expect(
      parseSearchQuery('topic:RAG "vector store" stars:>=50 archived:false sort:stars-asc agent'),
    ).toEqual({
      words: ["vector store", "agent"],
      topics: ["rag"],
      stars: { min: 50, max: Number.POSITIVE_INFINITY },
      fork: "exclude",
      archived: false,
      sort: { field: "stars", descending: false },
    });
    expect(parseSearchQuery("fork:only").fork).toBe("only");
    expect(parseSearchQuery('"Vector Database" in:name,Description fork:true')).toEqual({
      words: ["vector database"],
      in: ["name", "description"],
      topics: [],
      fork: "include",
      sort: { field: "best", descending: true },
    });
    expect(parseSearchQuery("in:body").words).toEqual(["in:body"]);
    expect(parseSearchQuery("created:soon").words).toEqual(["created:soon"]);
  });
});
