// Turns a page reader (an object whose nextPage() resolves to { items, done }) into an AsyncIterable of
// items, for `for await`. Pages are fetched one at a time, in order, even if next() is called again
// before the previous call settles; `break` (return()) stops the iteration and frees the reader; an
// aborted `signal` stops it at the next item with the reader's ABORTED error.
export function pagesToItems(reader, signal) {
  let claimed = false;
  return {
    [Symbol.asyncIterator]() {
      if (claimed) throw new TypeError("this iterable can be iterated only once; call iterate* again");
      claimed = true;
      let items = [];
      let index = 0;
      let finished = false;
      let chain = Promise.resolve();
      const release = () => {
        finished = true;
        items = [];
        if (reader) {
          reader.free();
          reader = undefined;
        }
      };
      const step = async () => {
        if (signal?.aborted && reader) {
          const error = reader.abortError();
          release();
          throw error;
        }
        while (index >= items.length) {
          if (finished) return { done: true, value: undefined };
          let page;
          try {
            page = await reader.nextPage();
          } catch (error) {
            release();
            throw error;
          }
          items = page.items;
          index = 0;
          if (page.done) {
            finished = true;
            reader.free();
            reader = undefined;
          }
        }
        return { done: false, value: items[index++] };
      };
      return {
        next() {
          const result = chain.then(step);
          chain = result.catch(() => {});
          return result;
        },
        async return(value) {
          release();
          return { done: true, value };
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
    },
  };
}
