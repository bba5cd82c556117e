// Runs an async function over items with a few in flight at once, yielding results in input order, so a
// source keeps the network busy while batches are still written one at a time and in a stable order.

/** Default number of batches a source fetches at once; per-host limits in the HTTP client still apply. */
export const BATCHES_IN_FLIGHT = 4;

export async function* inOrder<T, R>(
  items: readonly T[],
  width: number,
  work: (item: T, index: number) => Promise<R>,
): AsyncGenerator<R> {
  const running: Promise<R>[] = [];
  let next = 0;
  const start = () => {
    const index = next++;
    const promise = work(items[index] as T, index);
    // Awaited below in order; this only stops a failure that is not yet awaited from being reported as
    // unhandled while earlier items are still being yielded.
    promise.catch(() => undefined);
    running.push(promise);
  };
  while (next < items.length && running.length < width) start();
  while (running.length > 0) {
    const result = await (running.shift() as Promise<R>);
    if (next < items.length) start();
    yield result;
  }
}

/** Consecutive slices of at most `size` items. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}
