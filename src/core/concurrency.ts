/**
 * Run `task` on every item, at most `limit` at a time: each of the `limit` workers takes the next
 * item as soon as it has finished one, so a slow item never holds up the others. Before taking an
 * item a worker asks `keepGoing` (when given): false stops it taking more, and the run ends once
 * the items already taken are done. A task that throws rejects the run (the other workers finish
 * the item they hold and take no more).
 */
export async function forEachAtMost<T>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<void>,
  keepGoing: () => boolean = () => true,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length && keepGoing()) {
      const i = next++;
      try {
        await task(items[i]!, i);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
