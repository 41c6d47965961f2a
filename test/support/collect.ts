// What an async iterable yields, as an array (Array.fromAsync needs Node 22).

export async function collect<T>(items: AsyncIterable<T> | Iterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
